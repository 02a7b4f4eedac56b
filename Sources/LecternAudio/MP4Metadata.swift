import Foundation
import LecternCore

/// The iTunes metadata of an M4B (`moov/udta/meta/ilst`) and its Nero chapter list
/// (`moov/udta/chpl`), built from ``AudioMetadata`` as the atoms mutagen, ffprobe, AtomicParsley
/// and audiobook software read: each ``MetadataField`` in the atom ``atom(for:)`` names, `stik`
/// 2 (audiobook) and the cover (`covr`).
public enum MP4Metadata {
    /// Where each field goes: an ilst item (`©nam`, `trkn` …), an iTunes freeform item
    /// (`----:com.apple.iTunes:NAME`), or `mdhd` for the language, the audio track's
    /// ISO 639-2 code, which the muxer writes.
    public static func atom(for field: MetadataField) -> String {
        switch field {
        case .title: "©nam"
        case .album: "©alb"
        case .artist: "©ART"
        case .narrator: "©wrt"  // composer: where Audiobookshelf looks for the narrator
        case .description: "desc"
        case .genre: "©gen"
        case .date: "©day"
        case .publisher: "----:com.apple.iTunes:PUBLISHER"
        case .copyright: "cprt"
        case .language: "mdhd"
        case .series: "----:com.apple.iTunes:SERIES"
        case .seriesPart: "----:com.apple.iTunes:SERIES-PART"
        case .isbn: "----:com.apple.iTunes:ISBN"
        case .track: "trkn"
        }
    }

    /// The prefix of a freeform item's name in ``atom(for:)``.
    static let freeformPrefix = "----:com.apple.iTunes:"

    /// The `udta` box of `metadata`: the Nero chapter list when there are chapters, then `meta`.
    static func userData(_ metadata: AudioMetadata) -> Data {
        var children = Data()
        if !metadata.chapters.isEmpty { children += chapterList(metadata.chapters) }
        children += meta(metadata)
        return box("udta", children)
    }

    /// `meta` (a full box) with its `hdlr` (`mdir`, `appl`) and `ilst`.
    static func meta(_ metadata: AudioMetadata) -> Data {
        var hdlr = Data(count: 4)  // version, flags
        hdlr += Data(count: 4) + Data("mdir".utf8) + Data("appl".utf8) + Data(count: 8) + Data([0])
        return box("meta", Data(count: 4) + box("hdlr", hdlr) + itemList(metadata))
    }

    /// `ilst`: every field that has a value, `stik`, then `covr`.
    static func itemList(_ metadata: AudioMetadata) -> Data {
        var items = Data()
        for field in MetadataField.allCases {
            guard let value = metadata.value(of: field) else { continue }
            let name = atom(for: field)
            switch field {
            case .language: continue  // the track's mdhd
            case .track:
                guard let track = metadata.track else { continue }
                let number = UInt16(clamping: track.number), count = UInt16(clamping: track.count)
                items += item(name, type: 0, Data([0, 0]) + uint16(number) + uint16(count) + Data([0, 0]))
            default:
                if name.hasPrefix(freeformPrefix) {
                    items += freeform(String(name.dropFirst(freeformPrefix.count)), value)
                } else {
                    items += item(name, type: 1, Data(value.utf8))
                }
            }
        }
        items += item("stik", type: 21, Data([2]))  // audiobook
        if let cover = metadata.cover {
            items += item("covr", type: cover.mimeType.lowercased().hasSuffix("png") ? 14 : 13, cover.data)
        }
        return box("ilst", items)
    }

    /// An ilst item holding one `data` box: type (1 UTF-8, 0 binary, 13 JPEG, 14 PNG, 21 integer),
    /// a zero locale, the value.
    static func item(_ name: String, type: UInt32, _ value: Data) -> Data {
        box(name, dataBox(type: type, value))
    }

    /// `----` with `mean` (`com.apple.iTunes`), `name` and a UTF-8 `data`.
    static func freeform(_ name: String, _ value: String) -> Data {
        let mean = box("mean", Data(count: 4) + Data("com.apple.iTunes".utf8))
        let nameBox = box("name", Data(count: 4) + Data(name.utf8))
        return box("----", mean + nameBox + dataBox(type: 1, Data(value.utf8)))
    }

    static func dataBox(type: UInt32, _ value: Data) -> Data {
        box("data", uint32(type) + uint32(0) + value)
    }

    /// Nero's `chpl` (version 1): a count byte, then each chapter's start in 100 ns units and its
    /// title, at most 255 bytes cut at a character's boundary. It holds at most 255 chapters;
    /// the QuickTime chapter track holds them all.
    static func chapterList(_ chapters: [ID3Tag.ChapterMark]) -> Data {
        let listed = chapters.prefix(255)
        var body = Data([1, 0, 0, 0]) + Data(count: 4) + Data([UInt8(listed.count)])
        for chapter in listed {
            body += uint64(UInt64(max(0, chapter.startMs)) * 10_000)
            let title = Data(truncated(chapter.title, toBytes: 255).utf8)
            body += Data([UInt8(title.count)]) + title
        }
        return box("chpl", body)
    }

    /// The longest prefix of `text` whose UTF-8 has at most `limit` bytes, whole characters only.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let n = character.utf8.count
            if bytes + n > limit { break }
            result.append(character)
            bytes += n
        }
        return result
    }

    /// A box: 32-bit size, type (Latin-1, so `©` is the byte 0xA9), body.
    static func box(_ type: String, _ body: Data) -> Data {
        uint32(UInt32(clamping: 8 + body.count)) + fourCC(type) + body
    }

    static func fourCC(_ type: String) -> Data {
        Data(type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    }

    static func uint16(_ v: UInt16) -> Data { Data([UInt8(v >> 8), UInt8(v & 0xFF)]) }
    static func uint32(_ v: UInt32) -> Data { Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
    static func uint64(_ v: UInt64) -> Data { uint32(UInt32(v >> 32)) + uint32(UInt32(v & 0xFFFF_FFFF)) }
}
