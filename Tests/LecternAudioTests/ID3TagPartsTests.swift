import Foundation
import LecternCore
import Testing
import LecternAudio

/// A CTOC frame's fields.
struct TableOfContents {
    var id: String
    var flags: UInt8
    var entries: [String]
    var subFrames: [Frame]

    init(_ frame: Frame) {
        var rest: [UInt8]
        (id, rest) = cString(frame.body)
        flags = rest[0]
        entries = []
        var tail = Array(rest[2...])
        for _ in 0..<Int(rest[1]) {
            let (entry, more) = cString(tail)
            entries.append(entry)
            tail = more
        }
        subFrames = frames(tail[...])
    }
}

/// The tables of contents of a tag, by element id.
func tables(_ tag: ID3Tag) -> [String: TableOfContents] {
    let tocs = tagFrames(tag).filter { $0.id == "CTOC" }.map(TableOfContents.init)
    #expect(Set(tocs.map(\.id)).count == tocs.count, "element ids are unique")
    return Dictionary(uniqueKeysWithValues: tocs.map { ($0.id, $0) })
}

@Suite struct ID3TagPartsTests {
    /// Part One (3 chapters), an interlude in no part, Part Two (2 chapters, a title outside Latin-1).
    static let chapters: [ID3Tag.ChapterMark] = [
        .init(title: "Arrival", startMs: 0, endMs: 1000, part: "Part One"),
        .init(title: "The House", startMs: 1000, endMs: 2000, part: "Part One"),
        .init(title: "Night", startMs: 2000, endMs: 3000, part: "Part One"),
        .init(title: "Interlude", startMs: 3000, endMs: 4000),
        .init(title: "Return", startMs: 4000, endMs: 5000, part: "Part Two — Ωmega"),
        .init(title: "Home", startMs: 5000, endMs: 6000, part: "Part Two — Ωmega"),
    ]

    @Test func topLevelTableListsPartTablesAndLooseChaptersInOrder() throws {
        let tag = ID3Tag(title: "Novel", chapters: Self.chapters)
        let all = tagFrames(tag)
        #expect(all.filter { $0.id == "CHAP" }.map { cString($0.body).0 } == (1...6).map { "chp\($0)" })
        let tocs = tables(tag)
        #expect(tocs.keys.sorted() == ["part1", "part2", "toc"])
        let top = try #require(tocs["toc"])
        #expect(top.flags == 0x03)
        #expect(top.entries == ["part1", "chp4", "part2"])
        #expect(top.subFrames == [Frame(id: "TIT2", body: [0] + Array("Novel".utf8))])
        let one = try #require(tocs["part1"]), two = try #require(tocs["part2"])
        #expect(one.flags == 0x01 && two.flags == 0x01)  // ordered, not top-level
        #expect(one.entries == ["chp1", "chp2", "chp3"])
        #expect(two.entries == ["chp5", "chp6"])
        #expect(one.subFrames == [Frame(id: "TIT2", body: [0] + Array("Part One".utf8))])
        let utf16 = "Part Two — Ωmega".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(two.subFrames == [Frame(id: "TIT2", body: [1, 0xFF, 0xFE] + utf16)])
    }

    @Test func aPartTitleThatComesBackAfterAnotherIsANewPart() throws {
        let tag = ID3Tag(title: "B", chapters: ["A", "B", "A"].enumerated().map { .init(title: "c\($0.offset)", startMs: $0.offset, endMs: $0.offset + 1, part: $0.element) })
        let tocs = tables(tag)
        #expect(tocs["toc"]?.entries == ["part1", "part2", "part3"])
        #expect(tocs["part3"]?.entries == ["chp3"])
        #expect(tocs["part3"]?.subFrames == [Frame(id: "TIT2", body: [0] + Array("A".utf8))])
    }

    @Test func aPartOfMoreThan255ChaptersListsSubTablesOfAtMost255() throws {
        let marks: [ID3Tag.ChapterMark] = [.init(title: "Preface", startMs: 0, endMs: 10)]
            + (1...300).map { .init(title: "c\($0)", startMs: $0 * 10, endMs: $0 * 10 + 10, part: "Long Part") }
            + [.init(title: "Short", startMs: 3010, endMs: 3020, part: "Short Part")]
        let tag = ID3Tag(title: "Long", chapters: marks)
        #expect(tagFrames(tag).filter { $0.id == "CHAP" }.count == 302)
        let tocs = tables(tag)
        #expect(tocs.keys.sorted() == ["part1", "part1.1", "part1.2", "part2", "toc"])
        #expect(tocs["toc"]?.entries == ["chp1", "part1", "part2"])
        let long = try #require(tocs["part1"])
        #expect(long.flags == 0x01 && long.entries == ["part1.1", "part1.2"])
        #expect(long.subFrames == [Frame(id: "TIT2", body: [0] + Array("Long Part".utf8))])
        let first = try #require(tocs["part1.1"]), second = try #require(tocs["part1.2"])
        #expect(first.flags == 0x01 && second.flags == 0x01)
        #expect(first.entries == (2...256).map { "chp\($0)" })
        #expect(second.entries == (257...301).map { "chp\($0)" })
        #expect(first.subFrames.isEmpty && second.subFrames.isEmpty)
        #expect(tocs["part2"]?.entries == ["chp302"])
    }

