import Foundation
import LecternCore

/// An ID3v2.3 tag with the frames an audiobook needs: title (TIT2), artist (TPE1), album (TALB),
/// the book's details as audiobook software reads them (``ID3Tag+Details``), an optional cover
/// (APIC), one CHAP frame per chapter and a CTOC that lists them in order, with a titled CTOC per
/// part when the book has parts (the ID3v2 Chapter Frame Addendum, as read by ffprobe, mutagen
/// and podcast players), and then ``padding`` so that a tag editor can change the tag in place.
public struct ID3Tag: Sendable {
    /// A chapter mark: times in milliseconds from the start of the decoded audio.
    public struct ChapterMark: Sendable, Equatable {
        public var title: String
        public var startMs: Int
        public var endMs: Int
        /// The title of the part the chapter belongs to, or nil; consecutive chapters with the
        /// same part form that part.
        public var part: String?
        public init(title: String, startMs: Int, endMs: Int, part: String? = nil) {
            self.title = title
            self.startMs = startMs
            self.endMs = endMs
            self.part = part
        }
    }

    /// An embedded picture.
    public struct Picture: Sendable {
        public var mimeType: String
        public var data: Data
        public init(mimeType: String, data: Data) {
            self.mimeType = mimeType
            self.data = data
        }
    }

    public var title: String
    public var artist: String?
    public var album: String?
    public var cover: Picture?
    public var chapters: [ChapterMark]
    /// Narrator (TCOM), description (COMM), genre (TCON), date (TYER, TDAT), publisher (TPUB),
    /// copyright (TCOP), series and ISBN (TXXX).
    public var details: BookDetails
    /// The book's BCP 47 language, written as its ISO 639-2 code (TLAN, and COMM's language).
    public var language: String?
    /// Zero bytes after the frames, which tag editors fill instead of rewriting the whole file.
    public var padding: Int
    /// The file's place among the book's files (TRCK `n/N`): a chapter of a split book.
    public var track: (number: Int, count: Int)?

    /// The padding a book's tag gets: room for a few more frames or a longer description.
    public static let defaultPadding = 4096

    public init(title: String, artist: String? = nil, album: String? = nil, cover: Picture? = nil, chapters: [ChapterMark] = [],
                details: BookDetails = BookDetails(), language: String? = nil, padding: Int = ID3Tag.defaultPadding) {
        self.title = title
        self.artist = artist
        self.album = album
        self.cover = cover
        self.chapters = chapters
        self.details = details
        self.language = language
        self.padding = padding
    }

    /// CTOC frames count their entries in one byte, so a table lists at most this many.
    static let maxEntriesPerTOC = 255

    /// The most bytes of frames a tag can hold: its header gives their size in 28 bits
    /// (synchsafe), so 256 MB less one byte. A longer tag's size would wrap and players would
    /// read the audio as tag and the tag as audio.
    public static let maxFrameBytes = (1 << 28) - 1

    /// The tag's bytes: a 10-byte header, the frames and ``padding`` zero bytes.
    /// - throws: ``AudioError`` when the frames would not fit ``maxFrameBytes`` (a huge cover).
    public func encoded() throws -> Data {
        if let cover, cover.data.count > Self.maxFrameBytes { throw tooLarge(cover.data.count) }  // before copying it
        var frames = Data()
        frames += Self.textFrame("TIT2", title)
        if let artist { frames += Self.textFrame("TPE1", artist) }
        if let album { frames += Self.textFrame("TALB", album) }
        if let track { frames += Self.textFrame("TRCK", "\(track.number)/\(track.count)") }
        frames += detailFrames()
        if let cover {
            var body = Data([0])  // ISO-8859-1 description
            body += Data(cover.mimeType.utf8) + Data([0])
            body += Data([3])  // front cover
            body += Data([0])  // empty description
            body += cover.data
            frames += Self.frame("APIC", body)
        }
        if !chapters.isEmpty {
            let ids = chapters.indices.map { "chp\($0 + 1)" }
            for (id, chapter) in zip(ids, chapters) {
                var body = Data(id.utf8) + Data([0])
                body += Self.uint32(chapter.startMs) + Self.uint32(chapter.endMs)
                body += Self.uint32(0xFFFF_FFFF) + Self.uint32(0xFFFF_FFFF)  // byte offsets unused
                body += Self.textFrame("TIT2", chapter.title)
                frames += Self.frame("CHAP", body)
            }
            frames += Self.tablesOfContents(chapterIDs: ids, parts: chapters.map(\.part), title: title)
        }
        let padding = max(0, min(padding, Self.maxFrameBytes - frames.count))
        guard frames.count <= Self.maxFrameBytes else { throw tooLarge(frames.count) }
        var header = Data("ID3".utf8) + Data([3, 0, 0])  // v2.3.0, no flags
        header += Self.syncsafe(frames.count + padding)
        return header + frames + Data(count: padding)
    }

    private func tooLarge(_ bytes: Int) -> AudioError {
        AudioError("the ID3 tag would hold \(bytes) bytes (its cover \(cover?.data.count ?? 0)), over ID3v2's limit of "
                   + "\(Self.maxFrameBytes); use a smaller cover")
    }

    /// A text frame: ISO-8859-1 when the text fits, else UTF-16 with a byte-order mark (v2.3 has no UTF-8).
    static func textFrame(_ id: String, _ text: String) -> Data {
        let encoding = textEncoding(text)
        return frame(id, Data([encoding]) + encode(text, encoding, terminated: false))
    }

    /// The encoding byte for `strings`: 0 (ISO-8859-1) when all fit, else 1 (UTF-16 with BOM).
    static func textEncoding(_ strings: String...) -> UInt8 {
        strings.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x100 } } ? 0 : 1
    }

    /// A string in encoding 0 or 1, with its terminator (one or two zero bytes) if asked.
    static func encode(_ text: String, _ encoding: UInt8, terminated: Bool) -> Data {
        if encoding == 0 {
            return Data(text.unicodeScalars.map { UInt8($0.value) }) + (terminated ? Data([0]) : Data())
        }
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data += Data([UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        return data + (terminated ? Data([0, 0]) : Data())
    }

    static func frame(_ id: String, _ body: Data) -> Data {
        Data(id.utf8) + uint32(body.count) + Data([0, 0]) + body
    }

    static func uint32(_ value: Int) -> Data {
        let v = UInt32(truncatingIfNeeded: value)
        return Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)])
    }

    static func syncsafe(_ value: Int) -> Data {
        Data([UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)])
    }
}
