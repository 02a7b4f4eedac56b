import Foundation
import Testing
import LecternTesting

/// A rendered job as a podcast feed (issue 27, `lectern feed`): read by feedparser (PyPI) and
/// Python's own XML and JSON readers in `Tests/Scripts/podcast_feed.py`, its enclosures the
/// job's audio byte for byte, its chapters and transcripts parsing back to the sidecar's times —
/// an episode for the book, or one per chapter file timed from 0 — and a feed folder that would
/// hold an input refused.
@Suite(.enabled(if: PodcastFeedScript.missing == nil, "\(PodcastFeedScript.missing ?? "")"))
struct PodcastFeedTests {
    static let title = "Tom & Jerry's \"Feed\" <Test> — Été"

    static func job(_ ws: Workspace, split: String? = nil, cover: Bool = false) throws -> URL {
        try ws.write("book.txt", SplitChaptersTests.book(chapters: ["The Start", "Où & <Why>", "The End"]))
        if cover {
            let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "mandelbrot=s=96x64", "-frames:v", "1",
                                               "-c:v", "png", "-f", "image2", ws.url.appendingPathComponent("cover.png").path])
            try #require(made.status == 0, "\(made.stderr)")
        }
        return try ws.write("book.yml", """
            title: '\(title.replacingOccurrences(of: "'", with: "''"))'
            author: A. Writer & Co.
            \(split.map { "split: \($0)\n" } ?? "")\(cover ? "cover: cover.png\n" : "")sources:
              - path: book.txt
            """)
    }

    static func feed(_ ws: Workspace, _ manifest: URL, out: URL, base: String = "https://example.org/feeds/s3cret") throws -> Tool.Output {
        try Tool.lectern(["feed", manifest.path, "--base-url", base, "--out", out.path], db: ws.db)
    }

    @Test func aBooksFeedReadsBackToItsSidecar() throws {
        let ws = try Workspace("feed-book")
        let manifest = try Self.job(ws, cover: true)
        // The read-along page is an output the manifest does not name: the feed is made all the same.
        let rendered = try RenderedJob.run(ws, manifest, arguments: ["--readalong"])
        #expect(ws.exists("out/book/book.html"))
        let out = ws.url.appendingPathComponent("public/feed")
        let made = try Self.feed(ws, manifest, out: out)
        try #require(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("feed.xml (1 episode)"), "\(made.stdout)")
        let sidecar = ws.url.appendingPathComponent("out/book/book.timings.json")
        let checked = try PodcastFeedScript.check(out.path, sidecar: sidecar, episodes: "book")
        #expect(checked.episodes == 1 && checked.chapters == 3 && checked.words > 30, "\(checked)")
        #expect(try Data(contentsOf: out.appendingPathComponent("audio/book.mp3")) == Data(contentsOf: rendered.mp3))
        #expect(try Data(contentsOf: out.appendingPathComponent("cover.png")) == Data(contentsOf: ws.url.appendingPathComponent("cover.png")))
        let files = try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted()
        #expect(files == [".lectern-files", "audio", "audio/book.mp3", "chapters", "chapters/book.json", "cover.png", "feed.xml", "transcripts",
                          "transcripts/book.vtt"], "nothing else, no temporary left: \(files)")

        // Written again, the same feed, byte for byte.
        let before = try Data(contentsOf: out.appendingPathComponent("feed.xml"))
        try #require(try Self.feed(ws, manifest, out: out).status == 0)
        #expect(try Data(contentsOf: out.appendingPathComponent("feed.xml")) == before)

        // A file the feed did not write in its folders (issue #38): refused, naming it, and kept;
        // a file beside them that is not the feed's is left alone.
        try ws.write("public/feed/index.html", "<p>my page</p>")
        for mine in ["audio/mine.mp3", "cover.jpg"] {
            try ws.write("public/feed/\(mine)", "mine")
            let refused = try Self.feed(ws, manifest, out: out)
            #expect(refused.status != 0 && refused.stderr.contains(mine) && refused.stderr.contains("did not write"), "\(refused.stderr)")
            #expect(ws.exists("public/feed/\(mine)"))
            try FileManager.default.removeItem(at: out.appendingPathComponent(mine))
        }
        try #require(try Self.feed(ws, manifest, out: out).status == 0)
        #expect(ws.exists("public/feed/index.html"))

        // Outputs changed since the run: refused, the feed in place untouched.
        let handle = try FileHandle(forWritingTo: rendered.mp3)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let stale = try Self.feed(ws, manifest, out: out)
        #expect(stale.status == 1 && stale.stderr.contains("render it again"), "\(stale.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("feed.xml")) == before)
    }

    @Test func aSplitJobHasAnEpisodePerChapterFileTimedFromZero() throws {
        let ws = try Workspace("feed-split")
        let manifest = try Self.job(ws, split: "chapters-only")
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let out = ws.url.appendingPathComponent("feed")
        let made = try Self.feed(ws, manifest, out: out, base: "https://example.org/f/xyz/")
        try #require(made.status == 0, "\(made.stderr)")
        let sidecar = ws.url.appendingPathComponent("out/book/book.timings.json")
        let checked = try PodcastFeedScript.check(out.path, sidecar: sidecar, episodes: "chapters")
        #expect(checked.episodes == 3 && checked.chapters == 3, "\(checked)")
        let audio = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("audio").path).sorted()
        #expect(audio == ["01-chapter-1-the-start.mp3", "02-chapter-2-ou-why.mp3", "03-chapter-3-the-end.mp3"])
        let chapterFile = ws.url.appendingPathComponent("out/book/book-chapters/02 - CHAPTER 2. Où & Why.mp3")
        #expect(try Data(contentsOf: out.appendingPathComponent("audio/02-chapter-2-ou-why.mp3")) == Data(contentsOf: chapterFile))

        // The same feed over HTTP, as a server's tests read it: the script fetches every file by its URL.
        let site = ws.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let server = try LoopbackHTTPServer(serving: site)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)/feeds/s3cret"
        let served = try Self.feed(ws, manifest, out: site.appendingPathComponent("feeds/s3cret"), base: base)
        try #require(served.status == 0, "\(served.stderr)")
        let fetched = try PodcastFeedScript.check(base, sidecar: sidecar, episodes: "chapters")
        #expect(fetched.episodes == 3 && fetched.bytes == checked.bytes, "\(fetched)")
    }

    @Test func anOpusBookWithoutSidecarTakesItsChaptersFromTheStoreAndHasNoTranscript() throws {
        let ws = try Workspace("feed-opus")
        try ws.write("book.txt", SplitChaptersTests.book(chapters: ["One", "Two"]))
        let manifest = try ws.write("book.yml", "title: Opus Book\nformats: [opus]\ntimings: []\nsources: [book.txt]\n")
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let out = ws.url.appendingPathComponent("feed")
        let made = try Self.feed(ws, manifest, out: out)
        try #require(made.status == 0, "\(made.stderr)")
        let xml = try String(contentsOf: out.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(xml.contains("<enclosure url=\"https://example.org/feeds/s3cret/audio/book.opus\" length=\"\(try Data(contentsOf: ws.url.appendingPathComponent("out/book/book.opus")).count)\" type=\"audio/ogg\"/>"), "\(xml)")
        #expect(!xml.contains("podcast:transcript") && !ws.exists("feed/transcripts"), "no sidecar, no transcript")
        // The chapters are the store's, as the Opus file's own chapter marks say (ffprobe).
        let chapters = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("chapters/book.json"))) as? [String: Any]
        let starts = (chapters?["chapters"] as? [[String: Any]] ?? []).map { (($0["startTime"] as? NSNumber)?.doubleValue ?? -1) * 1000 }
        let marks = try Tool.probe(ws.url.appendingPathComponent("out/book/book.opus"), ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        let probed = marks.map { (Double($0["start_time"] as? String ?? "") ?? -1) * 1000 }
        #expect(starts.count == 2 && probed.count == 2 && zip(starts, probed).allSatisfy { abs($0 - $1) <= 1 }, "\(starts) vs \(probed)")
    }

    @Test func aFeedFolderHoldingTheJobsFilesOrAJobNeverRenderedIsRefused() throws {
        let ws = try Workspace("feed-refused")
        let manifest = try Self.job(ws)
        let never = try Self.feed(ws, manifest, out: ws.url.appendingPathComponent("feed"))
        #expect(never.status == 1 && never.stderr.contains("has never been rendered") && never.stderr.contains("lectern run"), "\(never.stderr)")
        #expect(!ws.exists("feed/feed.xml"))

        _ = try RenderedJob.run(ws, manifest)
        for (folder, holds) in [(ws.url, "book.yml"), (ws.url.appendingPathComponent("out"), "book.mp3"),
                                (ws.url.appendingPathComponent("book.txt"), "book.txt")] {
            let refused = try Self.feed(ws, manifest, out: folder)
            #expect(refused.status == 1 && refused.stderr.contains(holds) && refused.stderr.components(separatedBy: "\n").count == 2,
                    "\(folder.path): \(refused.stderr)")
        }
        #expect(!ws.exists("feed.xml") && !ws.exists("out/feed.xml") && !ws.exists("audio"))
        let badURL = try Self.feed(ws, manifest, out: ws.url.appendingPathComponent("feed"), base: "ftp://example.org/x")
        #expect(badURL.status != 0 && badURL.stderr.contains("--base-url"), "\(badURL.stderr)")
    }
}

