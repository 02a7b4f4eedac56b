import Foundation
import Testing

/// Covers are known by their bytes: one that is not a JPEG or PNG, or is over 16 MB, is a clear
/// error before any rendering (an EPUB's own is left out with a warning), one whose name lies is
/// embedded with its real type, and no succeeded run leaves an MP3 ffmpeg cannot decode.
struct CoverTests {
    static func book(_ ws: Workspace, cover: String?) throws -> URL {
        try ws.write("book.txt", "A short book about covers.\n")
        return try ws.write("book.yml", """
            title: Covers
            \(cover.map { "cover: \($0)\n" } ?? "")sources: [book.txt]
            voice: { name: en-us, wpm: 450 }
            audio: { bitrate: 56, quality: 9 }
            """)
    }

    static func picture(_ ws: Workspace, _ name: String, codec: String) throws -> URL {
        let url = ws.url.appendingPathComponent(name)
        let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=green:s=40x30", "-frames:v", "1",
                                           "-c:v", codec, "-f", "image2", url.path])
        try #require(made.status == 0, "\(made.stderr)")
        return url
    }

    /// ffmpeg decodes every stream of the MP3 (the attached picture too) without a word.
    static func requireDecodes(_ mp3: URL) throws {
        let decode = try Tool.run("ffmpeg", ["-v", "error", "-i", mp3.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test(arguments: ["text", "huge", "truncated png"])
    func unusableCoverIsAClearErrorBeforeRendering(kind: String) throws {
        let ws = try Workspace("bad-cover")
        let file = ws.url.appendingPathComponent(kind == "truncated png" ? "cover.png" : "cover.jpg")
        let expected: String
        switch kind {
        case "text":
            try Data("This is not a picture at all.\n".utf8).write(to: file)
            expected = "it is not a JPEG or PNG image (it holds text)"
        case "huge":
            // A real JPEG header, then 300 MB: sparse, so the test writes almost nothing.
            let jpeg = try Data(contentsOf: try Self.picture(ws, "small.jpg", codec: "mjpeg"))
            try jpeg.write(to: file)
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: 300 << 20)
            try handle.close()
            expected = "it is \(300 << 20) bytes; a cover may be at most \(16 << 20) bytes"
        default:
            let png = try Data(contentsOf: try Self.picture(ws, "small.png", codec: "png"))
            try png.prefix(20).write(to: file)
            expected = "its PNG header is truncated or damaged"
        }
        let manifest = try Self.book(ws, cover: file.lastPathComponent)
        let timing = ws.url.appendingPathComponent("time.txt")
        let run = try Tool.run("/usr/bin/time", ["-f", "%e %M", "-o", timing.path, Tool.lectern, "run", "--quiet", manifest.path, "--db", ws.db.path])
        #expect(run.status == 1, "\(kind): \(run.stderr)")
        #expect(run.stderr.contains("the cover \(file.path) cannot be used: \(expected)"), "\(kind): \(run.stderr)")
        let measured = (try String(contentsOf: timing, encoding: .utf8)).split(separator: "\n").last?.split(separator: " ") ?? []
        #expect((Int(measured.last ?? "") ?? .max) < 200_000, "\(kind): the cover is refused unread: \(measured)")
        #expect(!ws.exists("out/book/book.mp3"))
        let status = try Tool.lectern(["status", "--json", "book"], db: ws.db)
        #expect(!status.stdout.contains("succeeded"), "\(status.stdout)")
    }

    @Test func coverNamedJPEGThatIsAPNGIsEmbeddedAsAPNG() throws {
        let ws = try Workspace("lying-cover")
        let png = try Self.picture(ws, "real.png", codec: "png")
        try FileManager.default.moveItem(at: png, to: ws.url.appendingPathComponent("cover.jpg"))
        let job = try RenderedJob.run(ws, try Self.book(ws, cover: "cover.jpg"))
        let tags = try Tool.mutagenInspect(job.mp3).stdout
        #expect(tags.contains("APIC=") && tags.contains("image/png"), "\(tags)")
        try Self.requireDecodes(job.mp3)
    }

    @Test(arguments: ["text", "gif"])
    func epubCoverThatIsNotAJPEGOrPNGIsLeftOutWithAWarning(kind: String) throws {
        let ws = try Workspace("epub-cover")
        let opf = HostileEPUBTests.opf()
            .replacingOccurrences(of: "</manifest>", with: #"<item id="c" href="cover.jpg" media-type="image/jpeg" properties="cover-image"/></manifest>"#)
        var entries = [("META-INF/container.xml", HostileEPUBTests.container), ("OEBPS/content.opf", opf),
                       ("OEBPS/ch1.xhtml", HostileEPUBTests.chapter("The harbour was quiet that night."))]
        if kind == "text" { entries.append(("OEBPS/cover.jpg", "Not a picture, only words.")) }
        let epub = try HostileEPUBTests.epub(ws, "harbour.epub", entries)
        if kind == "gif" {
            let gif = try Self.picture(ws, "cover.gif", codec: "gif")
            let add = try Tool.run("python3", ["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'a').write(sys.argv[2], 'OEBPS/cover.jpg')",
                                               epub.path, gif.path])
            try #require(add.status == 0, "\(add.stderr)")
        }
        let manifest = try ws.write("harbour.yml", "sources: [harbour.epub]\nvoice: { name: en-us, wpm: 450 }\naudio: { bitrate: 56, quality: 9 }\n")
        let run = try Tool.lectern(["run", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let reason = kind == "text" ? "it holds text" : "it is a GIF"
        #expect(run.stderr.contains("lectern: warning: \(epub.path): the cover OEBPS/cover.jpg is left out: it is not a JPEG or PNG image (\(reason))"),
                "\(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("out/harbour/harbour.mp3")
        let tags = try Tool.mutagenInspect(mp3).stdout
        #expect(!tags.contains("APIC="), "\(tags)")
        try Self.requireDecodes(mp3)
    }
}
