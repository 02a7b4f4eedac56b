import Foundation
import Testing
import LecternTesting

/// Issue #12, rendered: four corpus books narrated from a manifest naming only the title, the
/// path and fast speech settings — Jack Sheppard (CRLF and stray CRs, a contents list, three
/// parts), News from Nowhere (notes gathered at the end), Pride and Prejudice (captions) and the
/// ISO-8859-1 essays (read with `encoding: auto`, footnotes, transcriber's codes). Each renders the
/// few chapters its checks need (``ChapterSelection``; the others are skipped by overrides and
/// listed, so every word of the file is still accounted for), and `check` reads the whole book's
/// structure: whole-book renders belong to `make bench` and to the one novel `NovelIncrementalTests`
/// renders. `lectern check --json`, the sidecar, ffprobe and mutagen agree on the chapters; every
/// word of the file, counted by Python, is timed or skipped once; nothing outside the Project
/// Gutenberg markers is timed; paragraph onsets match the decoded audio.
@Suite(.serialized, .enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct PlainTextRenderTests {
    struct Render: Sendable {
        let workspace: Workspace
        let manifest: URL
        let mp3: URL
        let sidecar: Sidecar
        /// The chapter numbers of each part in the sidecar's `parts`.
        let parts: [[Int]]
        let stderr: String
        /// The whole book as `check` reads it, before the overrides.
        let book: ChapterSelection
        /// The chapters rendered (0-based, in the whole book).
        let kept: [Int]
    }

    /// Renders the chapters of `file` that `keep` picks from the whole book, with nothing else in
    /// the manifest but its title, its path and the fastest speech a manifest allows.
    static func render(_ file: String, pauses: Bool, keep: (ChapterSelection) -> [Int]) throws -> Render {
        let ws = try Workspace("plain")
        let head = """
            title: Book
            sources: ['\(Corpus.file(file).path)']
            voice: { name: en-gb, wpm: 449 }
            audio: { bitrate: 56, quality: 9 }
            loudness: off
            \(pauses ? "" : "pauses: { paragraph: { after: 0 }, heading: { before: 0, after: 0 }, chapter: { after: 0 }, section: { before: 0 } }")

            """
        let book = try ChapterSelection(try ws.write("book.yml", head))
        let kept = Set(keep(book)).sorted()
        guard !kept.isEmpty else { throw TestFailure("no chapter of \(file) picked to render") }
        let manifest = try ws.write("book.yml", head + book.overrides(keeping: Set(kept)))
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        guard run.status == 0 else { throw TestFailure("lectern run \(file) failed: \(run.stderr)") }
        let url = ws.url.appendingPathComponent("out/book/book.timings.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        let parts = (json["parts"] as? [[String: Any]] ?? []).map { $0["chapters"] as? [Int] ?? [] }
        return Render(workspace: ws, manifest: manifest, mp3: ws.url.appendingPathComponent("out/book/book.mp3"),
                      sidecar: try Sidecar.load(url), parts: parts, stderr: run.stderr, book: book, kept: kept)
    }

    /// The two shortest chapters of each of the three parts.
    static let jack: Result<Render, TestFailure> = Result {
        try render("text/pg16215-jack-sheppard.txt", pauses: false) { book in book.parts.flatMap { book.shortest(2, among: $0.chapters) } }
    }.mapError { TestFailure("\($0)") }
    /// The chapters that read a note, and the shortest.
    static let news: Result<Render, TestFailure> = Result {
        try render("text/pg3261-news-from-nowhere.txt", pauses: false) { book in
            book.chapters.filter { $0.script.contains("[quote] Note ") }.map(\.index) + book.shortest(1, among: book.chapters.map(\.index))
        }
    }.mapError { TestFailure("\($0)") }
    /// The three shortest chapters with a caption.
    static let pride: Result<Render, TestFailure> = Result {
        try render("text/pg1342-pride-and-prejudice.txt", pauses: false) { book in
            book.shortest(3, among: book.chapters.filter { $0.script.contains("[skipped: illustration]") }.map(\.index))
        }
    }.mapError { TestFailure("\($0)") }
    /// The lecture with the note on the "Fate" motive, and every fourth of the others.
    static let essays: Result<Render, TestFailure> = Result {
        try render("text/pg16351-critical-and-historical-essays.txt", pauses: true) { book in
            book.chapters.filter { $0.index % 4 == 1 || $0.script.contains("The strength of the \"Fate\" motive") }.map(\.index)
        }
    }.mapError { TestFailure("\($0)") }

    /// The words of a file as Python counts them: decoded as UTF-8, else Latin-1; split at
    /// whitespace and dashes; a word has a letter or a digit; `_` is not part of a word.
    static func pythonWordCount(_ file: URL) throws -> Int {
        let script = #"""
            import re, sys
            data = open(sys.argv[1], "rb").read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = data.decode("latin-1")
            words = [w.replace("_", "") for w in re.split(r"(?:[\s\u2013\u2014\u2015]|-{2,})+", text)]
            print(sum(1 for w in words if any(c.isalnum() for c in w)))
            """#
        let result = try Tool.run("python3", ["-c", script, file.path])
        guard result.status == 0, let n = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("python3 could not count \(file.path): \(result.stderr)")
        }
        return n
    }

    /// `check --json`, the sidecar, ffprobe and mutagen list the same chapters; the file's words
    /// are all timed or skipped once; nothing before the start marker or after the end marker is
    /// timed, and the licence is listed with its reason.
    func expectTheBookIsWhole(_ r: Render, file: String) throws {
        let check = try Tool.run(Tool.lectern, ["check", "--json", r.manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let checked = (report["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(r.sidecar.chapters.map(\.title) == checked)
        #expect(try BookChecks.chapterTitles(r.mp3) == checked)
        #expect(try ID3Chapters.inspect(r.mp3).map(\.title) == checked)

        let spoken = r.sidecar.chapters.reduce(0) { $0 + $1.paragraphs.reduce(0) { $0 + $1.words.count } }
        let skipped = r.sidecar.skipped.reduce(0) { $0 + independentWords($1.text).count }
        let counted = try Self.pythonWordCount(Corpus.file(file))
        #expect(spoken + skipped == counted, "timed \(spoken) + skipped \(skipped), Python counts \(counted)")
        let lines = try PlainTextBooksTests.lines(file)
        BookChecks.expectWordCoverage(input: lines.joined(separator: "\n"), r.sidecar)

        // The first and last timed paragraphs lie between the markers (a text without them, from a
        // mirror that strips them, has nothing to cut).
        guard let start = lines.firstIndex(where: { $0.contains("START OF TH") && $0.hasPrefix("***") }) else { return }
        let end = try #require(lines.lastIndex { $0.hasPrefix("End of") || $0.contains("END OF TH") })
        let body = lines[(start + 1)..<end].joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let paragraphs = r.sidecar.chapters.flatMap(\.paragraphs)
        for paragraph in [paragraphs.first, paragraphs.last].compactMap({ $0 }) {
            #expect(body.contains(paragraph.text.replacingOccurrences(of: "_", with: "").prefix(40))
                    || body.replacingOccurrences(of: "_", with: "").contains(paragraph.text.prefix(40)),
                    "\(paragraph.text.prefix(60)) is not between the markers")
        }
        #expect(r.sidecar.skipped.contains { $0.reason.localizedCaseInsensitiveContains("licen") && $0.text.contains("Project Gutenberg") })
        #expect(r.sidecar.skipped.contains { $0.reason.localizedCaseInsensitiveContains("header") })
        #expect(!paragraphs.contains { $0.text.localizedCaseInsensitiveContains("Project Gutenberg") })
    }

    @Test func jackSheppardIsWholeWithItsThreePartsAsID3TablesOfContents() throws {
        let r = try Self.jack.get()
        try expectTheBookIsWhole(r, file: "text/pg16215-jack-sheppard.txt")
        // The contents list is not timed: no timed paragraph ends in a page number.
        let paragraphs = r.sidecar.chapters.flatMap(\.paragraphs)
        #expect(!paragraphs.contains { $0.text.range(of: #"^(CHAPTER )?[IVXL]+\. .*\s\d{1,3}$"#, options: .regularExpression) != nil })
        #expect(r.sidecar.skipped.contains { $0.reason.contains("contents") && $0.text.contains("The Widow and her Child") })

        // The book has three parts holding 7, 19 and 32 chapters; the sidecar keeps the hierarchy
        // of the two rendered from each.
        #expect(r.book.parts.map(\.chapters.count) == [7, 19, 32])
        #expect(r.parts.map(\.count) == [2, 2, 2])
        // mutagen: the top-level CTOC lists a CTOC per part, each listing its chapters.
        let inspect = try Tool.mutagenInspect(r.mp3).stdout
        let tocs = inspect.components(separatedBy: "\n").filter { $0.hasPrefix("CTOC=") }
        #expect(tocs.count == 4, "a top-level table and three parts: \(tocs)")
    }

    @Test func newsFromNowhereIsWholeWithItsFootnotesReadInTheirChapters() throws {
        let r = try Self.news.get()
        try expectTheBookIsWhole(r, file: "text/pg3261-news-from-nowhere.txt")
        #expect(r.book.chapters.count == 32)
        // The notes gathered at the end of the book are read at the end of the chapter that refers to them.
        let quoted = r.sidecar.chapters.enumerated().filter { $0.element.paragraphs.contains { $0.kind == "quote" } }.map { r.kept[$0.offset] }
        #expect(!quoted.isEmpty && !quoted.allSatisfy { $0 == 31 }, "\(quoted)")
    }

    @Test func prideAndPrejudiceIsWholeWithoutItsCaptions() throws {
        let r = try Self.pride.get()
        try expectTheBookIsWhole(r, file: "text/pg1342-pride-and-prejudice.txt")
        #expect(r.book.chapters.count == 62)
        #expect(r.book.skippedReasons.filter { $0 == "illustration" }.count > 150)
        #expect(r.sidecar.skipped.filter { $0.reason == "illustration" }.count >= r.kept.count)
        #expect(!r.sidecar.chapters.flatMap(\.paragraphs).contains { $0.text.contains("[Illustration") })
    }

    @Test func theEssaysAreReadFromISO88591WithAWarningAndWhole() throws {
        let r = try Self.essays.get()
        #expect(r.stderr.contains("Windows-1252"), "encoding: auto warns how it read the file: \(r.stderr)")
        try expectTheBookIsWhole(r, file: "text/pg16351-critical-and-historical-essays.txt")
        let text = r.sidecar.chapters.flatMap(\.paragraphs).map(\.text).joined(separator: "\n")
        for word in ["rôle", "Freischütz", "Händel"] { #expect(text.contains(word), "\(word) decoded") }
        // Footnote bodies are read at the end of their lecture, their markers are silent.
        #expect(text.contains("The strength of the \"Fate\" motive"))
    }

    @Test func theEssaysParagraphOnsetsMatchTheDecodedAudioWithin40ms() throws {
        let r = try Self.essays.get()
        let pcm = try Tool.decode(r.mp3)
        BookChecks.expectDurationMatches(pcm, r.sidecar)
        var picks: [(chapter: Int, paragraph: Int)] = []
        for (c, chapter) in r.sidecar.chapters.enumerated() {
            let count = chapter.paragraphs.count
            // Paragraphs that follow a paragraph (its pause before them), across every lecture.
            for p in Set([count / 3, count / 2, count - 1]) where p > 1 && chapter.paragraphs[p - 1].kind == "paragraph"
                && chapter.paragraphs[p].kind == "paragraph" { picks.append((c, p)) }
        }
        #expect(picks.count >= 12)
        #expect(BookChecks.expectOnsetsMatch(pcm, r.sidecar, picks: picks) >= 12)
    }
}
