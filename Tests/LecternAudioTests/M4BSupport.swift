import Foundation
import LecternAudio
import LecternCore

/// What the M4B tests share: synthetic PCM with clicks at known samples, a book's metadata with
/// non-ASCII text, a written file, and the file read back by ffmpeg, ffprobe and mutagen.
enum M4BSupport {
    static let sampleRate = 22_050
    /// 12 s: a quiet 440 Hz tone with full-scale one-sample clicks at `clicks`.
    static let length = 12 * sampleRate + 777
    static let clicks = [22_050 + 123, 5 * 22_050 + 4_321, 11 * 22_050 + 2_000]

    static func pcm() -> [Int16] {
        var samples = (0..<length).map { Int16(1500 * sin(2 * Double.pi * 440 * Double($0) / Double(sampleRate))) }
        for click in clicks { samples[click] = 30_000 }
        return samples
    }

    /// A real 24×16 baseline JPEG (ffmpeg's testsrc), as CoverImageTests has it.
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgUFBcUFxsbGxsbGyAeICEhISAgICAhISEkJCQqKiokJCQhISQkKCgqKi4vLisrKisvLzIyMjw8OTlGRkhWVmf/xAB+AAEBAQEAAAAAAAAAAAAAAAAGAwUEAQEBAQEBAAAAAAAAAAAAAAAGAwEEBRAAAQIEBQQDAQAAAAAAAAAAAQIDMRIRBDJhACEFoYEUIlHDRUERAAEDAwIDBgcBAQAAAAAAAAERAgMEEiEAMXEiBTJBExSDUWGRI8MGwkJFRP/AABEIABAAGAMBEgACEgADEgD/2gAMAwEAAhEDEQA/ACHFtDxXXf6FyjLBU9aaScay0mycQH0Elcxw7YdqTZddexSQtdKHuAKYAIBQjK8fb20Zi6hNFJY2kkk3OC7hsIzq9PVu85S0dosL3zOKnmIjda1Nka5t2V5g0hE1klKaWsiq43eYsujaxje24sfgOBdkAkohwNdfDfodvs1WzAtUXamz5BXSZKIoxxpN85Q13flH+f6n2tX6g0dSFL5hwoLLrfF/tbFS/wAPZB776jVf9vq/tozJVzSunDqaSMSX3E3fTVd1YNl7021q2F0pvkA1iS7VI3PpRsrqBnLQjaNdGLRbpuk3CWHFKbJJaAUT7NqRuZaiNYaNUb3WWLjfhk7fPOkgooadhMdTHOmOW3vPwe7SempYh02lqA0NkWVjiABeHSO7RRSW2ANzgLpHRsid0+CB0zGAF7mvJHPzOuQXDslyFCc6/9k=")!

    static let chapters = [
        ID3Tag.ChapterMark(title: "Ouverture — été", startMs: 0, endMs: 4_000),
        ID3Tag.ChapterMark(title: "第二章 日本", startMs: 4_000, endMs: 9_500),
        ID3Tag.ChapterMark(title: "The End", startMs: 9_500, endMs: length * 1000 / sampleRate),
    ]

    static let details = BookDetails(narrator: "Nils Näher", description: "Three chapters, été.", genre: "Fiction",
                                     date: "1865-11-26", series: "The Tales", seriesIndex: "2", publisher: "Public Press",
                                     copyright: "Public domain", isbn: "9780141439518")

    static let book = LecternAudio.AudioMetadata(title: "Le Livre 日本", artist: "Ánn Author", album: "Le Livre 日本", details: details,
                                   language: "fr-FR", cover: .init(mimeType: "image/jpeg", data: jpeg), chapters: chapters)

    /// Writes `samples` with `metadata` to a new file in a fresh folder, in blocks of odd sizes.
    static func write(_ metadata: LecternAudio.AudioMetadata, samples: [Int16] = pcm(), name: String = "book.m4b") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("m4b-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        let writer = try M4BWriter(url: url, sampleRate: sampleRate, bitrate: 64_000, metadata: metadata)
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + 1_000 + start % 3_001)
            try writer.write(samples[start..<end])
            start = end
        }
        try writer.finish()
        return url
    }

    /// ffprobe's JSON of the chapters, format and streams.
    static func probe(_ url: URL) throws -> [String: Any] {
        let out = try ExternalTool.run("ffprobe", ["-v", "error", "-show_chapters", "-show_format", "-show_streams",
                                                   "-of", "json", url.path])
        guard out.status == 0, out.stderr.isEmpty else { throw AudioError("ffprobe: \(out.status) \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as! [String: Any]
    }

    /// mutagen's reading: every tag as text (`covr` as `format:bytes`, `trkn` as `n/N`, freeform
    /// atoms decoded), the stream's facts, and the chpl chapters.
    static func mutagen(_ url: URL) throws -> [String: Any] {
        let script = """
        import json, sys
        from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
        f = MP4(sys.argv[1])
        tags = {}
        for key, values in f.tags.items():
            out = []
            for v in values:
                if isinstance(v, MP4Cover): out.append("%s:%d" % ("png" if v.imageformat == MP4Cover.FORMAT_PNG else "jpeg", len(v)))
                elif isinstance(v, MP4FreeForm): out.append(bytes(v).decode("utf-8"))
                elif isinstance(v, tuple): out.append("%d/%d" % v)
                else: out.append(str(v))
            tags[key] = out
        chapters = [[c.start, c.title] for c in (f.chapters or [])]
        info = {"length": f.info.length, "rate": f.info.sample_rate, "channels": f.info.channels, "codec": f.info.codec}
        print(json.dumps({"tags": tags, "chapters": chapters, "info": info}))
        """
        let out = try ExternalTool.run(ExternalTool.python, ["-c", script, url.path])
        guard out.status == 0 else { throw AudioError("mutagen: \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as! [String: Any]
    }

    /// The file decoded by ffmpeg to mono 16-bit PCM (edit list applied).
    static func decode(_ url: URL) throws -> [Int16] {
        let raw = url.deletingPathExtension().appendingPathExtension("raw")
        let out = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-map", "0:a", "-f", "s16le", "-ac", "1", raw.path])
        guard out.status == 0 else { throw AudioError("ffmpeg: \(out.stderr)") }
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
