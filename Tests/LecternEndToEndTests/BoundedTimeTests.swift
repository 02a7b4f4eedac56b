import Foundation
import Testing
import LecternTesting

/// What a user writes cannot make a run take unbounded time: regular expressions with
/// exponential backtracking stop at a time limit with an error naming their key, YAML alias
/// bombs are refused before they are expanded, and an EPUB's spine is read in linear time.
struct BoundedTimeTests {
    /// Runs `lectern ARGUMENTS` under `/usr/bin/time`, returning its output, its wall time and
    /// the CPU time it used (user + system), in seconds.
    static func timed(_ arguments: [String], db: URL? = nil) throws -> (output: Tool.Output, wall: Double, cpu: Double) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("time-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        let output = try Tool.run("/usr/bin/time", ["-o", report.path, "-f", "%e %U %S", Tool.lectern] + arguments + (db.map { ["--db", $0.path] } ?? []))
        let fields = try String(contentsOf: report, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(fields.count >= 3, "no times from /usr/bin/time")
        let times = fields.suffix(3).map { $0 }
        return (output, times[0], times[1] + times[2])
    }

    /// The line of `text` (1-based) on which `needle` first appears.
    static func line(of needle: String, in text: String) -> Int {
        (text.components(separatedBy: "\n").firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    @Test(.enabled(if: Corpus.available))
    func aBacktrackingHeadingPatternOnAliceStopsWithAnErrorNamingTheKey() throws {
        let ws = try Workspace("bounded-heading")
        let yaml = """
            title: Alice
            sources:
              - path: \(Corpus.file("text/pg11-alice-in-wonderland.txt").path)
                chapters:
                  heading: '^([A-Za-z]+ ?)+:$'
            voice: { name: en-gb, rate: 0.9 }
            """
        let manifest = try ws.write("alice.yml", yaml)
        let (output, wall, _) = try Self.timed(["check", manifest.path])
        #expect(output.status != 0)
        let expected = "\(manifest.path):\(Self.line(of: "heading:", in: yaml)): sources[1].chapters.heading: /^([A-Za-z]+ ?)+:$/ took more than"
        #expect(output.stderr.contains(expected), "\(output.stderr)")
        #expect(wall < 15, "the error came after \(wall) s")
    }

    @Test func aNestedRepetitionOnALongLineStopsWithAnErrorAsASkipPatternAndAsALexiconPattern() throws {
        let ws = try Workspace("bounded-skip")
        try ws.write("line.txt", String(repeating: "a", count: 200) + "!\n\nA second paragraph.\n")
        let skipYAML = """
            title: Line
            sources:
              - path: line.txt
                skip:
                  - '^Nothing$'
                  - '(a+)+$'
            voice: { name: en-gb, rate: 0.9 }
            """
        let skipManifest = try ws.write("skip.yml", skipYAML)
        for command in ["check", "run"] {
            let (output, wall, _) = try Self.timed([command, skipManifest.path], db: command == "run" ? ws.db : nil)
            #expect(output.status != 0)
            #expect(output.stderr.contains("\(skipManifest.path):\(Self.line(of: "(a+)+$", in: skipYAML)): sources[1].skip[2]: /(a+)+$/ took more than 1 s"),
                    "\(command): \(output.stderr)")
            #expect(wall < 10, "\(command): the error came after \(wall) s")
        }
        #expect(!ws.exists("out/skip/skip.mp3"))

        let lexiconYAML = """
            words:
              Lectern: lek-turn
            patterns:
              '\\bDr\\.': Doctor
              '(a+)+$': many
            """
        let lexicon = try ws.write("names.yml", lexiconYAML)
        let manifest = try ws.write("lexicon.yml", """
            title: Line
            sources: [line.txt]
            lexicons: [names.yml]
            voice: { name: en-gb, rate: 0.9 }
            """)
        let (output, wall, _) = try Self.timed(["check", manifest.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(lexicon.path):\(Self.line(of: "(a+)+$", in: lexiconYAML)): patterns: /(a+)+$/ took more than 1 s"),
                "\(output.stderr)")
        #expect(wall < 10, "the error came after \(wall) s")
    }

    /// Nine levels of nine aliases: 9⁹ values once expanded, the last also used as a mapping key.
    static let aliasBomb: String = {
        var lines = [#"a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]"#]
        for i in 1...8 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]") }
        lines += ["title: Bomb", "sources: [book.txt]", "? *a8", ": key"]
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func aYAMLAliasBombIsRefusedInUnderASecond() throws {
        let ws = try Workspace("bounded-yaml")
        try ws.write("book.txt", "A short book.\n")
        let manifest = try ws.write("bomb.yml", Self.aliasBomb)
        let (output, wall, _) = try Self.timed(["check", manifest.path])
        #expect(output.status != 0)
        // a5 holds 9⁶ values: the first line past the limit of 100,000.
        #expect(output.stderr.contains("\(manifest.path):6: its aliases expand to more than 100000 values"), "\(output.stderr)")
        #expect(wall < 1, "refused after \(wall) s")

        // Many aliases of a small value are refused by their count, at the first one too many.
        let many = "title: Many\nsources: [book.txt]\nx: &x small\nlist:\n" + String(repeating: "  - *x\n", count: 1_500)
        let manyManifest = try ws.write("many.yml", many)
        let refused = try Self.timed(["check", manyManifest.path])
        #expect(refused.output.stderr.contains("\(manyManifest.path):1005: more than 1000 aliases"), "\(refused.output.stderr)")

        // A few aliases, as a manifest might use them, are fine.
        let fine = try ws.write("fine.yml", """
            title: Fine
            sources: [book.txt]
            voice: &v { name: en-gb, rate: 0.9 }
            styles: { heading: *v }
            """)
        let ok = try Tool.run(Tool.lectern, ["check", fine.path])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// Writes an EPUB 3 of `count` spine items, one short paragraph each, with a navigation entry each.
    static func writeEPUB(items count: Int, to url: URL) throws {
        let script = """
            import sys, zipfile
            n, out = int(sys.argv[1]), sys.argv[2]
            z = zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED)
            z.writestr(zipfile.ZipInfo('mimetype'), 'application/epub+zip')
            z.writestr('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
            items, refs, nav = [], [], []
            for i in range(n):
                z.writestr(f'OEBPS/c{i}.xhtml', f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c{i}</title></head><body><p>Part {i} is short.</p></body></html>')
                items.append(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>')
                refs.append(f'<itemref idref="c{i}"/>')
                nav.append(f'<li><a href="c{i}.xhtml">Part {i}</a></li>')
            z.writestr('OEBPS/nav.xhtml', '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol>' + ''.join(nav) + '</ol></nav></body></html>')
            z.writestr('OEBPS/content.opf', '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">many</dc:identifier><dc:title>Many Parts</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2020-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' + ''.join(items) + '</manifest><spine>' + ''.join(refs) + '</spine></package>')
            z.close()
            """
        let made = try Tool.run("/usr/bin/python3", ["-c", script, String(count), url.path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    @Test func anEPUBOf20000SpineItemsIsPlannedInUnderACPUMinuteAndDoublingItLessThanDoublesAndAHalfTheTime() throws {
        let ws = try Workspace("bounded-spine")
        var cpu: [Int: Double] = [:]
        var epubs: [Int: URL] = [:]
        for count in [20_000, 40_000] {
            epubs[count] = ws.url.appendingPathComponent("many-\(count).epub")
            try Self.writeEPUB(items: count, to: epubs[count]!)
        }
        // CPU time, not wall time, and the least of up to two runs of each: other tests share the
        // machine's cores and caches. A second round only when the first looks super-linear.
        var ratio = Double.infinity
        for _ in 0..<2 where ratio >= 2.5 {
            for count in [20_000, 40_000] {
                let (output, wall, used) = try Self.timed(["check", epubs[count]!.path])
                try #require(output.status == 0, "\(output.stderr)")
                #expect(output.stdout.contains("\(count) chapters, \(count) paragraphs, \(count * 4) words"), "\(output.stdout.prefix(300))")
                // Its CPU time: the wall time of a loaded machine (make test runs suites side by side) says little.
                if count == 20_000 { #expect(used < 60, "\(count) items took \(used) s of CPU (\(wall) s)") }
                cpu[count] = min(cpu[count] ?? .infinity, used)
            }
            ratio = cpu[40_000]! / cpu[20_000]!
        }
        #expect(ratio < 2.5, "20,000 items: \(cpu[20_000]!) s, 40,000: \(cpu[40_000]!) s (×\(ratio))")
    }
}
