import Foundation
import LecternCore
import LecternText

/// A 7-bit transcription's accent codes, read as the letters they stand for: `r['e]sum['e]` is
/// heard as "résumé" and `Tr[/o]ndelag` as "Trøndelag" — never as "r sum", and never as the code's
/// symbols ("slash"). Distributed Proofreaders' bracket notation puts the mark before its letter
/// (above it) or after it (below it): `['e]` `[e']` é, `` [`a] `` à, `[^o]` ô, `[:u]` `["u]` ü,
/// `[~n]` ñ, `[,c]` `[c,]` ç, `[=a]` ā, `[va]` ǎ, `[)a]` ă, `[(a]` ȃ, `[.z]` ż, `[oa]` `[*a]` å,
/// `['']o` ő, `[/o]` `[o/]` ø, `[/l]` ł, `[/d]` đ, and the ligatures `[ae]` æ, `[oe]` œ.
///
/// A letter espeak-ng would spell out ("letter 1E25", "u macron") is read as its base letter, and so is
/// a code with a mark this table does not know when it stands inside a word (`Mu[h.]ammad`, `[%o]`):
/// the letter is kept, the mark silent. A transcriber's note may define what its codes stand for
/// (``AccentDefinitions``); and a book that writes `o/` for ø throughout (`Kjo/benhavn`) is read so.
///
/// The text keeps its codes (timings point at it); each word that holds one gets a respelling.
enum AccentCodes {
    /// Marks written before their letter (above it).
    static let above: [String: Unicode.Scalar] = [
        "'": "\u{0301}", "`": "\u{0300}", "^": "\u{0302}", ":": "\u{0308}", "\"": "\u{0308}", "~": "\u{0303}",
        ",": "\u{0327}", "=": "\u{0304}", "v": "\u{030C}", "o": "\u{030A}", "*": "\u{030A}", ")": "\u{0306}",
        "(": "\u{0311}", ".": "\u{0307}", "''": "\u{030B}",
    ]
    /// Marks written after their letter: below it where the notation says so, otherwise as above.
    static let below: [String: Unicode.Scalar] = [
        "'": "\u{0301}", "`": "\u{0300}", "^": "\u{0302}", ":": "\u{0324}", "\"": "\u{0308}", "~": "\u{0303}",
        ",": "\u{0327}", "=": "\u{0331}", "v": "\u{030C}", ")": "\u{032E}", "(": "\u{032F}", ".": "\u{0323}",
        "*": "\u{0325}",
    ]
    /// A stroke through the letter, `[/o]` or `[o/]`: letters with no decomposition.
    static let strokes: [Character: String] = [
        "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "d": "đ", "D": "Đ", "h": "ħ", "H": "Ħ", "t": "ŧ", "T": "Ŧ",
        "b": "ƀ", "g": "ǥ", "G": "Ǥ", "i": "ɨ", "z": "ƶ", "Z": "Ƶ",
    ]
    static let ligatures: [String: String] = ["ae": "æ", "AE": "Æ", "Ae": "Æ", "oe": "œ", "OE": "Œ", "Oe": "Œ"]
    /// A bracketed code: up to two marks, one ASCII letter, up to two marks; or a ligature.
    static let code = LinePattern(#"\[(?:(ae|AE|Ae|oe|OE|Oe)|([^\[\]\sA-Za-z0-9]{1,2}|v|o)([A-Za-z])|([A-Za-z])([^\[\]\sA-Za-z0-9]{1,2}|v))\]"#)
    /// `o/` for ø inside a word (`Kjo/benhavn`, `Tro/ndelag`), a Scandinavian 7-bit convention.
    static let slashOCode = LinePattern(#"(?<=[A-Za-z])[oO]/(?=[a-z])|(?<![A-Za-z/])[oO]/(?=[a-z]{2})|(?<=[A-Za-z])o/(?![A-Za-z/0-9])"#)

    /// Whether a letter is one espeak-ng reads as a letter inside a word (Latin-1 and Latin Extended-A/B but
    /// for `unspeakable`, checked with `espeak-ng -x` in its English voices); others (`ḥ` U+1E25, `ɨ`, a letter
    /// with a combining mark left over) it spells out by name ("letter 1E25", "i bar").
    static func isSpeakable(_ letter: String) -> Bool {
        let scalars = Array(letter.unicodeScalars)
        return scalars.count == 1 && (0xC0...0x24F).contains(scalars[0].value) && !unspeakable.contains(scalars[0])
    }
    static let unspeakable = Set("ƄƅƓƔƖƗƜƟƦƧƨƮƱƲƼƽƾȺȾɁɂɄɅ".unicodeScalars)

    /// The letter written with `mark` before (`isAbove`) or after its base letter `base`, as espeak-ng can read it:
    /// the accented letter, or the base letter alone when the mark is unknown or the letter unspeakable.
    static func letter(base: Character, mark: String, isAbove: Bool) -> String {
        if mark == "/" || mark == "-", let stroked = strokes[base] { return isSpeakable(stroked) ? stroked : String(base) }
        guard let combining = (isAbove ? above : below)[mark] ?? above[mark] else { return String(base) }
        let decoded = (String(base) + String(Character(combining))).precomposedStringWithCanonicalMapping
        return isSpeakable(decoded) ? decoded : String(base)
    }

    /// What the code matched by `m` stands for, and whether its mark was known (not just its base letter kept).
    static func decode(_ m: NSTextCheckingResult, in ns: NSString) -> (letter: String, known: Bool) {
        func group(_ g: Int) -> String? { m.range(at: g).location == NSNotFound ? nil : ns.substring(with: m.range(at: g)) }
        if let ligature = group(1) { return (ligatures[ligature] ?? ligature, true) }
        let (mark, base, isAbove) = group(3) != nil ? (group(2)!, group(3)!, true) : (group(5)!, group(4)!, false)
        let decoded = letter(base: Character(base), mark: mark, isAbove: isAbove)
        return (decoded, decoded != base)
    }

    /// A respelling of each word of `text` that holds a code, with the codes decoded.
    /// `defined`: what the book's transcriber's note says its codes stand for (bracket content → letters);
    /// `notation`: codes the note defines as something other than a letter (`[O.] = A circle with a dot`): silent;
    /// `slashO`: the book writes `o/` for ø.
    static func pronunciations(in text: String, defined: [String: String] = [:], notation: Set<String> = [],
                               slashO: Bool = false) -> [Pronunciation] {
        let hasBracket = text.utf8.contains(UInt8(ascii: "["))
        guard hasBracket || (slashO && text.utf8.contains(UInt8(ascii: "/"))) else { return [] }
        let ns = text as NSString
        // Each code's range and the letters it stands for; `known`: decoded even when it stands alone.
        var codes: [(range: NSRange, letters: String, known: Bool)] = []
        if hasBracket {
            for m in code.allMatches(text) {
                let content = ns.substring(with: NSRange(location: m.range.location + 1, length: m.range.length - 2))
                if let letters = defined[content] { codes.append((m.range, letters, true)); continue }
                if notation.contains(content) { continue }
                let d = decode(m, in: ns)
                codes.append((m.range, d.letter, d.known))
            }
            for m in TranscribersNote.bracket.allMatches(text) where !codes.contains(where: { $0.range == m.range }) {
                if let letters = defined[ns.substring(with: m.range(at: 1))] { codes.append((m.range, letters, true)) }
            }
        }
        if slashO {
            for m in slashOCode.allMatches(text) {
                codes.append((m.range, ns.substring(with: NSRange(location: m.range.location, length: 1)) == "O" ? "Ø" : "ø", true))
            }
        }
        guard !codes.isEmpty else { return [] }
        codes.sort { $0.range.location < $1.range.location }
        var result: [Pronunciation] = []
        for token in WordTokenizer.tokens(in: text) {
            let inside = codes.filter { $0.range.location >= token.start && $0.range.location + $0.range.length <= token.end }
            guard !inside.isEmpty else { continue }
            // A code alone is decoded only when its mark is known (`[c=]` in a line of music stays silent).
            let alone = inside.count == 1 && inside[0].range.length == token.end - token.start
            if alone, !inside[0].known { continue }
            var spoken = ""
            var at = token.start
            for c in inside {
                spoken += ns.substring(with: NSRange(location: at, length: c.range.location - at))
                spoken += c.letters
                at = c.range.location + c.range.length
            }
            spoken += ns.substring(with: NSRange(location: at, length: token.end - at))
            result.append(Pronunciation(offset: token.start, length: token.end - token.start, spoken: spoken))
        }
        return result
    }
}
