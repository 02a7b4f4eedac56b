import Foundation

/// A publisher's advertisements after the last `THE END`: what a catalogue page says of itself,
/// not a fit to one book. Evidence:
/// - a catalogue heading: `BY THE SAME AUTHOR`, `WORKS BY …`, `SMITH AND SONS' NEW NOVELS`, `UNIFORM WITH THIS VOLUME`,
///   `OPINIONS OF THE PRESS`, `NOW READY`;
/// - a listing: a price (`3s. 6d.`, `$1.50`), a book's format (`Crown 8vo`, `cloth gilt`, `2 Vols.`,
///   `With 40 Illustrations`, `New Edition`), a press notice (`"…"—_Times._`), a title and its author
///   (`THE LOST HEIR. By John Smith.`).
///
/// The rest of the book is advertisements from the first catalogue heading or price (with the listings
/// right before it); without one, from the first listing after which at least two paragraphs, and half
/// of them, are listings.
/// What comes before it after `THE END` (an afterword, a postscript, notes) is read.
enum Advertisements {
    static let catalogueHeading = LinePattern(
        #"^\W*(?:(?:[\w&.,]+\s+){0,4}[\w&.]+['’]s?['’]?\s+)?(?:(?:(?:other|recent|popular|new|standard|select|uniform)\s+)?(?:works|books|novels|stories|publications|writings)\s+(?:by|of)\s+\w|(?:[\w'’-]+\s+){1,3}(?:stories|novels|books|tales|romances)\s+by\s+(?!the\b)\w|(?:also\s+)?by\s+the\s+same\s+(?:author|writer|authoress)|(?:new|recent|popular|standard|choice|important|select|cheap)\s+(?:and\s+\w+\s+)?(?:novels|books|works|fiction|publications|stories|editions)\b|uniform\s+with\s+this\s+(?:volume|edition|series|work)|(?:press\s+notices|opinions\s+of\s+the\s+press|notices\s+of\s+the\s+press|publishers?['’]?s?['’]?\s+announcements?|(?:a\s+)?(?:list|catalogue)\s+of\s+(?:new\s+)?(?:books|works|publications)|catalogue|advertisements?|now\s+ready|in\s+preparation|just\s+published|in\s+the\s+press)\b)"#,
        caseInsensitive: true)
    /// A book's size and binding, volumes, illustrations, editions.
    static let format = LinePattern(
        #"\b\d*(?:8vo|12mo|16mo|18mo|24mo|32mo|4to)\b|\b(?:cloth|buckram)(?:\s+(?:gilt|extra|boards|elegant|limp|bevelled)\b|,|\.?$)|\bin\s+(?:cloth|buckram)\b|\b(?:half[- ](?:bound|calf|morocco)|paper\s+covers|gilt\s+(?:top|edges))\b|\b\d+\s+[Vv]ols?\b|\b[Vv]ols?\.\s*(?:[IVX]+|\d)|\b(?:[Ww]ith|[Cc]ontaining)\s+(?:\d+|numerous|many|full-page|coloured|colored|eight|sixteen|twelve)\s+(?:[A-Za-z-]+\s+)?(?:[Ii]llustrations|[Pp]lates|[Ee]ngravings|[Mm]aps|[Pp]ortraits)\b|\b[Ii]llustrated\s+by\b|\b(?:[Nn]ew|[Ss]econd|[Tt]hird|[Cc]heap|[Pp]opular|[Ll]ibrary|[Rr]evised|[Uu]niform|\d+(?:st|nd|rd|th))\s+[Ee]dition\b"#)
    /// A press notice's attribution closing a paragraph: `—_Times._`, `--Saturday Review.`, `— The Athenæum.`;
    /// the name in italics or a periodical's (an epigraph's `--Tennyson.` is no notice).
    static let pressNotice = LinePattern(#"(?:—|--|―)\s*_?(?:The\s+)?[A-Z][\w'’&.]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'’&.]*){0,3}_?[.,]?_?\s*$"#)
    static let periodical = LinePattern(
        #"(?:—|--|―)\s*_|\b(?:Review|Times|Magazine|Journal|Gazette|News|Post|Chronicle|Herald|Spectator|Athen(?:ae|æ)um|Academy|Punch|Standard|Observer|Telegraph|Mail|Globe|World|Examiner|Guardian|Record|Mercury|Courier|Tribune|Quarterly|Monthly|Weekly|Daily)\b"#)
    /// `THE LOST HEIR. By John Smith.`: a title in capitals and its author.
    static let titleBy = LinePattern(#"^\W*[A-Z][A-Z'’ ,&-]{3,}[.,]\s+(?:[Bb]y|[Ee]dited\s+by)\s+[A-Z]"#)

    /// A heading that may follow `THE END` without reopening the story: `POSTSCRIPT`, `AFTERWORD`, `APPENDIX`, `NOTES`.
    static let afterword = LinePattern(#"^\W*(?:postscript|afterword|appendix|notes?|l['’]envoi)\b"#, caseInsensitive: true)

    /// Whether a heading after `THE END` leaves it the book's end: a catalogue's heading or an afterword's.
    static func keepsTheEnd(_ heading: String) -> Bool {
        afterword.matches(TextLines.trim(heading)) || isCatalogueHeading(heading) || isListing(heading)
    }

    /// Whether `text` is a short paragraph quoting a price (a long one mentions money in passing).
    static func isPriced(_ text: String) -> Bool {
        TextLines.wordCount(text) <= 40 && BackMatter.price.matches(TextLines.collapse(text))
    }

    /// Whether `text`, a whole paragraph, is a catalogue heading.
    static func isCatalogueHeading(_ text: String) -> Bool {
        TextLines.wordCount(text) <= 12 && catalogueHeading.matches(TextLines.collapse(text))
    }

    /// Whether `text`, a whole paragraph, lists a book for sale or quotes a notice of one.
    static func isListing(_ text: String) -> Bool {
        let flat = TextLines.collapse(text)
        if BackMatter.price.matches(flat) || format.matches(flat) || titleBy.matches(flat) { return true }
        guard flat.contains(where: { "\"“”'’".contains($0) }), let m = pressNotice.firstMatch(flat) else { return false }
        return periodical.matches((flat as NSString).substring(from: m.range.location))
    }

    /// The index from which `pieces` (what follows `THE END`) are advertisements, if they are.
    static func start(in pieces: ArraySlice<StructurePiece>) -> Int? {
        let texts: [(index: Int, text: String)] = pieces.indices.compactMap { k in
            switch pieces[k] {
            case .paragraph(let lines, _), .heading(let lines, _, _): (k, lines.joined(separator: " "))
            default: nil
            }
        }
        let listing = texts.map { isListing($0.text) }
        // From the first catalogue heading or price, with the listings right before it …
        if var s = texts.indices.first(where: { isCatalogueHeading(texts[$0].text) || isPriced(texts[$0].text) }) {
            while s > 0, listing[s - 1] { s -= 1 }
            if isAdCopy(texts[..<s].map { (text: $0.text, isHeading: pieces[$0.index].isHeading) }) { s = 0 }
            return texts[s].index
        }
        // … or from the first listing after which at least two paragraphs, and half of them, are listings.
        var start: Int?
        for s in texts.indices where listing[s] {
            let listings = (s..<texts.count).filter { listing[$0] }.count
            if listings >= 2, listings * 2 >= texts.count - s {
                start = s
                break
            }
        }
        if let start { return texts[start].index }
        return nil
    }

    /// Words of a publisher's note on its list (`More stories of the sort you like … on the reverse side of
    /// the wrapper`, `write to the publishers for a complete catalog`).
    static let bookTrade = LinePattern(
        #"\b(?:books?|titles|authors?['’]?|publishers?['’]?|catalog(?:ue)?s?|wrappers?|lists?|fiction|novels|editions?|booksellers?|volumes?)\b"#,
        caseInsensitive: true)

    /// Whether the paragraphs between `THE END` and the first catalogue heading are the publisher's note on
    /// the catalogue: no heading among them, at most eight short paragraphs (80 words each, 300 in all),
    /// half of them or more speaking of books for sale.
    static func isAdCopy(_ gap: [(text: String, isHeading: Bool)]) -> Bool {
        guard !gap.isEmpty, gap.count <= 8, !gap.contains(where: { $0.isHeading }) else { return false }
        let words = gap.map { TextLines.wordCount($0.text) }
        guard words.allSatisfy({ $0 <= 80 }), words.reduce(0, +) <= 300 else { return false }
        return gap.filter { bookTrade.matches(TextLines.collapse($0.text)) }.count * 2 >= gap.count
    }
}
