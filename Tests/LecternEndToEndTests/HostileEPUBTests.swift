import Foundation
import Testing

/// Hostile and broken EPUBs, built by the tests with Python's zipfile: each is refused with a
/// clear error naming the EPUB (and the entry), quickly and in little memory, and nothing is
/// written outside the workspace's own output folder.
struct HostileEPUBTests {
    static let container = """
        <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
        """
    static func opf(spine: String = #"<spine><itemref idref="ch1"/></spine>"#) -> String {
        """
        <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>Hostile</dc:title>\
        <dc:language>en</dc:language></metadata><manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>\
        </manifest>\(spine)</package>
        """
    }
    static func chapter(_ body: String, doctype: String = "") -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>\(doctype)<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>\
        <body><h1>One</h1><p>\(body)</p></body></html>
        """
    }

    /// Adds `file`'s bytes to the EPUB as the entry `entry`, through Python's zipfile.
    static func add(_ file: URL, to epub: URL, as entry: String) throws {
        let add = try Tool.run("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'a').write(sys.argv[2], sys.argv[3])",
                                           epub.path, file.path, entry])
        try #require(add.status == 0, "\(add.stderr)")
    }

    /// Writes an EPUB whose entries are (name, text) pairs — or (name, "ZEROS:n") for n zero
    /// bytes, deflated — through Python's zipfile, which writes any name it is given.
    static func epub(_ ws: Workspace, _ name: String, _ entries: [(String, String)], truncateTo: Int? = nil) throws -> URL {
        let url = ws.url.appendingPathComponent(name)
        let spec = try JSONSerialization.data(withJSONObject: entries.map { [$0.0, $0.1] })
        let specURL = ws.url.appendingPathComponent("\(name).json")
        try spec.write(to: specURL)
        let script = """
            import json, sys, zipfile
            entries = json.load(open(sys.argv[1]))
            with zipfile.ZipFile(sys.argv[2], "w") as z:
                z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
                for name, text in entries:
                    if text.startswith("ZEROS:"):
                        info = zipfile.ZipInfo(name)
                        info.compress_type = zipfile.ZIP_DEFLATED
                        with z.open(info, "w", force_zip64=True) as f:
                            block = bytes(1 << 20)
                            for _ in range(int(text[6:]) >> 20): f.write(block)
                    else:
                        z.writestr(zipfile.ZipInfo(name), text, compress_type=zipfile.ZIP_DEFLATED)
            """
        let made = try Tool.run("python3", ["-c", script, specURL.path, url.path])
        try #require(made.status == 0, "python3 could not build \(name): \(made.stderr)")
        try FileManager.default.removeItem(at: specURL)
        if let truncateTo {
            let data = try Data(contentsOf: url)
            try data.prefix(truncateTo).write(to: url)
        }
        return url
    }

    /// Runs `lectern run` on the EPUB under GNU time: (exit status, stderr, seconds, peak KiB);
    /// `written` is what appeared in the workspace meanwhile.
    static func run(_ ws: Workspace, _ epub: URL) throws -> (status: Int32, stderr: String, seconds: Double, kib: Int, written: Set<String>) {
        let manifest = try ws.write("\(epub.deletingPathExtension().lastPathComponent).yml",
                                    "title: Hostile\nsources: [\(epub.lastPathComponent)]\nvoice: { name: en-us }\n")
        let timing = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-time-\(UUID().uuidString).txt")
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: db) }
        let before = files(ws)
        let result = try Tool.run("/usr/bin/time", ["-f", "%e %M", "-o", timing.path, Tool.lectern, "run", "--quiet", manifest.path,
                                                    "--db", db.appendingPathComponent("lectern.sqlite").path])
        // GNU time writes "Command exited with non-zero status N" first when the command fails.
        let lines = try String(contentsOf: timing, encoding: .utf8).split(separator: "\n")
        try FileManager.default.removeItem(at: timing)
        let measured = (lines.last ?? "").split(separator: " ")
        return (result.status, result.stderr, Double(measured.first ?? "") ?? 99, Int(measured.last ?? "") ?? 0, files(ws).subtracting(before))
    }

    static func files(_ ws: Workspace) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: ws.url.path)?.compactMap { $0 as? String } ?? [])
    }

    @Test(arguments: [
        ("zip slip", "outside the book"),
        ("absolute path", "outside the book"),
        ("zip bomb", "as only a zip bomb does"),
        ("huge entry", "would expand to 536870912 bytes"),
        ("XXE", "an external entity \"xxe\" → file:///etc/passwd"),
        ("billion laughs", "entity"),
        ("truncated", "not a readable zip archive"),
        ("missing spine file", "spine item \"ch1\" is OEBPS/ch1.xhtml, which is not in the EPUB"),
        ("no spine", "has no spine"),
        ("malformed XHTML", "OEBPS/ch1.xhtml is malformed XHTML, line 1"),
    ])
    func hostileEPUBIsAClearErrorQuicklyAndWritesNothing(kind: String, expected: String) throws {
        let ws = try Workspace("hostile")
        let base: [(String, String)] = [("META-INF/container.xml", Self.container), ("OEBPS/content.opf", Self.opf())]
        let good = ("OEBPS/ch1.xhtml", Self.chapter("Hello there."))
        let entries: [(String, String)]
        var truncate: Int?
        switch kind {
        case "zip slip": entries = base + [good, ("../../escaped.txt", "gotcha")]
        case "absolute path": entries = base + [good, ("/tmp/lectern-escaped.txt", "gotcha")]
        case "zip bomb": entries = base + [good, ("OEBPS/bomb.bin", "ZEROS:\(100 << 20)")]
        case "huge entry": entries = base + [good, ("OEBPS/bomb.bin", "ZEROS:\(512 << 20)")]
        case "XXE":
            entries = base + [("OEBPS/ch1.xhtml", Self.chapter("Secret: &xxe;", doctype: #"<!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>"#))]
        case "billion laughs":
            var dtd = #"<!DOCTYPE html [<!ENTITY lol "lol">"#
            for i in 1...9 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
            entries = base + [("OEBPS/ch1.xhtml", Self.chapter("&lol9;", doctype: dtd + "]>"))]
        case "truncated":
            entries = base + [good]
            truncate = 300
        case "missing spine file": entries = base
        case "no spine": entries = [("META-INF/container.xml", Self.container), ("OEBPS/content.opf", Self.opf(spine: "")), good]
        default: entries = base + [("OEBPS/ch1.xhtml", Self.chapter("Unclosed <b>bold.").replacingOccurrences(of: "</p>", with: ""))]
        }
        let epub = try Self.epub(ws, "hostile.epub", entries, truncateTo: truncate)
        let result = try Self.run(ws, epub)
        #expect(result.status == 1, "\(kind): \(result.stderr)")
        #expect(result.stderr.contains(epub.path), "\(kind): the error names the EPUB: \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(kind): \(result.stderr)")
        #expect(result.seconds < 10, "\(kind) took \(result.seconds) s")
        #expect(result.kib < 200_000, "\(kind) used \(result.kib) KiB")
        #expect(result.written.isEmpty, "\(kind): files appeared: \(result.written)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/lectern-escaped.txt"))
        #expect(!FileManager.default.fileExists(atPath: ws.url.deletingLastPathComponent().appendingPathComponent("escaped.txt").path))
    }

    @Test func malformedXHTMLCanBeSkippedWithItsTextListed() throws {
        let ws = try Workspace("malformed")
        let broken = Self.chapter("Unclosed <b>bold words here.").replacingOccurrences(of: "</p>", with: "")
        let opf = Self.opf(spine: #"<spine><itemref idref="ch1"/><itemref idref="ch2"/></spine>"#)
            .replacingOccurrences(of: "</manifest>", with: #"<item id="ch2" href="ch2.xhtml" media-type="application/xhtml+xml"/></manifest>"#)
        let epub = try Self.epub(ws, "book.epub", [("META-INF/container.xml", Self.container), ("OEBPS/content.opf", opf),
                                                  ("OEBPS/ch1.xhtml", broken), ("OEBPS/ch2.xhtml", Self.chapter("The second file is fine."))])
        let manifest = try ws.write("book.yml", "title: Skips\nsources:\n  - { path: \(epub.lastPathComponent), malformed: skip }\nvoice: { name: en-us }\n")
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let skipped = report["skipped"] as? [[String: Any]] ?? []
        #expect(skipped.contains { ($0["reason"] as? String ?? "").hasPrefix("malformed XHTML in OEBPS/ch1.xhtml") && ($0["text"] as? String ?? "").contains("bold words here") },
                "\(skipped)")
        #expect(report["words"] as? Int == 6)  // "One" and "The second file is fine."
    }
}

/// An EPUB's own metadata fills what the manifest leaves out: title, author and cover.
struct EPUBMetadataTests {
    @Test func titleAuthorAndCoverComeFromTheEPUBWhenTheManifestLeavesThemOut() throws {
        let ws = try Workspace("metadata")
        let png = ws.url.appendingPathComponent("cover.png")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=32x32", "-frames:v", "1", png.path])
        try #require(made.status == 0, "\(made.stderr)")
        let opf = HostileEPUBTests.opf()
            .replacingOccurrences(of: "<dc:title>Hostile</dc:title>", with: "<dc:title>The Quiet Harbour</dc:title><dc:creator>Ada Writer</dc:creator>")
            .replacingOccurrences(of: "</manifest>", with: #"<item id="c" href="cover.png" media-type="image/png" properties="cover-image"/></manifest>"#)
        let epub = try HostileEPUBTests.epub(ws, "harbour.epub", [("META-INF/container.xml", HostileEPUBTests.container), ("OEBPS/content.opf", opf),
                                                                 ("OEBPS/ch1.xhtml", HostileEPUBTests.chapter("The boats came in before the storm."))])
        try HostileEPUBTests.add(png, to: epub, as: "OEBPS/cover.png")
        let manifest = try ws.write("harbour.yml", "sources: [harbour.epub]\nvoice: { name: en-us }\n")
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let tags = try Tool.mutagenInspect(ws.url.appendingPathComponent("out/harbour/harbour.mp3")).stdout
        #expect(tags.contains("TIT2=The Quiet Harbour"), "\(tags)")
        #expect(tags.contains("TPE1=Ada Writer"), "\(tags)")
        #expect(tags.contains("APIC=") && tags.contains("image/png"), "\(tags)")
    }
}
