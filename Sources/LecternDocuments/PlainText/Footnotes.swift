import Foundation
import LecternCore

/// Footnote bodies: a paragraph starting with a label (`[1] The strength of…`, `[4a] …` (a note
/// added between 4 and 5), `{2} I should…`, `[*] …`), a bracketed `[Footnote 1: …]` (possibly over several paragraphs), or, inside a
/// `FOOTNOTES` section, a paragraph starting with a number (`1. …`).
enum Footnotes {
    /// A body's label: the note id, and the label as written (not spoken, accounted as "footnote label").
    struct Label: Equatable {
        var id: String
        var label: String
        /// The text after the label on the first line.
        var rest: String
        /// True for `[Footnote 1: …]`, which ends at its closing bracket.
        var bracketed: Bool
    }

    static let plain = LinePattern(#"^(\[(\d{1,3}[a-z]?|\*{1,3}|†)\]|\{(\d{1,3}|\*{1,3}|†)\})\s*(\S.*)$"#)
    static let bracketed = LinePattern(#"^(\[(?:Footnote|Note|FOOTNOTE)\s+([0-9A-Za-z*†]{1,4})\s*:)\s*(.*)$"#)
    static let numbered = LinePattern(#"^((\d{1,3})[.)]?)\s+(\S.*)$"#)
    static let heading = LinePattern(#"^(FOOTNOTES?|Footnotes?|NOTES|Notes|ENDNOTES|End ?[Nn]otes)\s*[.:]?$"#)

    static func label(of line: String, inFootnotesSection: Bool) -> Label? {
        let t = TextLines.trim(line)
        guard let first = t.first, first == "[" || first == "{" || (inFootnotesSection && first.isNumber) else { return nil }
        if let m = bracketed.firstMatch(t) {
            return Label(id: sub(t, m, 2), label: sub(t, m, 1), rest: sub(t, m, 3), bracketed: true)
        }
        if let m = plain.firstMatch(t) {
            let id = m.range(at: 2).location != NSNotFound ? sub(t, m, 2) : sub(t, m, 3)
            return Label(id: id, label: sub(t, m, 1), rest: sub(t, m, 4), bracketed: false)
        }
        if inFootnotesSection, let m = numbered.firstMatch(t) {
            return Label(id: sub(t, m, 2), label: sub(t, m, 1), rest: sub(t, m, 3), bracketed: false)
        }
        return nil
    }

    /// A note's marker right after a word (`Association.[8]`, `end{2}`).
    static let marker = LinePattern(#"(?<=\S)(?:\[(?:\d{1,3}[a-z]?|\*{1,3}|†)\]|\{(?:\d{1,3}|\*{1,3}|†)\})"#)

    /// `line` without the notes' markers that follow its words.
    static func withoutMarkers(_ line: String) -> String {
        guard TextLines.has(line, "[") || TextLines.has(line, "{") else { return line }
        return marker.regex.stringByReplacingMatches(in: line, range: NSRange(location: 0, length: line.utf16.count), withTemplate: "")
    }

    /// The markers of `text` as stretches spoken as a space.
    static func markerSilence(in text: String) -> [Pronunciation] {
        guard TextLines.has(text, "[") || TextLines.has(text, "{") else { return [] }
        return marker.allMatches(text).map { Pronunciation(offset: $0.range.location, length: $0.range.length, spoken: " ") }
    }

    static func isHeading(_ line: String) -> Bool {
        let title = undecorated(line)
        return title.utf8.count < 40 && (TextLines.has(title, "OTE") || TextLines.has(title, "ote")) && heading.matches(title)
    }

    /// A notes title without the rules of stars or brackets a transcriber set around it
    /// (`************ FOOTNOTES ******************`, `[ FOOTNOTES ]`).
    static func undecorated(_ line: String) -> String {
        let decoration = CharacterSet(charactersIn: "*[]=~#").union(.whitespaces)
        return line.trimmingCharacters(in: decoration)
    }

    private static func sub(_ t: String, _ m: NSTextCheckingResult, _ group: Int) -> String {
        let r = m.range(at: group)
        return r.location == NSNotFound ? "" : (t as NSString).substring(with: r)
    }
}
