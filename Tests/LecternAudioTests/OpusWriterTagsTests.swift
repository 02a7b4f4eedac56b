import Foundation
import LecternCore
import Testing
import LecternAudio

/// An Ogg Opus book's metadata as ffprobe (what Audiobookshelf reads a file with) and mutagen
/// read it back: every field, the chapters to the millisecond, the cover's very bytes, text
/// outside ASCII; and a split book's chapter file, numbered and without chapter marks.
@Suite struct OpusWriterTagsTests {
    static let details = BookDetails(narrator: "Nils Näher", description: "Two chapters; one = dawn.", genre: "Fiction",
                                     date: "1865-11-26", series: "The Tales", seriesIndex: "2", publisher: "Public Press",
                                     copyright: "Public domain", isbn: "9780141439518")
    static let chapters: [ID3Tag.ChapterMark] = [
        .init(title: "Été", startMs: 0, endMs: 4_321),
        .init(title: "日本の夏", startMs: 4_321, endMs: 9_999),
        .init(title: "The End", startMs: 9_999, endMs: 15_000),
    ]

    /// A 64×48 PNG made by ffmpeg, a cover libopusenc has to read the size of.
    static func cover(in folder: URL) throws -> Data {
        let png = folder.appendingPathComponent("cover.png")
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48", "-frames:v", "1", png.path])
        guard made.status == 0 else { throw AudioError("ffmpeg: \(made.stderr)") }
        return try Data(contentsOf: png)
    }

    /// ffprobe's JSON of the file: its stream's tags (an Ogg file's tags are its stream's) and chapters.
    func probe(_ url: URL) throws -> (tags: [String: String], chapters: [[String: Any]]) {
        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-of", "json", "-show_chapters", "-show_format", "-show_streams", url.path])
        #expect(probe.status == 0 && probe.stderr.isEmpty, "ffprobe: \(probe.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "opus")
        let tags = (stream["tags"] as? [String: String] ?? [:]).reduce(into: [:]) { $0[$1.key.uppercased()] = $1.value }
        return (tags, json["chapters"] as? [[String: Any]] ?? [])
    }

    /// mutagen's reading of the file: every comment (name upper-cased) and each picture's type, MIME type and bytes.
    func mutagen(_ url: URL) throws -> (comments: [[String]], pictures: [[String: Any]]) {
        let script = """
            import base64, json, sys
            from mutagen.oggopus import OggOpus
            from mutagen.flac import Picture
            tags = OggOpus(sys.argv[1]).tags
            pictures = [Picture(base64.b64decode(v)) for k, v in tags if k.upper() == "METADATA_BLOCK_PICTURE"]
            print(json.dumps({
                "comments": [[k.upper(), v] for k, v in tags if k.upper() != "METADATA_BLOCK_PICTURE"],
                "pictures": [{"type": p.type, "mime": p.mime, "width": p.width, "data": base64.b64encode(p.data).decode()} for p in pictures],
            }))
            """
        let result = try ExternalTool.run(ExternalTool.python, ["-c", script, url.path])
        #expect(result.status == 0, "mutagen: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (json["comments"] as? [[String]] ?? [], json["pictures"] as? [[String: Any]] ?? [])
    }

