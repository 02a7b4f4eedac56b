import Foundation
import LecternCore

/// What every audio file of a book says about it (distinct from ``LecternCore/AudioMetadata``, what its documents say), built once per run and written by each
/// format's writer: ID3 (``ID3Tag``), MP4 atoms (``MP4Metadata``) and Vorbis comments
/// (``VorbisComments``). Each writer maps every ``MetadataField`` by an exhaustive switch, so no
/// field can be present in one format and forgotten in another.
public struct AudioMetadata: Sendable {
    public var title: String
    /// The author.
    public var artist: String?
    /// The book's title, for a chapter file of a split book as for the book.
    public var album: String?
    public var details: BookDetails
    /// The book's BCP 47 language.
    public var language: String?
    public var cover: ID3Tag.Picture?
    /// Times in milliseconds from the start of the decoded audio; empty in a chapter file.
    public var chapters: [ID3Tag.ChapterMark]
    /// The file's place among the book's files: a chapter of a split book.
    public var track: (number: Int, count: Int)?

    public init(title: String, artist: String? = nil, album: String? = nil, details: BookDetails = BookDetails(),
                language: String? = nil, cover: ID3Tag.Picture? = nil, chapters: [ID3Tag.ChapterMark] = [],
                track: (number: Int, count: Int)? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.details = details
        self.language = language
        self.cover = cover
        self.chapters = chapters
        self.track = track
    }

    /// The value of a text field, as a person would read it (`date` as given, `track` as `n/N`,
    /// `language` as its ISO 639-2 code).
    public func value(of field: MetadataField) -> String? {
        switch field {
        case .title: title
        case .album: album
        case .artist: artist
        case .narrator: details.narrator
        case .description: details.description
        case .genre: details.genre
        case .date: details.date
        case .publisher: details.publisher
        case .copyright: details.copyright
        case .language: BookDetails.iso639_2(language)
        case .series: details.series
        case .seriesPart: details.series == nil ? nil : details.seriesIndex
        case .isbn: details.isbn
        case .track: track.map { "\($0.number)/\($0.count)" }
        }
    }

    /// This book's metadata for one chapter file of a split book: the chapter's title, the book
    /// as album, track n of N, no chapter marks.
    public func chapterFile(title chapterTitle: String, number: Int, of count: Int) -> AudioMetadata {
        var m = self
        m.title = chapterTitle
        m.album = album ?? title
        m.chapters = []
        m.track = (number, count)
        return m
    }
}

/// A text field of ``AudioMetadata``; every format's writer names where each one goes.
public enum MetadataField: String, CaseIterable, Sendable {
    case title, album, artist, narrator, description, genre, date, publisher, copyright, language, series, seriesPart, isbn, track
}

extension ID3Tag {
    /// The ID3 tag of `metadata`.
    public init(_ metadata: AudioMetadata, padding: Int = ID3Tag.defaultPadding) {
        self.init(title: metadata.title, artist: metadata.artist, album: metadata.album, cover: metadata.cover,
                  chapters: metadata.chapters, details: metadata.details, language: metadata.language, padding: padding)
        track = metadata.track
    }

    /// The frame that holds each field (a `TXXX:` frame by its description).
    public static func frame(for field: MetadataField) -> String {
        switch field {
        case .title: "TIT2"
        case .album: "TALB"
        case .artist: "TPE1"
        case .narrator: "TCOM"
        case .description: "COMM"
        case .genre: "TCON"
        case .date: "TYER"
        case .publisher: "TPUB"
        case .copyright: "TCOP"
        case .language: "TLAN"
        case .series: "TXXX:SERIES"
        case .seriesPart: "TXXX:SERIES-PART"
        case .isbn: "TXXX:ISBN"
        case .track: "TRCK"
        }
    }
}
