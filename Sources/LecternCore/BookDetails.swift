import Foundation

/// What an audiobook app shows about a book besides its title and author: narrator, description,
/// genre, date, series, publisher, copyright and ISBN. The manifest's keys of the same names
/// give them; an EPUB's metadata (`dc:description`, `dc:subject`, `calibre:series` …) fills the
/// gaps (``filling(from:)``).
public struct BookDetails: Sendable, Equatable {
    /// Who reads the book (ID3 TCOM, EPUB `media:narrator`); nil: the speech engine.
    public var narrator: String?
    public var description: String?
    public var genre: String?
    /// The publication date as written: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    public var date: String?
    public var series: String?
    /// The book's place in its series (`1`, `2.5`).
    public var seriesIndex: String?
    public var publisher: String?
    public var copyright: String?
    /// The ISBN, digits (and a final `X`) only.
    public var isbn: String?
    /// The source document's own identifier (an EPUB's `dc:identifier`), kept as `dc:source` in
    /// the narrated EPUB, which gets an identifier of its own.
    public var sourceIdentifier: String?

    public init(narrator: String? = nil, description: String? = nil, genre: String? = nil, date: String? = nil,
                series: String? = nil, seriesIndex: String? = nil, publisher: String? = nil, copyright: String? = nil,
                isbn: String? = nil, sourceIdentifier: String? = nil) {
        self.narrator = narrator
        self.description = description
        self.genre = genre
        self.date = date
        self.series = series
        self.seriesIndex = seriesIndex
        self.publisher = publisher
        self.copyright = copyright
        self.isbn = isbn
        self.sourceIdentifier = sourceIdentifier
    }

    /// These details with the missing ones taken from `other`; a series index only comes along
    /// with its series.
    public func filling(from other: BookDetails) -> BookDetails {
        var d = self
        d.narrator = narrator ?? other.narrator
        d.description = description ?? other.description
        d.genre = genre ?? other.genre
        d.date = date ?? other.date
        if series == nil {
            d.series = other.series
            d.seriesIndex = seriesIndex ?? other.seriesIndex
        }
        d.publisher = publisher ?? other.publisher
        d.copyright = copyright ?? other.copyright
        d.isbn = isbn ?? other.isbn
        d.sourceIdentifier = sourceIdentifier ?? other.sourceIdentifier
        return d
    }

    /// The narrator named when the manifest names none: the speech engine.
    public static let speechEngineNarrator = "eSpeak NG (Lectern)"

    /// Every field, each with its length, for hashes of what decides a book's outputs.
    public var fingerprint: String {
        [narrator, description, genre, date, series, seriesIndex, publisher, copyright, isbn, sourceIdentifier]
            .map { $0.map { "\($0.utf8.count):\($0)" } ?? "-" }.joined(separator: "\n")
    }

    /// The year of ``date``.
    public var year: String? { date.map { String($0.prefix(4)) } }

    /// `date` when it is `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (a real month and day), else nil.
    public static func validDate(_ date: String) -> String? {
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && Int($0) != nil }) else { return nil }
        if parts.count >= 2 { guard parts[1].count == 2, (1...12).contains(Int(parts[1])!) else { return nil } }
        if parts.count == 3 { guard parts[2].count == 2, (1...31).contains(Int(parts[2])!) else { return nil } }
        return date
    }

    /// An EPUB or OPF date (`2001-05-12T00:00:00Z`, `1865`) cut to what ``validDate(_:)`` takes.
    public static func leadingDate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for length in [10, 7, 4] where trimmed.count >= length {
            if let d = validDate(String(trimmed.prefix(length))) { return d }
        }
        return nil
    }

    /// The ISBN in `text` (`978-0-14-143951-8`, `urn:isbn:0141439513`) as digits, when its
    /// check digit is right; nil for anything else.
    public static func isbn(_ text: String) -> String? {
        var t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["urn:isbn:", "isbn:", "isbn"] where t.lowercased().hasPrefix(prefix) { t = String(t.dropFirst(prefix.count)) }
        let chars = t.filter { $0 != "-" && $0 != " " }.uppercased()
        guard chars.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "X") }) else { return nil }
        let digits = chars.map { $0 == "X" ? 10 : Int(String($0))! }
        switch digits.count {
        case 10:
            guard !digits.dropLast().contains(10) else { return nil }
            let sum = digits.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
            return sum % 11 == 0 ? chars : nil
        case 13:
            guard !digits.contains(10), chars.hasPrefix("978") || chars.hasPrefix("979") else { return nil }
            let sum = digits.enumerated().reduce(0) { $0 + ($1.offset % 2 == 0 ? 1 : 3) * $1.element }
            return sum % 10 == 0 ? chars : nil
        default:
            return nil
        }
    }

    /// The ISO 639-2 code of a BCP 47 tag's language (`en-GB` → `eng`), as ID3 writes it, or nil.
    public static func iso639_2(_ tag: String?) -> String? {
        guard let tag = LanguageTag.meaningful(tag) else { return nil }
        let primary = LanguageTag.primary(tag)
        if primary.count == 3 { return primary }
        return Locale.LanguageCode(primary).identifier(.alpha3)
    }
}
