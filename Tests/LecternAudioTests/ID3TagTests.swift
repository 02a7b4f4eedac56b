import Foundation
import Testing
import LecternAudio

/// One ID3v2.3 frame: 4-byte id, 32-bit big-endian size, 2 flag bytes, body.
struct Frame: Equatable {
    var id: String
    var body: [UInt8]
}

/// Splits a run of frames (a tag's payload or a CHAP/CTOC's embedded frames).
func frames(_ bytes: ArraySlice<UInt8>) -> [Frame] {
    var result: [Frame] = []
    var i = bytes.startIndex
    while i + 10 <= bytes.endIndex {
        let id = String(decoding: bytes[i..<i + 4], as: UTF8.self)
        let size = bytes[i + 4..<i + 8].reduce(0) { $0 << 8 | Int($1) }
        #expect(bytes[i + 8] == 0 && bytes[i + 9] == 0, "flags of \(id)")
        guard i + 10 + size <= bytes.endIndex else { Issue.record("frame \(id) overruns the tag"); break }
        result.append(Frame(id: id, body: Array(bytes[i + 10..<i + 10 + size])))
        i += 10 + size
    }
    #expect(i == bytes.endIndex, "trailing bytes after the frames")
    return result
}

/// Checks the 10-byte header and returns the frames of a whole tag.
func tagFrames(_ tag: ID3Tag) -> [Frame] {
    guard let encoded = try? tag.encoded() else { Issue.record("the tag could not be encoded"); return [] }
    let bytes = [UInt8](encoded)
    #expect(Array(bytes[0..<3]) == Array("ID3".utf8))
    #expect(Array(bytes[3..<6]) == [3, 0, 0])
    #expect(bytes[6..<10].allSatisfy { $0 < 0x80 }, "size is syncsafe")
    let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
    #expect(size == bytes.count - 10)
    // The frames end where the padding (zero bytes, no frame id) begins.
    var end = 10
    while end + 10 <= bytes.count, bytes[end] != 0 { end += 10 + be32(bytes[end + 4..<end + 8]) }
    #expect(bytes[end...].allSatisfy { $0 == 0 }, "the padding is zero bytes")
    #expect(bytes.count - end == tag.padding, "padding of \(tag.padding) bytes")
    return frames(bytes[10..<end])
}

/// A NUL-terminated Latin-1 string at the start of `bytes`, and the rest.
func cString(_ bytes: [UInt8]) -> (String, [UInt8]) {
    let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
    return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[min(end + 1, bytes.count)...]))
}

func be32(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }

