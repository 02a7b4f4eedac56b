import Foundation
import Testing
import LecternTesting

/// Issue #5: every corpus EPUB and HTML file, rendered with real espeak-ng and LAME, accounts
/// for every word of its text — timed in the sidecar, or listed as skipped with a reason — held
/// against ``IndependentText``, an extraction that shares no code with Lectern's readers; and
/// Moby-Dick has the nav's chapters, in spine order, as ID3 chapters at the sidecar's times.
/// Issue #22: every corpus EPUB narrates into an EPUB that epubcheck passes with no error and no
/// warning — EPUB 3 books with an NCX (whose `dtb:uid` must then be the package's new
/// identifier), the W3C sample with media overlays of its own (replaced by the narration's), the
/// EPUB 2 book (whose narrated EPUB is generated) and Moby-Dick (no NCX).
///
/// Each book is rendered once, as fast as a real render goes (450 words per minute, no pauses,
/// 56 kbit/s, LAME's fastest algorithm), one book at a time, and only in part: markers or
/// overrides keep a section or a few chapters, and what they leave out is listed as skipped, so
/// every word of the file is still accounted for against the independent extraction, and the
/// reading of the whole book is checked by `lectern check`, which costs no audio. Whole-book
/// renders belong to `make bench`.
@Suite(.serialized, .enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct CorpusCoverageTests {
    /// A corpus file and the keys of its source in the manifest.
    struct Book: Sendable, CustomTestStringConvertible {
        var file: String
        var keys: [String] = []
        /// Whether the book is an EPUB with an NCX (whose `dtb:uid` the narrated EPUB must set).
        var hasNCX = false
        var testDescription: String { file }
        var isEPUB: Bool { file.hasSuffix(".epub") }
    }

    static let books: [Book] = [
        Book(file: "epub/idpf-georgia-pls-ssml.epub", keys: [#"end_at: '^Climate and Soils\.$'"#], hasNCX: true),
        Book(file: "epub/idpf-childrens-literature.epub", keys: ["start_at: 'Rabbi and [Tt]he Diadem'", #"end_at: 'Friendship\.?$'"#],
             hasNCX: true),
        // Project Gutenberg's header, the title page and the contents come before the start
        // marker; the rest of the first story, the other stories and the licence after the end
        // marker: all listed as skipped (the whole book's reading is held to its words by
        // GutenbergEPUBAloneTests and EPUBTextMarkerCorpusTests).
        Book(file: "epub/pg1661-adventures-of-sherlock-holmes-epub2.epub",
             keys: ["start_at: '^To Sherlock Holmes she is always the woman'", "end_at: '^One night'"]),
        Book(file: "epub/w3c-mol-timing-synchronization_multiple_audio.epub"),
        // The title page and contents come before the start marker, the chapters from the third on
        // after the end marker: all listed as skipped.
        Book(file: "html/pg84-frankenstein.htm", keys: ["chapters: { level: 2 }", #"start_at: "^Letter 1$""#, #"end_at: "^Chapter 3$""#]),
    ]

    @Test(arguments: books)
    func everyWordOfTheBookIsTimedOrListedAsSkipped(_ book: Book) throws {
        let expected = try IndependentText.of(Corpus.file(book.file))
        let ws = try Workspace("coverage")
        let rendered = try Rendered(book, in: ws, manifest: try Rendered.manifest(book, in: ws, timings: book.isEPUB ? "[json, epub]" : "[json]"))
        #expect(rendered.sidecar.chapters.contains { !$0.paragraphs.isEmpty }, "nothing was read")
        BookChecks.expectWordCoverage(input: expected.text, rendered.sidecar)
        #expect(try BookChecks.chapterTitles(rendered.mp3) == rendered.sidecar.chapters.map(\.title))
        guard book.isEPUB else { return }

        let epub = rendered.mp3.deletingPathExtension().appendingPathExtension("epub")
        NarratedEPUBTests.expectValid(try EPUBInspection.epubcheck(epub))
        let ids = try Self.identifiers(epub)
        #expect(ids.package.hasPrefix("urn:uuid:"), "the narrated book's identifier: \(ids.package)")
        if book.hasNCX {
            #expect(ids.ncx == [ids.package], "the NCX's dtb:uid is the package's identifier: \(ids)")
        }
    }

    /// The package's unique identifier and every NCX's `dtb:uid`, read with Python's zipfile and ElementTree.
    static func identifiers(_ epub: URL) throws -> (package: String, ncx: [String]) {
        let script = """
            import sys, zipfile, xml.etree.ElementTree as ET
            z = zipfile.ZipFile(sys.argv[1])
            container = ET.fromstring(z.read("META-INF/container.xml"))
            opf_path = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile").get("full-path")
            opf = ET.fromstring(z.read(opf_path))
            uid = opf.get("unique-identifier")
            print(next(e.text for e in opf.iter("{http://purl.org/dc/elements/1.1/}identifier") if e.get("id") == uid))
            for name in z.namelist():
                if name.endswith(".ncx"):
                    ncx = ET.fromstring(z.read(name))
                    print(next(m.get("content") for m in ncx.iter("{http://www.daisy.org/z3986/2005/ncx/}meta") if m.get("name") == "dtb:uid"))
            """
        let out = try Tool.run("python3", ["-c", script, epub.path])
        try #require(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()))
    }

    @Test func mobyDickHasTheNavsChaptersInSpineOrderAsID3ChaptersAtTheSidecarsTimes() throws {
        let book = Book(file: "epub/idpf-moby-dick.epub")
        let extracted = try IndependentText.of(Corpus.file(book.file))

        // The chapters a reader expects: walking the spine in order, the nav's entries for each
        // linear document, with the nav's titles — except entries whose document has no running
        // text at all (the title page is one image; its alt text is listed as skipped), and the
        // copyright page: front matter (`epub:type="copyright-page"`, and so in the landmarks),
        // skipped and listed by default since issue #13.
        try #require(extracted.toc.count == 141, "the nav has 141 entries (corpus README)")
        try #require(extracted.toc.allSatisfy { $0.fragment == nil }, "each of Moby-Dick's nav entries is a whole file")
        let spine = Set(extracted.documents.map(\.path))
        #expect(extracted.toc.filter { !spine.contains($0.path) }.isEmpty, "every nav entry points into the spine")
        var expected: [String] = []
        for document in extracted.documents where document.linear {
            let entries = extracted.toc.filter { $0.path == document.path }
            if document.path.hasSuffix("/copyright.xhtml") { continue }
            if independentWords(document.text).isEmpty {
                #expect(document.labels.count == 1, "\(document.path) holds no text but one image")
                continue
            }
            expected += entries.map(\.title)
        }
        let numbered = expected.filter { $0.hasPrefix("Chapter ") }
        #expect(numbered.count == 135)
        for (i, title) in numbered.enumerated() { #expect(title.hasPrefix("Chapter \(i + 1). "), "\(title) out of order") }
        #expect(expected.firstIndex(of: "Epilogue") == expected.firstIndex(of: numbered.last ?? "").map { $0 + 1 })
        #expect(expected.count == 139, "the nav's 141 entries but the title page and the copyright page: \(expected)")
        #expect(Set(expected).count == expected.count, "titles are distinct, so order comparisons mean something")
        // The nav's entries before ETYMOLOGY (the transcriber's short note, with no heading of its own) are
        // read at the start of the first chapter that shows its heading (``UnheadedOpening``).
        let read = Array(expected.drop { !$0.hasPrefix("ETYMOLOGY") })
        #expect(read.count == 138)

        // `lectern check` lists them: the whole book's reading.
        let ws = try Workspace("moby")
        let whole = try ChapterSelection(try Rendered.manifest(book, in: ws, timings: "[json, epub]"))
        #expect(whole.chapters.map(\.title) == read)

        // A render of the first two, the last two and the six shortest others (the rest skipped
        // by overrides, and listed): the sidecar's chapters, ffprobe's and mutagen's ID3 chapters
        // are the same, with the same times to within one MP3 frame.
        let ends = [0, 1, whole.chapters.count - 2, whole.chapters.count - 1]
        let kept = Set(ends + whole.shortest(6, among: whole.chapters.map(\.index).filter { !ends.contains($0) })).sorted()
        let manifest = try Rendered.manifest(book, in: ws, timings: "[json, epub]", overrides: whole.overrides(keeping: Set(kept)))
        let rendered = try Rendered(book, in: ws, manifest: manifest)
        let sidecar = rendered.sidecar
        let keptTitles = kept.map { whole.chapters[$0].title }
        #expect(sidecar.chapters.map(\.title) == keptTitles)
        let frameMs = 576 * 1000 / sidecar.sampleRate + 1
        let probed = try Tool.probe(rendered.mp3, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        #expect(probed.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String } == keptTitles)
        #expect(probed.allSatisfy { $0["time_base"] as? String == "1/1000" })
        let tagged = try ID3Chapters.inspect(rendered.mp3)
        #expect(tagged.map(\.title) == keptTitles)
        try #require(probed.count == sidecar.chapters.count && tagged.count == sidecar.chapters.count)
        for (i, chapter) in sidecar.chapters.enumerated() {
            let ffprobe = (start: probed[i]["start"] as? Int ?? -1, end: probed[i]["end"] as? Int ?? -1)
            for (tool, start, end) in [("ffprobe", ffprobe.start, ffprobe.end), ("mutagen", tagged[i].start, tagged[i].end)] {
                #expect(abs(start - chapter.start) <= frameMs && abs(end - chapter.end) <= frameMs,
                        "\(chapter.title): \(tool) \(start)…\(end) ms, sidecar \(chapter.start)…\(chapter.end) ms")
            }
        }
        #expect(sidecar.chapters.last.map { abs($0.end - sidecar.durationMs) <= frameMs } == true)

        // The decoded audio is as long as the sidecar says; every word is accounted for.
        BookChecks.expectDurationMatches(decodedSamples: try Tool.decodedSampleCount(rendered.mp3), sidecar)
        BookChecks.expectWordCoverage(input: extracted.text, sidecar)

        // The narrated EPUB is the book itself: every document with its text and stylesheets as
        // they were, plus the marks, overlays and audio; valid; every par at an id, every clip
        // inside its decoded chapter audio; and (nearly) every word a par of its own.
        let epub = ws.url.appendingPathComponent("out/book/book.epub")
        let original = try EPUBInspection.documents(Corpus.file(book.file))
        let narrated = try EPUBInspection.documents(epub)
        #expect(Set(narrated.keys) == Set(original.keys))
        for (path, document) in original {
            #expect(narrated[path]?.text == document.text, "\(path): the text changed")
            #expect(narrated[path].map { Set(document.stylesheets).isSubset(of: $0.stylesheets) } == true, "\(path) lost a stylesheet")
        }
        let inspection = try EPUBInspection.read(epub)
        try NarratedEPUBTests.expectParsAndClipsValid(epub, inspection)
        let words = sidecar.chapters.reduce(0) { $0 + $1.paragraphs.reduce(0) { $0 + $1.words.count } }
        let wordPars = inspection.pars.filter { $0.kind == "z3998:word" }.count
        #expect(Double(wordPars) >= 0.99 * Double(words), "\(wordPars) word pars for \(words) words")
        #expect(Set(inspection.pars.map(\.document)).count >= kept.count, "every rendered chapter's document has an overlay")
        NarratedEPUBTests.expectValid(try EPUBInspection.epubcheck(epub))
    }
}

/// One corpus book rendered by `lectern run` in a workspace of its own.
struct Rendered {
    let workspace: Workspace
    let mp3: URL
    let sidecar: Sidecar

    init(_ book: CorpusCoverageTests.Book, in existing: Workspace? = nil, manifest existingManifest: URL? = nil) throws {
        let ws = try existing ?? Workspace("coverage")
        let manifest = try existingManifest ?? Self.manifest(book, in: ws)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "lectern run failed on \(book.file): \(run.stderr)")
        workspace = ws
        mp3 = ws.url.appendingPathComponent("out/book/book.mp3")
        sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/book/book.timings.json"))
    }

    /// `book.yml`: the book as its only source, read at the fastest settings a manifest allows.
    /// `overrides` (manifest lines) follow the rest.
    static func manifest(_ book: CorpusCoverageTests.Book, in ws: Workspace, timings: String = "[json]", overrides: String = "") throws -> URL {
        let lines = ["title: \(URL(fileURLWithPath: book.file).deletingPathExtension().lastPathComponent)",
                     "sources:", "  - path: \(Corpus.file(book.file).path)"]
            + book.keys.map { "    \($0)" }
            + ["voice: { name: en-us, wpm: 450 }", "pauses:"]
            + ["paragraph", "heading", "quote", "list_item", "chapter"].map { "  \($0): { before: 0, after: 0 }" }
            + ["audio: { bitrate: 56, quality: 9 }", "loudness: off", "timings: \(timings)"]
        return try ws.write("book.yml", lines.joined(separator: "\n") + "\n" + overrides)
    }
}

/// The ID3 chapters as mutagen reads them, in the order of the top-level table of contents
/// (a child table — a part — stands for its own chapters, in its order).
enum ID3Chapters {
    struct Chapter { var title: String; var start: Int; var end: Int }

    static func inspect(_ mp3: URL) throws -> [Chapter] {
        let output = try Tool.mutagenInspect(mp3)
        guard output.status == 0 else { throw TestFailure("mutagen-inspect failed on \(mp3.path): \(output.stderr)") }
        // CHAP=chp1 time=0..4937 offset=…   then   "    TIT2=Loomings"
        // CTOC=toc flags=3 child_element_ids=chp1,chp2,…
        var chapters: [String: Chapter] = [:]
        var tables: [String: (topLevel: Bool, children: [String])] = [:]
        var current: String?
        for line in output.stdout.components(separatedBy: "\n") {
            if let m = line.firstMatch(of: /^CHAP=(\S+) time=(\d+)\.\.(\d+)/) {
                current = String(m.1)
                chapters[String(m.1)] = Chapter(title: "", start: Int(m.2)!, end: Int(m.3)!)
            } else if let id = current, line.hasPrefix("    TIT2=") {
                chapters[id]?.title = String(line.dropFirst("    TIT2=".count))
                current = nil
            } else if let m = line.firstMatch(of: /^CTOC=(\S+) flags=(\d+) child_element_ids=(\S+)/) {
                tables[String(m.1)] = (Int(m.2)! & 2 != 0, m.3.split(separator: ",").map(String.init))
                current = nil
            } else {
                current = nil
            }
        }
        func expand(_ id: String) -> [String] { tables[id].map { $0.children.flatMap(expand) } ?? [id] }
        let top = tables.filter { $0.value.topLevel }.keys.sorted()
        return top.flatMap(expand).compactMap { chapters[$0] }
    }
}

extension Tool {
    /// How many samples ffmpeg decodes from an MP3 (mono), counted as the size of its 8-bit
    /// output file, so a long book's audio is never held in memory.
    static func decodedSampleCount(_ mp3: URL) throws -> Int {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-\(UUID().uuidString).u8")
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try run("ffmpeg", ["-v", "error", "-y", "-i", mp3.path, "-f", "u8", "-acodec", "pcm_u8", "-ac", "1", raw.path])
        guard result.status == 0, result.stderr.isEmpty else { throw TestFailure("ffmpeg could not decode \(mp3.path): \(result.stderr)") }
        return (try FileManager.default.attributesOfItem(atPath: raw.path)[.size] as? NSNumber)?.intValue ?? -1
    }
}

extension BookChecks {
    /// The decoded audio is as long as the sidecar says, within one MP3 frame.
    static func expectDurationMatches(decodedSamples: Int, _ sidecar: Sidecar, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(decodedSamples - sidecar.sampleCount) <= 576, "decoded \(decodedSamples) samples, sidecar \(sidecar.sampleCount)",
                sourceLocation: sourceLocation)
    }
}
