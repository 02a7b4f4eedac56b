import Foundation
import LecternCore
import LecternText

/// A 7-bit transcription's accent codes, read as the letters they stand for: `r['e]sum['e]` is
/// heard as "résumé" — never as "r sum", and never as the code's symbols. The mark comes before
/// or after its letter inside brackets: `['e]` `[e']` é, `` [`a] `` à, `[^o]` ô, `[:u]` `["u]` ü,
/// `[~n]` ñ, `[,c]` ç, `[=a]` ā, `[va]` ǎ, `[oa]` å, and the ligatures `[ae]` æ, `[oe]` œ.
///
/// The text keeps its codes (timings point at it); each word that holds one gets a respelling.
enum AccentCodes {
    static let marks: [Character: Unicode.Scalar] = [
        "'": "\u{0301}", "`": "\u{0300}", "^": "\u{0302}", ":": "\u{0308}", "\"": "\u{0308}", "~": "\u{0303}",
        ",": "\u{0327}", "=": "\u{0304}", "v": "\u{030C}", "o": "\u{030A}",
    ]
    static let ligatures: [String: String] = ["ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ"]
    static let code = LinePattern(#"\[(?:([\'`^:"~,=vo])([A-Za-z])|([A-Za-z])([\'`^:"~,=])|(ae|AE|oe|OE))\]"#)

    /// The letter a code's content stands for, if it is one.
    static func letter(_ content: Substring) -> String? {
        let chars = Array(content)
        if let ligature = ligatures[String(content)] { return ligature }
        guard chars.count == 2 else { return nil }
        let (mark, base): (Character, Character) = chars[1].isLetter && marks[chars[0]] != nil ? (chars[0], chars[1]) : (chars[1], chars[0])
        guard base.isLetter, base.isASCII, let combining = marks[mark] else { return nil }
        let decoded = (String(base) + String(Character(combining))).precomposedStringWithCanonicalMapping
        return decoded.count == 1 ? decoded : nil
    }

    /// A respelling of each word of `text` that holds a code, with the codes decoded.
    static func pronunciations(in text: String) -> [Pronunciation] {
        guard text.utf8.contains(UInt8(ascii: "[")) else { return [] }
        let ns = text as NSString
        let codes = code.allMatches(text)
        guard !codes.isEmpty else { return [] }
        var result: [Pronunciation] = []
        for token in WordTokenizer.tokens(in: text) {
            let inside = codes.filter { $0.range.location >= token.start && $0.range.location + $0.range.length <= token.end }
            guard !inside.isEmpty else { continue }
            var spoken = ""
            var at = token.start
            for m in inside {
                spoken += ns.substring(with: NSRange(location: at, length: m.range.location - at))
                let content = ns.substring(with: NSRange(location: m.range.location + 1, length: m.range.length - 2))
                spoken += letter(Substring(content)) ?? content
                at = m.range.location + m.range.length
            }
            spoken += ns.substring(with: NSRange(location: at, length: token.end - at))
            result.append(Pronunciation(offset: token.start, length: token.end - token.start, spoken: spoken))
        }
        return result
    }
}
