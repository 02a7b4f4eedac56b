import Foundation
import Testing
import LecternTesting

/// Issue #12: a real book dropped in with no configuration is read as a careful narrator would —
/// its own chapters (and parts), no Project Gutenberg boilerplate, contents list, notes or
/// apparatus spoken, every word of the file timed or listed as skipped once.
///
/// `lectern check` is run on each corpus text given alone (no manifest at all); two books are
/// rendered whole from a manifest that names only the title, the path and fast speech settings
/// (no structure keys), and held against ffprobe, mutagen, ffmpeg's decoded audio and an
/// independent Python word count.
@Suite(.serialized, .enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct PlainTextBooksTests {
    /// The chapters `lectern check --json FILE` reports for a document given alone.
    struct Checked {
        var titles: [String]
        var parts: [String?]
        var skipped: [(reason: String, text: String)]
        var warnings: [String]
    }

    static func check(_ file: String, _ extra: [String] = []) throws -> Checked {
        let result = try Tool.run(Tool.lectern, ["check", "--json"] + extra + [Corpus.file(file).path])
        guard result.status == 0 else { throw TestFailure("lectern check \(file) failed: \(result.stderr)") }
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let chapters = report["chapters"] as? [[String: Any]] ?? []
        return Checked(titles: chapters.compactMap { $0["title"] as? String }, parts: chapters.map { $0["part"] as? String },
                       skipped: (report["skipped"] as? [[String: Any]] ?? []).map { ($0["reason"] as? String ?? "", $0["text"] as? String ?? "") },
                       warnings: report["warnings"] as? [String] ?? [])
    }

    /// The file's lines as a reader independent of Lectern decodes them (UTF-8, else Latin-1).
    static func lines(_ file: String) throws -> [String] {
        let data = try Data(contentsOf: Corpus.file(file))
        let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)!
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").components(separatedBy: "\n")
    }

    // MARK: Chapters, from the document alone

    @Test func aliceHasItsTwelveChaptersTitledByTheirTwoHeadingLines() throws {
        let lines = try Self.lines("text/pg11-alice-in-wonderland.txt")
        var expected: [String] = []
        for (i, line) in lines.enumerated() where line.range(of: #"^CHAPTER [IVXL]+\.$"#, options: .regularExpression) != nil {
            expected.append(line + " " + (lines[(i + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""))
        }
        #expect(expected.count == 12)
        let checked = try Self.check("text/pg11-alice-in-wonderland.txt")
        #expect(checked.titles == expected)
        #expect(checked.skipped.contains { $0.reason.contains("contents") }, "the contents list is left out")
    }

    @Test func newsFromNowhereHasItsThirtyTwoChaptersWithTheirTitles() throws {
        let lines = try Self.lines("text/pg3261-news-from-nowhere.txt")
        let expected = lines.filter { $0.range(of: #"^CHAPTER [IVXL]+: "#, options: .regularExpression) != nil }
        #expect(expected.count == 32)
        let checked = try Self.check("text/pg3261-news-from-nowhere.txt")
        #expect(checked.titles == expected)
        #expect(checked.skipped.contains { $0.reason.localizedCaseInsensitiveContains("Project Gutenberg") })
    }

    @Test func prideAndPrejudiceHasItsSixtyOneChaptersAfterItsPreface() throws {
        let checked = try Self.check("text/pg1342-pride-and-prejudice.txt")
        let numbered = checked.titles.filter { $0.range(of: #"^chapter [IVXLC]+\b"#, options: [.regularExpression, .caseInsensitive]) != nil }
        #expect(numbered.count == 61, "\(checked.titles)")
        // The one chapter that is not numbered is the edition's preface, read before chapter I.
        #expect(checked.titles.count == 62)
        #expect(checked.titles.first?.uppercased().hasPrefix("PREFACE") == true)
        #expect(checked.titles.dropFirst().first?.uppercased().hasPrefix("CHAPTER I") == true)
        #expect(checked.skipped.contains { $0.reason.contains("illustration") })
    }

    @Test func jackSheppardHasThreePartsHoldingSevenNineteenAndThirtyTwoChapters() throws {
        let checked = try Self.check("text/pg16215-jack-sheppard.txt")
        var counts: [String: Int] = [:]
        var order: [String] = []
        for part in checked.parts {
            guard let part else { continue }
            if counts[part] == nil { order.append(part) }
            counts[part, default: 0] += 1
        }
        #expect(order.count == 3, "\(order)")
        #expect(order.map { counts[$0] ?? 0 } == [7, 19, 32])
        #expect(order.allSatisfy { $0.hasPrefix("EPOCH THE ") })
        // Every chapter is in a part: the title page's short epigraph is read at the start of the
        // first chapter (issue 39's unheaded opening), not as a chapter of its own (issue 24).
        #expect(checked.parts.allSatisfy { $0 != nil }, "every chapter is in a part")
        #expect(checked.titles.first?.hasPrefix("CHAPTER I.") == true, "\(checked.titles.prefix(2))")
        let opening = try Self.script("text/pg16215-jack-sheppard.txt").components(separatedBy: "=== Chapter 2:")[0]
        #expect(opening.contains("Life and Actions of Guzman d'Alfarache."), "the epigraph is read in chapter 1")
        #expect(checked.titles.filter { $0.hasPrefix("CHAPTER ") }.count == 58)
    }

    @Test func theEssaysHaveTheirPrefaceAndTwentyOneLectures() throws {
        // Counted by hand from the book: a preface, then lectures I to XXI, each a Roman numeral
        // on its own line with the lecture's title below it.
        let checked = try Self.check("text/pg16351-critical-and-historical-essays.txt")
        #expect(checked.titles.count == 22, "\(checked.titles)")
        #expect(checked.titles.first?.hasPrefix("PREFACE") == true)
        #expect(checked.titles.dropFirst().first == "I THE ORIGIN OF MUSIC")
        #expect(checked.titles.last == "XXI SUGGESTION IN MUSIC")
        #expect(checked.warnings.contains { $0.contains("Windows-1252") }, "auto decoding says how it read the ISO-8859-1 file")
        #expect(checked.skipped.contains { $0.reason.contains("index") })
        #expect(checked.skipped.contains { $0.reason.contains("transcriber") })
        // Declared, the encoding is read without a warning, to the same book.
        let ws = try Workspace("essays")
        let manifest = try ws.write("essays.yml", """
            title: Essays
            sources:
              - path: \(Corpus.file("text/pg16351-critical-and-historical-essays.txt").path)
                encoding: iso-8859-1
            """)
        let result = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((report["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String } == checked.titles)
        #expect(!(report["warnings"] as? [String] ?? []).contains { $0.contains("UTF-8") })
    }

    // MARK: What will be spoken

    /// Every paragraph line of `lectern check --text` for the document alone (skipped passages and
    /// headings told apart by their markers).
    static func script(_ file: String) throws -> String { try Corpus.script(file) }

    static let texts = ["text/pg11-alice-in-wonderland.txt", "text/pg1342-pride-and-prejudice.txt", "text/pg3261-news-from-nowhere.txt",
                        "text/pg16215-jack-sheppard.txt", "text/pg16351-critical-and-historical-essays.txt"]

    @Test(arguments: texts)
    func noMarkerCaptionArtLineOrURLIsSpoken(_ file: String) throws {
        // What is read: the script's chapters, not the list of what was left out after them.
        let script = try Self.script(file).components(separatedBy: "=== Left out of the narration ===")[0]
        let spoken = script.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  [skipped: ") }
        #expect(spoken.count > 100)
        let leaks = [#"\[\d{1,3}\]"#, #"\[Illustration"#, #"\+-{3,}"#, #"-{3,}\+"#, #"\|.*\|"#, #"https?://"#, #"www\."#, #"\[[A-Za-z]:"#,
                     #"(?i)project gutenberg"#]
        for pattern in leaks {
            let found = spoken.filter { $0.range(of: pattern, options: .regularExpression) != nil }
            #expect(found.isEmpty, "/\(pattern)/ spoken in \(file): \(found.prefix(3))")
        }
    }

    @Test func aliceScriptShowsEveryChapterTitleNoBoilerplateAndTheSkippedPassagesWithReasons() throws {
        let script = try Self.script("text/pg11-alice-in-wonderland.txt")
        let lines = script.components(separatedBy: "\n")
        let titles = try Self.check("text/pg11-alice-in-wonderland.txt").titles
        for (i, title) in titles.enumerated() {
            #expect(lines.contains("=== Chapter \(i + 1): \(title) ==="), "\(title) missing from the script")
        }
        let skipped = lines.filter { $0.hasPrefix("  [skipped: ") }
        #expect(skipped.contains { $0.contains("contents list") && $0.contains("Down the Rabbit-Hole") })
        #expect(skipped.allSatisfy { $0.range(of: #"^  \[skipped: [^\]]+\] "#, options: .regularExpression) != nil })
        // The story starts right after the first chapter's heading lines; nothing of the title page is spoken.
        let first = try #require(lines.firstIndex { $0.hasPrefix("=== Chapter 1:") })
        #expect(lines[first + 1].hasPrefix("  [heading] "), "\(lines[first + 1])")
        #expect(lines[..<first].allSatisfy { !$0.hasPrefix("  ") || $0.hasPrefix("  [skipped: ") })
        #expect(!script.contains("  [heading] Contents"))
    }
}