    @Test func moreThan255TopLevelEntriesAreSplitAsWithoutParts() throws {
        let marks: [ID3Tag.ChapterMark] = (0..<300).map { .init(title: "c\($0)", startMs: $0, endMs: $0 + 1) }
            + [.init(title: "p", startMs: 300, endMs: 301, part: "Coda")]
        let tocs = tables(ID3Tag(title: "B", chapters: marks))
        #expect(tocs.keys.sorted() == ["part1", "toc", "toc1", "toc2"])
        #expect(tocs["toc"]?.entries == ["toc1", "toc2"] && tocs["toc"]?.flags == 0x03)
        #expect(tocs["toc1"]?.entries == (1...255).map { "chp\($0)" })
        #expect(tocs["toc2"]?.entries == (256...300).map { "chp\($0)" } + ["part1"])
        #expect(tocs["part1"]?.entries == ["chp301"])
    }

    /// Six seconds of tone, tagged with the two parts and the interlude, read back by mutagen,
    /// ffprobe and mp3val.
    @Test func realMP3ReadsBackWithPartsInMutagenAndAllChaptersInFFprobe() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stream = directory.appendingPathComponent("stream.mp3"), mp3 = directory.appendingPathComponent("book.mp3")
        let writer = try MP3StreamWriter(url: stream, sampleRate: 22050, settings: AudioSettings(bitrate: 64, quality: 3))
        try writer.write((0..<6 * 22050).map { Int16((sin(2 * Double.pi * 440 * Double($0) / 22050) * 16000).rounded()) })
        try writer.finish()
        try MP3BookAssembler.assemble(tag: ID3Tag(title: "Novel", artist: "A. Author", chapters: Self.chapters), stream: stream, output: mp3)

        let script = """
            import json, sys
            from mutagen.id3 import ID3
            tag = ID3(sys.argv[1])
            title = lambda frame: str(frame.sub_frames["TIT2"]) if "TIT2" in frame.sub_frames else None
            print(json.dumps({
                "tocs": {t.element_id: {"flags": int(t.flags), "children": t.child_element_ids, "title": title(t)} for t in tag.getall("CTOC")},
                "chapters": [[c.element_id, c.start_time, c.end_time, title(c)] for c in tag.getall("CHAP")],
            }))
            """
        let mutagen = try ExternalTool.run(ExternalTool.python, ["-c", script, mp3.path])
        #expect(mutagen.status == 0, "mutagen: \(mutagen.stderr)")
        let read = try #require(try JSONSerialization.jsonObject(with: Data(mutagen.stdout.utf8)) as? [String: Any])
        let tocs = try #require(read["tocs"] as? [String: [String: Any]])
        #expect(tocs.keys.sorted() == ["part1", "part2", "toc"])
        #expect(tocs["toc"]?["flags"] as? Int == 3)
        #expect(tocs["toc"]?["children"] as? [String] == ["part1", "chp4", "part2"])
        #expect(tocs["toc"]?["title"] as? String == "Novel")
        #expect(tocs["part1"]?["flags"] as? Int == 1)
        #expect(tocs["part1"]?["children"] as? [String] == ["chp1", "chp2", "chp3"])
        #expect(tocs["part1"]?["title"] as? String == "Part One")
        #expect(tocs["part2"]?["flags"] as? Int == 1)
        #expect(tocs["part2"]?["children"] as? [String] == ["chp5", "chp6"])
        #expect(tocs["part2"]?["title"] as? String == "Part Two — Ωmega")
        let chapters = try #require(read["chapters"] as? [[Any]])
        #expect(chapters.map { $0[0] as? String } == (1...6).map { "chp\($0)" })
        #expect(chapters.map { $0[3] as? String } == Self.chapters.map(\.title))
        #expect(chapters.map { $0[1] as? Int } == Self.chapters.map(\.startMs))

        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-of", "json", "-show_chapters", mp3.path])
        #expect(probe.status == 0 && probe.stderr.isEmpty, "ffprobe: \(probe.stderr)")
        let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let marks = try #require(probed["chapters"] as? [[String: Any]])
        #expect(marks.map { ($0["tags"] as? [String: Any])?["title"] as? String } == Self.chapters.map(\.title))
        #expect(marks.map { $0["start_time"] as? String } == ["0.000000", "1.000000", "2.000000", "3.000000", "4.000000", "5.000000"])
        #expect(marks.last?["end_time"] as? String == "6.000000")

        let mp3val = try ExternalTool.run("mp3val", [mp3.path])
        #expect(mp3val.status == 0)
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "mp3val: \(mp3val.stdout)")
    }
}
