import Foundation
import Testing

/// Small books rendered end to end: cover art, check, status of one job.
struct SmallBookTests {
    @Test func coverIsEmbeddedAsID3PictureAndCheckListsChapters() throws {
        let ws = try Workspace("cover")
        let cover = ws.url.appendingPathComponent("cover.png")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", cover.path])
        try #require(made.status == 0, "ffmpeg could not make a PNG: \(made.stderr)")
        try ws.write("notes.md", "# First\n\nHello there, reader.\n\n```\nlet x = 1\n```\n\n# Second\n\n- one item\n- two items\n\n> A quoted line.\n")
        let manifest = try ws.write("notes.yml", "title: Notes\nauthor: Me\ncover: cover.png\nsources: [notes.md]\n")

        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let chapters = report["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.compactMap { $0["title"] as? String } == ["First", "Second"])
        #expect(report["words"] as? Int == 2 + 3 + 2 + 2 + 3)  // two titles, the paragraph, two list items, the quote
        #expect((report["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "code block")
        #expect(!ws.exists("out/notes/notes.mp3"), "check must not render audio")

        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("out/notes/notes.mp3")
        let tags = try Tool.mutagenInspect(mp3).stdout
        #expect(tags.contains("APIC="))
        #expect(tags.contains("image/png"))
        #expect(tags.contains("TPE1=Me"))
        let probe = try Tool.probe(mp3, ["-show_streams"])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        #expect(streams.contains { $0["codec_name"] as? String == "png" }, "ffprobe sees the cover as an attached picture")
        #expect(streams.contains { $0["codec_name"] as? String == "mp3" && $0["sample_rate"] as? String == "22050" && $0["channels"] as? Int == 1 })
    }
}
