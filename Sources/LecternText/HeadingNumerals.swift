import Foundation
import LecternCore

/// The Roman numeral of a heading said as a number in any language, also one with no spoken-form
/// rules of its own (`Config/spoken/LANG.yml`): `II.` → `2.`, `CAPÍTULO XII` → `CAPÍTULO 12`,
/// `KAPITEL IV` → `KAPITEL 4`. The engine reads the digits as a cardinal in the voice's language
/// ("deux", "zwei", "doce"), where it reads the letters as "deux romain", "römisch zwei".
///
/// A numeral counts when it opens the heading, or follows its first word (the chapter word of
/// the book's language), and ends it or is followed by punctuation (`IV. La fuite`); a single
/// letter (`I`, `V`, `X`) only alone or marked (`I.`), or after that first word in a heading of
/// two words (`Capítulo I`), never `I` the pronoun in `I WAS BORN`.
public enum HeadingNumerals {
    /// Headings number their chapters well under this.
    static let largest = 400

    /// The numerals of a heading's text as digits, in order.
    public static func pronunciations(in text: String) -> [Pronunciation] {
        let units = Array(text.utf16)
        let tokens = WordTokenizer.tokens(in: text)
        var result: [Pronunciation] = []
        for i in 0..<min(2, tokens.count) {
            var start = tokens[i].start, end = tokens[i].end
            while start < end, !isLetter(units[start]) { start += 1 }
            while end > start, !isLetter(units[end - 1]) { end -= 1 }
            guard start < end, start == tokens[i].start else { continue }
            let core = String(decoding: units[start..<end], as: UTF16.self)
            guard core.allSatisfy({ "IVXLCDM".contains($0) }), let value = RomanNumeral.value(of: core), value < largest else { continue }
            let trail = String(decoding: units[end..<tokens[i].end], as: UTF16.self)
            let last = i == tokens.count - 1
            let marked = last || trail.hasPrefix(".") || trail.hasPrefix(":") || trail.hasPrefix(",")
                || (i + 1 < tokens.count && units[end..<tokens[i + 1].start].contains { $0 == 0x2014 || $0 == 0x2013 })
            guard marked else { continue }
            if i == 1 {
                // After the heading's first word: a word of letters (the chapter word), not a numeral itself.
                let first = String(decoding: units[tokens[0].start..<tokens[0].end], as: UTF16.self).trimmingCharacters(in: .punctuationCharacters)
                guard first.count >= 2, first.allSatisfy(\.isLetter), RomanNumeral.value(of: first) == nil else { continue }
                if core.count == 1, tokens.count > 2 { continue }
            } else if core.count == 1, !(last || trail.hasPrefix(".") || trail.hasPrefix(":")) {
                continue
            }
            result.append(Pronunciation(offset: start, length: end - start, spoken: String(value)))
            break
        }
        return result
    }

    private static func isLetter(_ unit: UInt16) -> Bool {
        (unit >= 0x41 && unit <= 0x5A) || (unit >= 0x61 && unit <= 0x7A)
    }
}
