import Foundation
import Testing
import LecternTesting

/// Elements nested far deeper than libxml2's default limit (256, where its HTML parser used to
/// stop reading silently): HTML and XHTML, alone and in an EPUB, are read to the end with every
/// word timed, or refused with an error naming the document; never a succeeded run with fewer words.
struct DeepHTMLTests {
    static let inner = "Inner words sit at the bottom."
    static let after = "After the deep part comes the end of the story."
    /// Words of the heading ("Deep"), the innermost paragraph and the one after the nesting.
    static let words = 1 + 6 + 10

    static func body(depth: Int) -> String {
        "<h1>Deep</h1>" + String(repeating: "<div>", count: depth) + "<p>\(inner)</p>"
            + String(repeating: "</div>", count: depth) + "<p>\(after)</p>"
    }

    static func html(depth: Int) -> String { "<html><head><title>Deep</title></head><body>\(body(depth: depth))</body></html>" }

    static func xhtml(depth: Int) -> String {
        #"<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Deep</title></head>"#
            + "<body>\(body(depth: depth))</body></html>"
    }

    static func manifest(_ ws: Workspace, _ name: String, source: String) throws -> URL {
        try ws.write("\(name).yml", """
            title: Deep
            sources: [\(source)]
            voice: { name: en-us, wpm: 450 }
            audio: { bitrate: 56, quality: 9 }
            timings: [json]
            """)
    }

    /// Runs the job and checks the MP3 decodes cleanly and the sidecar times every word.
    static func requireEveryWordTimed(_ ws: Workspace, _ manifest: URL) throws {
        let job = try RenderedJob.run(ws, manifest)
        let sidecar = try Sidecar.load(job.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        let timed = sidecar.chapters.flatMap(\.paragraphs).flatMap { p in p.words.map { p.text(of: $0) } }
        #expect(timed.count == words, "\(timed)")
        #expect(timed.suffix(10).joined(separator: " ") == Self.after)
        let decode = try Tool.run("ffmpeg", ["-v", "error", "-i", job.mp3.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test(arguments: [("html", 300), ("html", 10_000), ("xhtml", 300), ("xhtml", 10_000)])
    func deeplyNestedDocumentIsReadToItsEnd(format: String, depth: Int) throws {
        let ws = try Workspace("deep")
        try ws.write("deep.\(format)", format == "html" ? Self.html(depth: depth) : Self.xhtml(depth: depth))
        let manifest = try Self.manifest(ws, "deep", source: "deep.\(format)")
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["words"] as? Int == Self.words, "\(format) \(depth): \(report["words"] ?? "none")")
        try Self.requireEveryWordTimed(ws, manifest)
    }

    @Test(arguments: ["html", "xhtml"])
    func nestingBeyondTheLimitIsAnErrorNamingTheDocument(format: String) throws {
        let ws = try Workspace("too-deep")
        let file = try ws.write("deep.\(format)", format == "html" ? Self.html(depth: 30_000) : Self.xhtml(depth: 30_000))
        let manifest = try Self.manifest(ws, "deep", source: "deep.\(format)")
        for command in ["check", "run"] {
            let result = command == "run" ? try Tool.lectern([command, manifest.path], db: ws.db) : try Tool.run(Tool.lectern, [command, manifest.path])
            #expect(result.status == 1, "\(command): \(result.stdout)")
            #expect(result.stderr.contains(file.path) && result.stderr.contains("nested more than 12000 deep"), "\(command): \(result.stderr)")
        }
        #expect(!ws.exists("out/deep/deep.mp3"))
    }

    @Test func deeplyNestedEPUBChapterIsReadToItsEnd() throws {
        let ws = try Workspace("deep-epub")
        _ = try HostileEPUBTests.epub(ws, "deep.epub", [("META-INF/container.xml", HostileEPUBTests.container),
                                                        ("OEBPS/content.opf", HostileEPUBTests.opf()),
                                                        ("OEBPS/ch1.xhtml", Self.xhtml(depth: 5_000))])
        try Self.requireEveryWordTimed(ws, try Self.manifest(ws, "deep", source: "deep.epub"))
    }
}