    @Test func everyFieldTheChaptersAndTheCoverReadBack() throws {
        try OpusTestAudio.inFolder { folder in
            let cover = try Self.cover(in: folder)
            let metadata = AudioMetadata(title: "Bøøk of 日本", artist: "Ánn Author", album: "Bøøk of 日本", details: Self.details,
                                        language: "fr-CA", cover: .init(mimeType: "image/png", data: cover), chapters: Self.chapters)
            let url = folder.appendingPathComponent("book.opus")
            try OpusTestAudio.write(OpusTestAudio.pcm(seconds: 15), to: url, metadata: metadata)

            let expected: [String: String] = [
                "TITLE": "Bøøk of 日本", "ALBUM": "Bøøk of 日本", "ARTIST": "Ánn Author", "COMPOSER": "Nils Näher",
                "DESCRIPTION": "Two chapters; one = dawn.", "GENRE": "Fiction", "DATE": "1865-11-26", "PUBLISHER": "Public Press",
                "COPYRIGHT": "Public domain", "LANGUAGE": "fra", "SERIES": "The Tales", "SERIES-PART": "2", "ISBN": "9780141439518",
            ]
            #expect(Set(expected.keys) == Set(MetadataField.allCases.filter { $0 != .track }.map(VorbisComments.name(for:))))

            let read = try mutagen(url)
            let chapterNames = (1...Self.chapters.count).flatMap { ["CHAPTER00\($0)", "CHAPTER00\($0)NAME"] }
            #expect(read.comments.filter { !$0[0].hasPrefix("CHAPTER") }.map { $0[0] } == expected.keys.sorted { a, b in
                Self.order(a) < Self.order(b)
            })
            #expect(read.comments.filter { $0[0].hasPrefix("CHAPTER") }.map { $0[0] } == chapterNames)
            for comment in read.comments where !comment[0].hasPrefix("CHAPTER") {
                #expect(expected[comment[0]] == comment[1], "\(comment[0])")
            }
            #expect(read.comments.filter { $0[0].hasPrefix("CHAPTER") }.map { $0[1] }
                    == ["00:00:00.000", "Été", "00:00:04.321", "日本の夏", "00:00:09.999", "The End"])
            #expect(read.pictures.count == 1)
            #expect(read.pictures.first?["type"] as? Int == 3)
            #expect(read.pictures.first?["mime"] as? String == "image/png")
            #expect(read.pictures.first?["width"] as? Int == 64)
            #expect((read.pictures.first?["data"] as? String).flatMap { Data(base64Encoded: $0) } == cover)

            // ffprobe, as Audiobookshelf reads the file: TRACKNUMBER becomes `track` and DESCRIPTION
            // `comment` (both of which Audiobookshelf reads); the CHAPTERnnn comments become chapters.
            let probed = try probe(url)
            for (name, value) in expected {
                #expect(probed.tags[name == "DESCRIPTION" ? "COMMENT" : name] == value, "\(name)")
            }
            #expect(!probed.tags.keys.contains { $0.hasPrefix("CHAPTER") })
            #expect(probed.chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == Self.chapters.map(\.title))
            for (mark, chapter) in zip(probed.chapters, Self.chapters) {
                let start = try #require(Double(mark["start_time"] as? String ?? ""))
                #expect(abs(start * 1000 - Double(chapter.startMs)) < 1, "\(chapter.title) starts at \(start)")
            }
        }
    }

    /// The place of each field's comment: ``MetadataField``'s order.
    static func order(_ name: String) -> Int {
        MetadataField.allCases.firstIndex { VorbisComments.name(for: $0) == name } ?? .max
    }

    @Test func aChapterFileOfASplitBookIsNumberedAndHasNoChapters() throws {
        try OpusTestAudio.inFolder { folder in
            let book = AudioMetadata(title: "Novel", artist: "A. Author", chapters: Self.chapters)
            let url = folder.appendingPathComponent("02.opus")
            try OpusTestAudio.write(OpusTestAudio.pcm(seconds: 3), to: url, metadata: book.chapterFile(title: "日本の夏", number: 2, of: 3))
            let read = try mutagen(url)
            #expect(read.comments == [["TITLE", "日本の夏"], ["ALBUM", "Novel"], ["ARTIST", "A. Author"],
                                      ["TRACKNUMBER", "2"], ["TRACKTOTAL", "3"]])
            #expect(read.pictures.isEmpty)
            let probed = try probe(url)
            #expect(probed.chapters.isEmpty)
            #expect(probed.tags["TRACK"] == "2")
            #expect(probed.tags["TRACKTOTAL"] == "3")
            #expect(probed.tags["TITLE"] == "日本の夏")
        }
    }

    /// A cover larger than an Ogg page (255 segments of 255 bytes) carries the comment packet
    /// over several pages, and audio still begins on a page of its own.
    @Test func aCoverLargerThanAPageIsCarriedOverThePagesAfter() throws {
        try OpusTestAudio.inFolder { folder in
            let png = folder.appendingPathComponent("noise.png")
            let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=gray:size=320x240,noise=alls=100:allf=t",
                                                       "-frames:v", "1", png.path])
            try #require(made.status == 0, "ffmpeg: \(made.stderr)")
            let cover = try Data(contentsOf: png)
            try #require(cover.count > 3 * 65_025, "the cover is \(cover.count) bytes")
            let url = folder.appendingPathComponent("book.opus")
            try OpusTestAudio.write(OpusTestAudio.pcm(seconds: 4, clicks: [3000]), to: url,
                                    metadata: AudioMetadata(title: "Book", cover: .init(mimeType: "image/png", data: cover)))
            let info = try ExternalTool.run("opusinfo", [url.path])
            let output = info.stdout + info.stderr
            #expect(info.status == 0 && !output.contains("WARNING") && !output.contains("ERROR"), "opusinfo: \(output)")
            #expect(output.contains("Playback length: 0m:04.000s"), "opusinfo: \(output)")
            let read = try mutagen(url)
            #expect((read.pictures.first?["data"] as? String).flatMap { Data(base64Encoded: $0) } == cover)
        }
    }
}
