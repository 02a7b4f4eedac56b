import Foundation

/// A speaker's label a plain text sets in italics at a speech's start (`_Mag._ Bene, Mārce!`,
/// `_M. Cic._ Dī est nōmen…`, `_Lady Bracknell_. Good afternoon`): the text's counterpart of the
/// bold or small-caps name HTML sets (``HTMLWalker/speakerLabel(opening:)``). Only a candidate:
/// ``PlayReading`` decides from the whole book whether such names are speakers' labels.
enum ItalicSpeakerLabel {
    /// `_Name._ speech` or `_Name_. speech`: the name (with its period or colon) and the speech after it.
    static let opening = LinePattern(#"^_([^_]{1,40})_([.:]?)\s+\S"#)

    /// The label as the paragraph's cleaned text opens with it (underscores removed: "M. Cic."),
    /// if `line` (a paragraph's first line) opens with one: at most four words, each capitalised,
    /// ending in a period or colon.
    static func label(opening line: String) -> String? {
        let t = line.drop { $0 == " " || $0 == "\t" }
        guard t.first == "_", let m = opening.firstMatch(String(t)), m.numberOfRanges == 3 else { return nil }
        let s = String(t) as NSString
        let label = s.substring(with: m.range(at: 1)) + s.substring(with: m.range(at: 2))
        guard let last = label.last, last == "." || last == ":", !label.hasPrefix(" ") else { return nil }
        let words = label.dropLast().split(separator: " ")
        guard (1...4).contains(words.count), words.allSatisfy({ $0.first?.isUppercase == true }) else { return nil }
        return label
    }
}
