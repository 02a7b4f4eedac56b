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

    /// ffmpeg decodes every stream of the MP3 without a word, and the attached picture, if any,
    /// on its own (`-map 0:v`).
    static func requireDecodes(_ mp3: URL) throws {
        let decode = try Tool.run("ffmpeg", ["-v", "error", "-i", mp3.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
        let streams = try Tool.probe(mp3, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        guard streams.contains(where: { $0["codec_type"] as? String == "video" }) else { return }
        let picture = try Tool.run("ffmpeg", ["-v", "error", "-i", mp3.path, "-map", "0:v", "-f", "null", "-"])
        #expect(picture.status == 0 && picture.stderr.isEmpty, "the picture: \(picture.stderr)")
    }

    /// A real picture (ffmpeg's mandelbrot, 96×64, so its data is more than its header), damaged
    /// as `kind` says: "half" (the first half of a PNG), "cut" (a JPEG cut to 300 bytes), "crc"
    /// (a PNG whose IDAT CRC does not match), "huffman" (a JPEG with bytes that are no Huffman
    /// code in the middle of its scan), "zero" (a PNG of height 0, its IHDR CRC made right).
    static func damaged(_ ws: Workspace, _ kind: String) throws -> (data: Data, ext: String) {
        let png = ["half", "crc", "zero"].contains(kind)
        let url = ws.url.appendingPathComponent("source.\(png ? "png" : "jpg")")
        let made = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "mandelbrot=s=96x64", "-frames:v", "1",
                                           "-c:v", png ? "png" : "mjpeg", "-f", "image2", url.path])
        try #require(made.status == 0, "\(made.stderr)")
        var b = [UInt8](try Data(contentsOf: url))
        switch kind {
        case "half": b = Array(b.prefix(b.count / 2))
        case "cut": b = Array(b.prefix(300))
        case "crc":
            let idat = try #require(b.firstRange(of: Array("IDAT".utf8))).lowerBound
            let length = Int(b[idat - 4]) << 24 | Int(b[idat - 3]) << 16 | Int(b[idat - 2]) << 8 | Int(b[idat - 1])
            b[idat + 4 + length] ^= 0xFF
        case "huffman":
            let scan = try #require(b.firstRange(of: [0xFF, 0xDA])).lowerBound
            let middle = (scan + b.count) / 2
            b.replaceSubrange(middle..<middle + 16, with: Array(repeating: [0xFF, 0x00], count: 8).flatMap { $0 })
        default:
            b.replaceSubrange(20..<24, with: [0, 0, 0, 0])
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in b[12..<29] {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            b.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        }
        return (Data(b), png ? "png" : "jpg")
    }

    static let damages: [(String, String)] = [
        ("half", "its PNG data does not decode (libpng: the file ends before the picture does (truncated))"),
        ("cut", "truncated"),
        ("crc", "its PNG data does not decode (libpng: IDAT: CRC error)"),
        ("huffman", "its JPEG data does not decode (libjpeg: Corrupt JPEG data"),
        ("zero", "its PNG header gives 96×0 pixels"),
    ]

    @Test(arguments: damages)
    func aManifestCoverThatDoesNotDecodeIsAClearErrorInCheckAndRun(kind: String, expected: String) throws {
        let ws = try Workspace("damaged-cover")
        let picture = try Self.damaged(ws, kind)
        let file = ws.url.appendingPathComponent("cover.\(picture.ext)")
        try picture.data.write(to: file)
        let manifest = try Self.book(ws, cover: file.lastPathComponent)
        for command in ["check", "run"] {
            let result = command == "run" ? try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db) : try Tool.run(Tool.lectern, ["check", manifest.path])
            #expect(result.status == 1, "\(kind) \(command): \(result.stderr)")
            #expect(result.stderr.contains("the cover \(file.path) cannot be used: ") && result.stderr.contains(expected), "\(kind) \(command): \(result.stderr)")
        }
        #expect(!ws.exists("out/book/book.mp3"))
    }

    @Test(arguments: ["half", "huffman"])
    func anEPUBCoverThatDoesNotDecodeIsLeftOutWithAWarning(kind: String) throws {
        let ws = try Workspace("epub-damaged-cover")
        let picture = try Self.damaged(ws, kind)
        let opf = HostileEPUBTests.opf()
            .replacingOccurrences(of: "</manifest>", with: #"<item id="c" href="cover.img" media-type="image/png" properties="cover-image"/></manifest>"#)
        let epub = try HostileEPUBTests.epub(ws, "harbour.epub", [("META-INF/container.xml", HostileEPUBTests.container), ("OEBPS/content.opf", opf),
                                                                 ("OEBPS/ch1.xhtml", HostileEPUBTests.chapter("The harbour was quiet that night."))])
        let image = ws.url.appendingPathComponent("cover.img")
        try picture.data.write(to: image)
        try HostileEPUBTests.add(image, to: epub, as: "OEBPS/cover.img")
        let manifest = try ws.write("harbour.yml", "sources: [harbour.epub]\nvoice: { name: en-us, wpm: 450 }\naudio: { bitrate: 56, quality: 9 }\n")
        let run = try Tool.lectern(["run", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("lectern: warning: \(epub.path): the cover OEBPS/cover.img is left out: its \(picture.ext == "png" ? "PNG" : "JPEG") data does not decode"),
                "\(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("out/harbour/harbour.mp3")
        let tags = try Tool.mutagenInspect(mp3).stdout
        #expect(!tags.contains("APIC="), "\(tags)")
        try Self.requireDecodes(mp3)
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
            try HostileEPUBTests.add(gif, to: epub, as: "OEBPS/cover.jpg")
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