/// `Tests/Scripts/podcast_feed.py` with feedparser from `.python/` (`make test-python`).
enum PodcastFeedScript {
    struct Checked: Decodable {
        var failures: [String]
        var episodes: Int
        var chapters: Int
        var words: Int
        var cues: Int
        var bytes: Int
    }

    static let script = Tool.packageRoot.appendingPathComponent("Tests/Scripts/podcast_feed.py")

    /// Why the script cannot run here, or nil.
    static let missing: String? = {
        guard let out = try? Tool.run(WordAlignment.python, ["-c", "import feedparser"], environment: ["PYTHONPATH": WordAlignment.folder.path]),
              out.status == 0 else {
            return "needs feedparser in .python/ (make test-python installs it from PyPI)"
        }
        return nil
    }()

    /// Checks the feed at `feed` (a folder or a base URL) against `sidecar`, requiring every check to pass.
    static func check(_ feed: String, sidecar: URL, episodes: String) throws -> Checked {
        let out = try Tool.run(WordAlignment.python, [script.path, feed, "--sidecar", sidecar.path, "--episodes", episodes, "--json"],
                               environment: ["PYTHONPATH": WordAlignment.folder.path])
        try #require(out.status == 0, "podcast_feed.py: \(out.stderr)")
        return try JSONDecoder().decode(Checked.self, from: Data(out.stdout.utf8))
    }
}

/// Python's `http.server` on a free loopback port, serving a folder: it names its port when it
/// is listening, which is what the test waits for.
final class LoopbackHTTPServer {
    let process = Process()
    let port: Int

    init(serving folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains(")") {
            let data = out.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let match = text.firstMatch(of: /port (\d+)/), let port = Int(match.1) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw TestFailure("http.server did not say where it listens: \(text)")
        }
        self.port = port
    }

    /// SIGKILL: a test process may hand its children an ignored SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
