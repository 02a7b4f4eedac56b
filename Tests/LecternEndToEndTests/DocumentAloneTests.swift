import Foundation
import Testing
import LecternTesting

/// A document given to `lectern run` or `check` instead of a manifest, `lectern init`, and one file
/// given as several sources.
struct DocumentAloneTests {
    static let book = """
        The Project Gutenberg EBook of A Small Book, by Some One

        Title: A Small Book

        Author: Some One

        Language: English

        *** START OF THIS PROJECT GUTENBERG EBOOK A SMALL BOOK ***

        CONTENTS

        CHAPTER I. The Start
        CHAPTER II. The Return

        CHAPTER I.

        The Start

        It began on a Monday, as things do, and it went on
        for a long while after that, through the spring.

        CHAPTER II.

        The Return

        It ended on a Friday, late in the evening, when
        nobody expected it any more.

        *** END OF THIS PROJECT GUTENBERG EBOOK A SMALL BOOK ***

        This eBook is for the use of anyone anywhere at no cost.
        """

    @Test func runOnADocumentAloneNamesTheBookFromItsHeaderAndWritesBesideIt() throws {
        let ws = try Workspace("alone")
        let file = try ws.write("books/small.txt", Self.book)
        let run = try Tool.lectern(["run", "--quiet", file.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("books/out/small/small.mp3")
        #expect(FileManager.default.fileExists(atPath: mp3.path))
        let tags = try Tool.mutagenInspect(mp3).stdout
        #expect(tags.contains("TIT2=A Small Book") && tags.contains("TPE1=Some One"), "\(tags)")
        #expect(try BookChecks.chapterTitles(mp3) == ["CHAPTER I. The Start", "CHAPTER II. The Return"])
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("books/out/small/small.timings.json"))
        #expect(sidecar.skipped.contains { $0.reason == "Project Gutenberg licence" && $0.text.contains("no cost") })
        BookChecks.expectWordCoverage(input: Self.book, sidecar)
    }

    @Test func initWritesTheInferredManifestWithWhatItFound() throws {
        let ws = try Workspace("init")
        let file = try ws.write("small.txt", Self.book)
        let target = ws.url.appendingPathComponent("small.yml")
        let made = try Tool.run(Tool.lectern, ["init", file.path, "-o", target.path])
        try #require(made.status == 0, "\(made.stderr)")
        let yaml = try String(contentsOf: target, encoding: .utf8)
        for needle in ["title: 'A Small Book'", "author: 'Some One'", "path: 'small.txt'", "chapters: auto", "# ", "2 chapters",
                       "Project Gutenberg header", "contents list", "read as UTF-8", "language: en"] {
            #expect(yaml.contains(needle), "\"\(needle)\" missing from:\n\(yaml)")
        }
        // The manifest it wrote is valid and reads the same book.
        let check = try Tool.run(Tool.lectern, ["check", "--json", target.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((report["chapters"] as? [[String: Any]])?.count == 2)
        // It never replaces a manifest unless told to.
        let again = try Tool.run(Tool.lectern, ["init", file.path, "-o", target.path])
        #expect(again.status != 0 && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Tool.run(Tool.lectern, ["init", "--force", file.path, "-o", target.path]).status == 0)
    }

    @Test func oneFileGivenAsSeveralSourcesListsEachLeftOutPassageOnce() throws {
        let ws = try Workspace("twice")
        try ws.write("small.txt", Self.book)
        let manifest = try ws.write("job.yml", """
            title: Twice
            sources:
              - { path: small.txt, start_at: '^CHAPTER I\\.$', end_at: '^CHAPTER II\\.$' }
              - { path: small.txt, start_at: '^CHAPTER II\\.$', end_at: 'END OF THIS PROJECT' }
            """)
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let entries = report["skipped"] as? [[String: Any]] ?? []
        let skipped = entries.compactMap { $0["text"] as? String }
        // What lies outside a cut is one entry with its word count; the rest are the text itself.
        let listed = entries.reduce(0) { $0 + (($1["words"] as? Int) ?? independentWords($1["text"] as? String ?? "").count) }
        // Every word of the file is read or listed, once.
        let read = report["words"] as? Int ?? -1
        #expect(read + listed == independentWords(Self.book).count, "read \(read), listed \(listed): \(skipped)")
        #expect(Set(skipped).count == skipped.count, "a passage is listed twice: \(skipped)")
        #expect(!skipped.contains { $0.contains("It began") || $0.contains("It ended") }, "a passage another source reads is not listed")
    }

    /// A Latin-1 text: `init` writes the encoding its header states (or Windows-1252, auto's
    /// guess, without one), so the manifest reads it without a guess and without the warning.
    @Test func initWritesTheEncodingItFound() throws {
        let ws = try Workspace("init-encoding")
        let text = "Title: Les Misérables\nCharacter set encoding: ISO-8859-1\n\nCosette était là, près de la fenêtre, et elle rêvait.\n"
        for (name, body, expected) in [("stated.txt", text, "encoding: 'iso-8859-1'"),
                                       ("unstated.txt", text.replacingOccurrences(of: "Character set encoding: ISO-8859-1\n", with: ""),
                                        "encoding: 'windows-1252'"),
                                       ("utf8.txt", text, "encoding: auto")] {
            let file = ws.url.appendingPathComponent(name)
            try (name == "utf8.txt" ? Data(body.utf8) : body.data(using: .isoLatin1)!).write(to: file)
            let target = file.deletingPathExtension().appendingPathExtension("yml")
            let made = try Tool.run(Tool.lectern, ["init", file.path, "-o", target.path])
            try #require(made.status == 0, "\(made.stderr)")
            let yaml = try String(contentsOf: target, encoding: .utf8)
            #expect(yaml.contains(expected), "\(name): \(yaml)")
            let check = try Tool.run(Tool.lectern, ["check", "--text", target.path])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(!check.stderr.contains("not UTF-8"), "\(name): the manifest init wrote still warns: \(check.stderr)")
            #expect(check.stdout.contains("Cosette était là"), "\(name): \(check.stdout)")
        }
    }
}