@Suite struct ID3TagTests {
    @Test func minimalTagIsExactlyHeaderAndOneLatin1TitleFrame() throws {
        let bytes = [UInt8](try ID3Tag(title: "Book", padding: 0).encoded())
        #expect(bytes == [0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 15,
                          0x54, 0x49, 0x54, 0x32, 0, 0, 0, 5, 0, 0,
                          0, 0x42, 0x6F, 0x6F, 0x6B])
    }

    @Test func sizeAboveSevenBitsIsSyncsafe() throws {
        // TIT2 "T" (10 + 2 bytes) + APIC: 1 + "image/png" 9 + 1 + 1 + 1 + 1000 = 1013 body, 1023 with header → 1035 = 8 × 128 + 11.
        let tag = ID3Tag(title: "T", cover: .init(mimeType: "image/png", data: Data(repeating: 0xAB, count: 1000)), padding: 0)
        let bytes = [UInt8](try tag.encoded())
        #expect(Array(bytes[6..<10]) == [0, 0, 8, 11])
        #expect(bytes.count == 1045)
        let apic = tagFrames(tag)[1]
        #expect(apic.id == "APIC")
        #expect(Array(apic.body[0..<13]) == [0] + Array("image/png".utf8) + [0, 3, 0])
        #expect(apic.body.count == 1013)
    }

    @Test func framesComeInOrderTitleArtistAlbumChaptersTable() {
        let tag = ID3Tag(title: "B", artist: "A", album: "L", chapters: [.init(title: "c", startMs: 0, endMs: 1)])
        #expect(tagFrames(tag).map(\.id) == ["TIT2", "TPE1", "TALB", "CHAP", "CTOC"])
        #expect(tagFrames(ID3Tag(title: "B")).map(\.id) == ["TIT2"])
    }

    @Test func chapterFramesCarryIdsAndBigEndianMillisecondTimes() {
        let tag = ID3Tag(title: "Book", chapters: [
            .init(title: "One", startMs: 0, endMs: 1500),
            .init(title: "Two", startMs: 1500, endMs: 70_000),
        ])
        let chaps = tagFrames(tag).filter { $0.id == "CHAP" }
        #expect(chaps.count == 2)
        let (id, rest) = cString(chaps[1].body)
        #expect(id == "chp2")
        #expect(Array(rest[0..<4]) == [0x00, 0x00, 0x05, 0xDC])   // 1500
        #expect(Array(rest[4..<8]) == [0x00, 0x01, 0x11, 0x70])   // 70000
        #expect(Array(rest[8..<16]) == [UInt8](repeating: 0xFF, count: 8))  // byte offsets unused
        #expect(frames(rest[16...]) == [Frame(id: "TIT2", body: [0] + Array("Two".utf8))])
        let (firstID, firstRest) = cString(chaps[0].body)
        #expect(firstID == "chp1")
        #expect(be32(firstRest[0..<4]) == 0 && be32(firstRest[4..<8]) == 1500)
    }

    @Test func tableOfContentsIsTopLevelOrderedAndListsEveryChapter() throws {
        let tag = ID3Tag(title: "Book", chapters: (1...3).map { .init(title: "C\($0)", startMs: $0 * 1000, endMs: $0 * 1000 + 1000) })
        let toc = try #require(tagFrames(tag).last)
        #expect(toc.id == "CTOC")
        let (id, rest) = cString(toc.body)
        #expect(id == "toc")
        #expect(rest[0] == 0x03)  // top-level and ordered
        #expect(rest[1] == 3)
        var entries: [String] = []
        var tail = Array(rest[2...])
        for _ in 0..<3 { let (e, r) = cString(tail); entries.append(e); tail = r }
        #expect(entries == ["chp1", "chp2", "chp3"])
        #expect(frames(tail[...]) == [Frame(id: "TIT2", body: [0] + Array("Book".utf8))])
    }

    @Test func latin1TitlesStayLatin1AndOthersUseUTF16WithAByteOrderMark() {
        let latin = tagFrames(ID3Tag(title: "Café")).first
        #expect(latin?.body == [0, 0x43, 0x61, 0x66, 0xE9])
        let greek = tagFrames(ID3Tag(title: "Ω é")).first
        #expect(greek?.body == [1, 0xFF, 0xFE, 0xA9, 0x03, 0x20, 0x00, 0xE9, 0x00])
        // Outside the BMP: a surrogate pair, little-endian.
        let clef = tagFrames(ID3Tag(title: "\u{1D11E}")).first
        #expect(clef?.body == [1, 0xFF, 0xFE, 0x34, 0xD8, 0x1E, 0xDD])
    }

    @Test func chapterTitlesOutsideLatin1AreUTF16Too() throws {
        let tag = ID3Tag(title: "B", chapters: [.init(title: "東", startMs: 0, endMs: 10)])
        let chap = try #require(tagFrames(tag).first { $0.id == "CHAP" })
        let (_, rest) = cString(chap.body)
        #expect(frames(rest[16...]) == [Frame(id: "TIT2", body: [1, 0xFF, 0xFE, 0x71, 0x67])])  // U+6771
    }

    @Test func exactly255ChaptersFitOneTable() throws {
        let tag = ID3Tag(title: "B", chapters: (0..<255).map { .init(title: "c\($0)", startMs: $0, endMs: $0 + 1) })
        let tocs = tagFrames(tag).filter { $0.id == "CTOC" }
        #expect(tocs.count == 1)
        let (_, rest) = cString(try #require(tocs.first).body)
        #expect(rest[0] == 0x03 && rest[1] == 255)
    }

    @Test func moreThan255ChaptersAreSplitIntoNestedTables() throws {
        let tag = ID3Tag(title: "Long", chapters: (0..<300).map { .init(title: "c\($0)", startMs: $0 * 10, endMs: $0 * 10 + 10) })
        let all = tagFrames(tag)
        #expect(all.filter { $0.id == "CHAP" }.count == 300)
        let tocs = all.filter { $0.id == "CTOC" }
        #expect(tocs.count == 3)
        var tables: [String: (flags: UInt8, entries: [String], rest: [UInt8])] = [:]
        for toc in tocs {
            let (id, rest) = cString(toc.body)
            var entries: [String] = []
            var tail = Array(rest[2...])
            for _ in 0..<Int(rest[1]) { let (e, r) = cString(tail); entries.append(e); tail = r }
            tables[id] = (rest[0], entries, tail)
        }
        let top = try #require(tables["toc"])
        #expect(top.flags == 0x03)
        #expect(top.entries == ["toc1", "toc2"])
        #expect(frames(top.rest[...]).map(\.id) == ["TIT2"])
        let first = try #require(tables["toc1"]), second = try #require(tables["toc2"])
        #expect(first.flags == 0x01 && second.flags == 0x01)  // ordered, not top-level
        #expect(first.entries == (1...255).map { "chp\($0)" })
        #expect(second.entries == (256...300).map { "chp\($0)" })
        #expect(first.rest.isEmpty && second.rest.isEmpty)
    }
}
