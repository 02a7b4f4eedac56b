/// Splits text into the words that Lectern times and counts.
///
/// A word is a maximal run of characters that are neither whitespace nor a dash
/// (hyphen-minus inside a word is kept: "rabbit-hole" is one word; em and en dashes separate, and so
/// does a doubled hyphen, the typewriter's em dash: "too--if" is two words, like "too—if"),
/// and that contains at least one letter or digit. Punctuation-only runs are not words.
/// Ranges are in UTF-16 code units, the unit used by every sidecar.
public enum WordTokenizer {
    /// A word's range in UTF-16 code units.
    public struct Token: Sendable, Equatable {
        public var start: Int
        public var end: Int
    }

    /// Returns the words of `text`, in order.
    public static func tokens(in text: String) -> [Token] {
        var tokens: [Token] = []
        var offset = 0
        var start = -1
        var hasAlnum = false
        var previous: Unicode.Scalar?
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            defer { previous = scalar }
            let width = scalar.utf16.count
            if isSeparator(scalar) || (scalar == "-" && (previous == "-" || next == "-")) {
                if start >= 0, hasAlnum { tokens.append(Token(start: start, end: offset)) }
                start = -1
                hasAlnum = false
            } else {
                if start < 0 { start = offset }
                if !hasAlnum, isLetterOrDigit(scalar) { hasAlnum = true }
            }
            offset += width
        }
        if start >= 0, hasAlnum { tokens.append(Token(start: start, end: offset)) }
        return tokens
    }

    /// The number of words in `text`.
    public static func count(in text: String) -> Int {
        tokens(in: text).count
    }

    /// Unicode property lookups are slow; ASCII, nearly all of the text, is decided directly.
    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 { return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        if scalar.properties.isWhitespace { return true }
        switch scalar {
        case "\u{2013}", "\u{2014}", "\u{2015}", "\u{2E3A}", "\u{2E3B}": return true  // en, em, bar, 2- and 3-em dashes
        default: return false
        }
    }
}
