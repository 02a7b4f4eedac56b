import Foundation
import LecternCore

/// A book's metadata as Vorbis comments (the tags of an Ogg Opus file): one comment per
/// ``MetadataField`` that has a value, named as Audiobookshelf, ffprobe and mutagen read them,
/// then the chapters by the Vorbis chapter extension (`CHAPTER001=00:01:02.345`,
/// `CHAPTER001NAME=Title`). The cover is not a text comment: ``OpusWriter`` adds it as a
/// `METADATA_BLOCK_PICTURE`.
public struct VorbisComments: Sendable, Equatable {
    /// One `NAME=value` comment.
    public struct Comment: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// In order: the fields in ``MetadataField`` order (track as TRACKNUMBER and TRACKTOTAL),
    /// then each chapter's start and name.
    public var comments: [Comment]

    /// The comment after TRACKNUMBER: the number of the book's files.
    public static let trackTotal = "TRACKTOTAL"

    public init(_ metadata: AudioMetadata) {
        var comments: [Comment] = []
        for field in MetadataField.allCases {
            if field == .track {
                if let track = metadata.track {
                    comments.append(Comment(Self.name(for: .track), String(track.number)))
                    comments.append(Comment(Self.trackTotal, String(track.count)))
                }
            } else if let value = metadata.value(of: field), !value.isEmpty {
                comments.append(Comment(Self.name(for: field), value))
            }
        }
        for (index, chapter) in metadata.chapters.enumerated() {
            let key = Self.chapterKey(index + 1)
            comments.append(Comment(key, Self.timestamp(ms: chapter.startMs)))
            comments.append(Comment(key + "NAME", chapter.title))
        }
        self.comments = comments
    }

    /// The comment that holds each field. The narrator goes in COMPOSER alone: it is the tag
    /// Audiobookshelf reads a narrator from (as from ID3's TCOM); it reads no PERFORMER.
    public static func name(for field: MetadataField) -> String {
        switch field {
        case .title: "TITLE"
        case .album: "ALBUM"
        case .artist: "ARTIST"
        case .narrator: "COMPOSER"
        case .description: "DESCRIPTION"
        case .genre: "GENRE"
        case .date: "DATE"
        case .publisher: "PUBLISHER"
        case .copyright: "COPYRIGHT"
        case .language: "LANGUAGE"
        case .series: "SERIES"
        case .seriesPart: "SERIES-PART"
        case .isbn: "ISBN"
        case .track: "TRACKNUMBER"
        }
    }

    /// `CHAPTER` and the chapter's number (from 1) in at least three digits: `CHAPTER001`. The
    /// extension counts to 999 and ffmpeg reads no more; a longer book's later chapters are
    /// numbered in as many digits as they need (`CHAPTER1000`), which leaves the first 999 readable.
    static func chapterKey(_ number: Int) -> String {
        let digits = String(number)
        return "CHAPTER" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// `HH:MM:SS.mmm`, hours in at least two digits.
    static func timestamp(ms: Int) -> String {
        let ms = max(0, ms)
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, millis = ms % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
    }
}
