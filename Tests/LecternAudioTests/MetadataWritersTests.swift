import Foundation
import Testing
import LecternAudio
import LecternCore

/// One metadata model, three writers (issue #25, item 2): the same ``AudioMetadata`` written as
/// ID3 (MP3), MP4 atoms (M4B) and Vorbis comments (Opus), each file read back by mutagen and
/// ffprobe against the same expectations — every ``MetadataField`` in every format, the cover,
/// and every chapter's title and start.
struct MetadataWritersTests {
    /// Every tag value mutagen reads from a file of any of the three formats, as text, and the
    /// cover's bytes; ID3's TXXX and MP4's freeform values decoded.
    static func mutagenValues(_ url: URL) throws -> (values: [String], cover: Int) {
        let script = """
        import json, sys, base64
        import mutagen
        from mutagen.flac import Picture
        f = mutagen.File(sys.argv[1])
        values, cover = [], 0
        for key in f.tags.keys():
            for v in (f.tags[key] if isinstance(f.tags[key], list) else [f.tags[key]]):
                name = type(v).__name__
                if key.upper() == "METADATA_BLOCK_PICTURE": cover = len(Picture(base64.b64decode(v)).data)
                elif name == "APIC": cover = len(v.data)
                elif name == "MP4Cover": cover = len(v)
                elif name == "MP4FreeForm": values.append(bytes(v).decode("utf-8"))
                elif isinstance(v, tuple): values.append("%d/%d" % v)
                elif hasattr(v, "text"): values += [str(t) for t in v.text]
                else: values.append(str(v))
        print(json.dumps({"values": values, "cover": cover}))
        """
        let out = try ExternalTool.run(ExternalTool.python, ["-c", script, url.path])
        guard out.status == 0 else { throw AudioError("mutagen on \(url.lastPathComponent): \(out.stderr)") }
        let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as! [String: Any]
        return (json["values"] as? [String] ?? [], json["cover"] as? Int ?? 0)
    }

    /// The three files of one metadata, from the same PCM.
    static func write(_ metadata: AudioMetadata, in folder: URL) throws -> [(format: String, url: URL)] {
        let pcm = M4BSupport.pcm()
        let stream = folder.appendingPathComponent("stream.mp3")
        let writer = try MP3StreamWriter(url: stream, sampleRate: M4BSupport.sampleRate, settings: AudioSettings())
        try writer.write(pcm)
        try writer.finish()
        let mp3 = folder.appendingPathComponent("book.mp3")
        try (try ID3Tag(metadata).encoded() + Data(contentsOf: stream)).write(to: mp3)
        let m4b = try M4BSupport.write(metadata)
        let opus = folder.appendingPathComponent("book.opus")
        try OpusTestAudio.write(pcm, to: opus, metadata: metadata)
        return [("mp3", mp3), ("m4b", m4b), ("opus", opus)]
    }

    /// What a field's value must read as in every format's tags.
    static func expected(_ field: MetadataField, _ metadata: AudioMetadata) -> [String] {
        let value = metadata.value(of: field) ?? ""
        switch field {
        case .date: return [String(value.prefix(4))]  // ID3v2.3 keeps the year in TYER (and the day in TDAT)
        default: return [value]
        }
    }

    @Test(arguments: [false, true])
    func everyFieldIsInEveryFormat(chapterFile: Bool) throws {
        var metadata = M4BSupport.book
        if chapterFile { metadata = metadata.chapterFile(title: "第二章 日本", number: 3, of: 12) }
        try OpusTestAudio.inFolder { folder in
            for (format, url) in try Self.write(metadata, in: folder) {
                let read = try Self.mutagenValues(url)
                let probe = try M4BSupport.probe(url)
                let streamTags = ((probe["streams"] as? [[String: Any]])?.first?["tags"] as? [String: Any]) ?? [:]
                let formatTags = (probe["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
                let probed = Array(streamTags.values.compactMap { $0 as? String }) + formatTags.values.compactMap { $0 as? String }
                for field in MetadataField.allCases where metadata.value(of: field) != nil {
                    for value in Self.expected(field, metadata) {
                        // Language is the stream's in MP4 (mdhd), which ffprobe reads and mutagen does not.
                        // Vorbis keeps a track's number and total apart (TRACKNUMBER, TRACKTOTAL).
                        let parts = value.split(separator: "/").map(String.init)
                        let found = read.values.contains(where: { $0 == value || $0.hasPrefix(value) })
                            || (field == .language && probed.contains(value))
                            || (field == .track && parts.allSatisfy(read.values.contains))
                        #expect(found, "\(format): \(field) \"\(value)\" is missing; mutagen read \(read.values)")
                    }
                }
                #expect(read.cover == M4BSupport.jpeg.count, "\(format): the cover has \(read.cover) bytes")
                let chapters = probe["chapters"] as? [[String: Any]] ?? []
                #expect(chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String } == metadata.chapters.map(\.title), "\(format)")
                for (mark, chapter) in zip(chapters, metadata.chapters) {
                    let start = (Double(mark["start_time"] as? String ?? "") ?? -1) * 1000
                    #expect(abs(start - Double(chapter.startMs)) <= 1, "\(format): \(chapter.title) at \(start) ms, not \(chapter.startMs)")
                }
            }
        }
    }
}
