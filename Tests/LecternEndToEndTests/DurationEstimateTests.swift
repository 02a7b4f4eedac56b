import Foundation
import Testing
import LecternTesting

/// `lectern check`'s duration estimate against what `lectern run` renders with espeak-ng: one
/// short chapter from each of three corpus books in three formats (none of them among the renders
/// the estimate's constants were fit on), each estimate within 5 % of the MP3's length as ffprobe
/// reads it (#24, item 8; docs/BENCHMARKS.md, "Duration estimate").
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct DurationEstimateTests {
    struct Book: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        /// Lines added under the source's `path`.
        var sourceKeys = ""
        /// The start of the title of the one chapter read.
        var chapter: String
        var testDescription: String { name }
    }

    static let books = [
        Book(name: "moby-dick", source: "epub/idpf-moby-dick.epub", chapter: "Chapter 37. Sunset"),
        Book(name: "pride-and-prejudice", source: "html/pg1342-pride-and-prejudice.htm",
             sourceKeys: "    chapters: { level: 2 }\n", chapter: "Chapter 2"),
        Book(name: "jack-sheppard", source: "text/pg16215-jack-sheppard.txt", chapter: "CHAPTER IV. Jack Sheppard's Escape"),
    ]

    /// The repository's configuration, for `check` and `run` alike (the estimate was measured with it).
    static let environment = ["LECTERN_CONFIG": Tool.packageRoot.appendingPathComponent("Config").path]

    struct Check: Decodable {
        struct Chapter: Decodable { var title: String; var estimatedSeconds: Double }
        var chapters: [Chapter]
        var estimatedSeconds: Double
    }

    static func check(_ manifest: URL) throws -> Check {
        let result = try Tool.run(Tool.lectern, ["check", "--json", manifest.path], environment: environment)
        guard result.status == 0 else { throw TestFailure("check failed: \(result.stderr)") }
        return try JSONDecoder().decode(Check.self, from: Data(result.stdout.utf8))
    }

    @Test(arguments: books)
    func estimateWithinFivePercentOfTheRenderedLength(_ book: Book) throws {
        let ws = try Workspace("estimate-\(book.name)")
        let head = """
            title: \(book.name)
            output: out
            sources:
              - path: \(Corpus.file(book.source).path)
            \(book.sourceKeys)voice: { name: en, rate: 0.5 }
            timings: [json]

            """
        var manifest = try ws.write("job.yml", head)
        // Every chapter but the one chosen is left out by an override.
        let all = try Self.check(manifest).chapters
        let kept = try #require(all.firstIndex { $0.title.hasPrefix(book.chapter) }, "no chapter \"\(book.chapter)\" in \(all.map(\.title))")
        let skips = all.indices.filter { $0 != kept }.map { "  - { chapter: \($0 + 1), skip: true }\n" }.joined()
        manifest = try ws.write("job.yml", head + "overrides:\n" + skips)
        let check = try Self.check(manifest)
        #expect(check.chapters.count == 1)

        let run = try Tool.run(Tool.lectern, ["run", "--quiet", manifest.path, "--db", ws.db.path], environment: Self.environment)
        try #require(run.status == 0, "run failed: \(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("out/job.mp3")
        let format = try Tool.probe(mp3, ["-show_entries", "format=duration"])["format"] as? [String: Any]
        let rendered = try #require(Double(format?["duration"] as? String ?? ""), "ffprobe gave no duration for \(mp3.path)")
        let error = (check.estimatedSeconds - rendered) / rendered
        print(String(format: "%@ (%@): estimate %.1f s, rendered %.1f s, error %+.1f %%", book.name, check.chapters[0].title,
                     check.estimatedSeconds, rendered, 100 * error))
        #expect(abs(error) <= 0.05, "\(book.name): check estimates \(check.estimatedSeconds) s, run renders \(rendered) s")
    }
}
