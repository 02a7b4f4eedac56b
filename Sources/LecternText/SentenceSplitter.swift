/// Finds sentence boundaries in a paragraph.
///
/// A sentence ends at `.`, `!`, `?` or `…` (optionally followed by closing quotes or brackets)
/// when whitespace follows and the next word does not start in lower case; common abbreviations
/// ("Mr.", "Dr.", "St.", single initials) do not end a sentence.
public enum SentenceSplitter {
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "rev", "gen", "col", "capt", "lt", "sgt",
        "vs", "etc", "e.g", "i.e", "no", "vol", "ch", "fig", "mt", "ft", "messrs", "mme", "mlle",
    ]

    /// Returns the sentences' ranges in UTF-16 code units, covering all non-space text.
    public static func sentences(in text: String) -> [Range<Int>] {
        let units = Array(text.utf16)
        var result: [Range<Int>] = []
        var start = 0
        var i = 0
        func isSpace(_ u: UInt16) -> Bool { u == 32 || u == 9 || u == 10 || u == 13 || u == 0xA0 }
        func isCloser(_ u: UInt16) -> Bool {
            [0x22, 0x27, 0x29, 0x5D, 0x201D, 0x2019, 0xBB, 0x5F, 0x2A].contains(u)
        }
        while i < units.count {
            let u = units[i]
            if u == 0x2E || u == 0x21 || u == 0x3F || u == 0x2026 {
                var j = i + 1
                while j < units.count, units[j] == 0x2E || units[j] == 0x21 || units[j] == 0x3F || isCloser(units[j]) { j += 1 }
                if j >= units.count || isSpace(units[j]) {
                    var k = j
                    while k < units.count, isSpace(units[k]) { k += 1 }
                    let endsSentence: Bool
                    if k >= units.count {
                        endsSentence = true
                    } else if u == 0x2E, isAbbreviation(units, dotAt: i) {
                        endsSentence = false
                    } else {
                        let next = String(decoding: units[k..<min(k + 2, units.count)], as: UTF16.self)
                        endsSentence = !(next.first?.isLowercase ?? false)
                    }
                    if endsSentence {
                        result.append(trimmed(units, start..<j))
                        start = k
                        i = k
                        continue
                    }
                }
                i = j
                continue
            }
            i += 1
        }
        if start < units.count {
            let r = trimmed(units, start..<units.count)
            if !r.isEmpty { result.append(r) }
        }
        return result.filter { !$0.isEmpty }
    }

    private static func isAbbreviation(_ units: [UInt16], dotAt dot: Int) -> Bool {
        var s = dot
        while s > 0, let c = Unicode.Scalar(units[s - 1]), c.properties.isAlphabetic || c == "." { s -= 1 }
        let word = String(decoding: units[s..<dot], as: UTF16.self)
        if word.count == 1, let letter = word.first, letter.isLetter { return letter.isUppercase }  // an initial
        return abbreviations.contains(word.lowercased())
    }

    private static func trimmed(_ units: [UInt16], _ range: Range<Int>) -> Range<Int> {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi, units[lo] == 32 || units[lo] == 10 || units[lo] == 9 { lo += 1 }
        while hi > lo, units[hi - 1] == 32 || units[hi - 1] == 10 || units[hi - 1] == 9 { hi -= 1 }
        return lo..<hi
    }
}
