import Foundation
import Testing
import LecternTesting

/// The Mostly Adequate Guide: several Markdown files, one job, one chapter per top-level heading.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct MarkdownEndToEndTests {
    @Test func multiFileMarkdownBookHasOneChapterPerTopLevelHeading() throws {
        let ws = try Workspace("guide")
        let folder = Corpus.file("markdown/mostly-adequate-guide")
        let manifest = try ws.write("guide.yml", """
            title: Mostly Adequate Guide
            author: Brian Lonsdorf
            sources:
              - path: \(folder.path)/ch*.md
              - path: \(folder.path)/appendix_*.md
            voice: { name: en-us, rate: 0.6 }
            """)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "lectern run failed: \(run.stderr)")

        // The top-level headings, found with a plain line scan outside fenced code.
        var expected: [String] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let ordered = files.filter { $0.hasPrefix("ch") && $0.hasSuffix(".md") }.sorted()
            + files.filter { $0.hasPrefix("appendix_") }.sorted()
        for name in ordered {
            var fenced = false
            for line in try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).components(separatedBy: "\n") {
                if line.hasPrefix("```") { fenced.toggle() }
                if !fenced, line.hasPrefix("# ") { expected.append(String(line.dropFirst(2)).trimmingCharacters(in: .whitespaces)) }
            }
        }
        #expect(expected.count == 16)

        let mp3 = ws.url.appendingPathComponent("out/guide/guide.mp3")
        #expect(try BookChecks.chapterTitles(mp3) == expected)

        // Code blocks are listed as skipped, with their text; nothing of them is spoken.
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/guide/guide.timings.json"))
        let code = sidecar.skipped.filter { $0.reason == "code block" }
        #expect(code.count > 250)
        #expect(code.contains { $0.text.contains("const") })
        let spokenText = sidecar.chapters.flatMap(\.paragraphs).map(\.text).joined(separator: "\n")
        #expect(!spokenText.contains("```"))
        #expect(sidecar.chapters.map(\.title) == expected)
        let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", mp3.path, "-f", "null", "-"])
        #expect(ffmpeg.stderr.isEmpty)
    }
}
