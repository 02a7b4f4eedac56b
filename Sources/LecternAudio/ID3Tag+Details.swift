import Foundation
import LecternCore

extension ID3Tag {
    /// The frames of the book's details, as audiobook software reads them through ffprobe,
    /// mutagen or eyeD3: narrator as composer (TCOM), genre (TCON), year (TYER) and day (TDAT,
    /// `DDMM`), publisher (TPUB), language (TLAN, ISO 639-2), copyright (TCOP), the description
    /// as a comment without description (COMM, which ffprobe calls `comment`), and
    /// `TXXX:SERIES`, `TXXX:SERIES-PART` and `TXXX:ISBN` (ffprobe's `series`, `series-part` and
    /// `isbn`, the names audiobookshelf looks for).
    func detailFrames() -> Data {
        var frames = Data()
        let code = BookDetails.iso639_2(language)
        if let narrator = details.narrator { frames += Self.textFrame("TCOM", narrator) }
        if let genre = details.genre { frames += Self.textFrame("TCON", Self.genreText(genre)) }
        if let date = details.date {
            frames += Self.textFrame("TYER", String(date.prefix(4)))
            let parts = date.split(separator: "-")
            if parts.count == 3 { frames += Self.textFrame("TDAT", "\(parts[2])\(parts[1])") }
        }
        if let publisher = details.publisher { frames += Self.textFrame("TPUB", publisher) }
        if let code { frames += Self.textFrame("TLAN", code) }
        if let copyright = details.copyright { frames += Self.textFrame("TCOP", copyright) }
        if let description = details.description { frames += Self.comment(description, language: code ?? "und") }
        if let series = details.series {
            frames += Self.userText("SERIES", series)
            if let index = details.seriesIndex { frames += Self.userText("SERIES-PART", index) }
        }
        if let isbn = details.isbn { frames += Self.userText("ISBN", isbn) }
        return frames
    }

    /// A genre as TCON text: one that starts with a parenthesis would be read as an ID3v1 genre
    /// reference, so it gets the escape ID3v2.3 defines (a doubled parenthesis).
    static func genreText(_ genre: String) -> String {
        if genre.hasPrefix("(") { return "(" + genre }
        return genre
    }

    /// A COMM frame: encoding, a 3-letter language, an empty short description, the text.
    static func comment(_ text: String, language: String) -> Data {
        let encoding = textEncoding(text)
        var body = Data([encoding]) + Data(language.prefix(3).utf8)
        body += encode("", encoding, terminated: true)
        body += encode(text, encoding, terminated: false)
        return frame("COMM", body)
    }

    /// A TXXX frame: encoding, description, value.
    static func userText(_ description: String, _ value: String) -> Data {
        let encoding = textEncoding(description, value)
        return frame("TXXX", Data([encoding]) + encode(description, encoding, terminated: true) + encode(value, encoding, terminated: false))
    }
}
