import Foundation
import Testing

/// Markers (`start_at`, `start_after`, `end_at`) match the lines as written and fail loudly;
/// keys that do not apply to a source's format are errors; `LECTERN_CONFIG` takes the folder or
/// its `defaults.yml` and nothing else.
struct MarkerAndConfigTests {
    static let story = """
        A Title Page

        CHAPTER I

        The Beginning

        Once upon a time there was a story.

        CHAPTER II

        The Ending

        And then it ended.
        """

    /// `check` and `run` both fail, on one line naming the manifest, the line and the key.
    func expectBothFail(_ sourceKeys: String, mentions: [String]) throws {
        let ws = try Workspace("markers")
        try ws.write("story.txt", Self.story)
        let manifest = try ws.write("job.yml", "title: Story\nsources:\n  - path: story.txt\n\(sourceKeys)\n")
        for command in ["check", "run"] {
            let result = command == "run" ? try Tool.lectern([command, manifest.path], db: ws.db)
                : try Tool.run(Tool.lectern, [command, manifest.path])
            #expect(result.status != 0, "\(command) succeeded")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(command): \(result.stderr)")
            for needle in ["job.yml:3:"] + mentions {
                #expect(result.stderr.contains(needle), "\(command): \"\(needle)\" missing from \(result.stderr)")
            }
        }
        #expect(!ws.exists("out/job/job.mp3"))
    }

    @Test func aStartMarkerThatMatchesNothingFailsNamingTheKey() throws {
        try expectBothFail("    start_at: '^PROLOGUE$'", mentions: ["sources[1].start_at", "matches no line"])
    }

    @Test func anEndMarkerThatMatchesNothingFailsNamingTheKey() throws {
        try expectBothFail("    end_at: '^THE END$'", mentions: ["sources[1].end_at", "matches no line"])
    }

    @Test func markersThatCutEveryWordFailNamingTheKey() throws {
        try expectBothFail("    start_after: 'And then it ended'", mentions: ["sources[1].start_after", "nothing after it"])
        try expectBothFail("    end_at: 'Title Page'", mentions: ["sources[1].end_at", "before any word"])
    }

    @Test func aStartMarkerMatchesTheHeadingLineAsWrittenNotTheJoinedTitle() throws {
        let ws = try Workspace("markers")
        try ws.write("story.txt", Self.story)
        for chapters in ["", "    chapters: { heading: '^CHAPTER [IVX]+$', subtitle: true }"] {
            let manifest = try ws.write("job.yml", "title: Story\nsources:\n  - path: story.txt\n    start_at: '^CHAPTER I$'\n\(chapters)\n")
            let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
            try #require(check.status == 0, "\(chapters): \(check.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
            let titles = (report["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles == ["CHAPTER I The Beginning", "CHAPTER II The Ending"], "\(chapters)")
            let skipped = report["skipped"] as? [[String: Any]] ?? []
            #expect(skipped.map { $0["text"] as? String } == ["A Title Page"])
            #expect((skipped.first?["reason"] as? String)?.contains("start_at") == true)
        }
    }

    @Test func aKeyThatDoesNotApplyToTheFormatIsAnError() throws {
        let ws = try Workspace("keys")
        try ws.write("book.epub", "not really an EPUB")
        try ws.write("page.html", "<p>Hello.</p>")
        for (source, key) in [("book.epub", "encoding: latin1"), ("book.epub", "chapters: { heading: '^Part' }"), ("page.html", "chapters: toc"), ("page.html", "illustrations: read")] {
            let manifest = try ws.write("job.yml", "title: T\nsources:\n  - path: \(source)\n    \(key)\n")
            let result = try Tool.run(Tool.lectern, ["check", manifest.path])
            #expect(result.status != 0)
            let name = key.prefix { $0 != ":" }
            let given = name != "chapters" ? String(name) : key.contains("heading") ? "chapters.heading" : "chapters.toc"
            #expect(result.stderr.contains("job.yml:4: sources[1].\(given): applies to"),
                    "\(result.stderr)")
        }
    }

    @Test func lecternConfigTakesTheFolderOrItsDefaultsFile() throws {
        let ws = try Workspace("config")
        try ws.write("story.txt", "A story, e.g. this one.\n")
        let manifest = try ws.write("job.yml", "title: Story\nsources: [story.txt]\n")
        try ws.write("conf/lexicon/mine.yml", "words:\n  story: tale\n")
        try ws.write("conf/defaults.yml", "voice: { name: en-gb }\nlexicons: [lexicon/mine.yml]\n")
        let folder = ws.url.appendingPathComponent("conf").path
        for config in [folder, folder + "/defaults.yml"] {
            let result = try Tool.run(Tool.lectern, ["check", "--text", manifest.path], environment: ["LECTERN_CONFIG": config])
            #expect(result.status == 0, "\(config): \(result.stderr)")
            #expect(result.stdout.contains("A tale"), "the config's lexicon is used with LECTERN_CONFIG=\(config): \(result.stdout)")
        }
        for config in [ws.url.appendingPathComponent("job.yml").path, ws.url.appendingPathComponent("missing").path] {
            let result = try Tool.run(Tool.lectern, ["check", manifest.path], environment: ["LECTERN_CONFIG": config])
            #expect(result.status != 0, "LECTERN_CONFIG=\(config) was accepted")
            #expect(result.stderr.contains("LECTERN_CONFIG"), "\(result.stderr)")
        }
    }
}
