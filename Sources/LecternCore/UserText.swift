/// User input as messages show it: control characters escaped (a file name with a newline is
/// named as written, `a\nb.txt`, on one line), and long values cut to an excerpt, so an error
/// never echoes a megabyte of selector, pattern or YAML back.
public enum UserText {
    /// The most characters of user input a message shows.
    public static let excerptLimit = 120

    /// `text` with control characters escaped (`\n`, `\t`, `\r`, `\u{1B}` …) and, past `limit`
    /// characters, cut with "… (N characters)".
    public static func excerpt(_ text: String, limit: Int = UserText.excerptLimit) -> String {
        var out = ""
        var count = 0
        for character in text {
            if count == limit {
                return out + "… (\(text.count) characters)"
            }
            out += escaped(character)
            count += 1
        }
        return out
    }

    /// `text` with its control characters escaped and nothing cut (for paths, whose every
    /// character matters).
    public static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return text.map(escaped).joined()
    }

    private static func escaped(_ character: Character) -> String {
        guard character.unicodeScalars.contains(where: isControl) else { return String(character) }
        return character.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default:
                return isControl(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
            }
        }.joined()
    }

    /// A control character, a line or paragraph separator, or a byte-order mark: what a message
    /// (or a single-quoted YAML scalar) cannot show as written.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || [0x2028, 0x2029, 0xFEFF].contains(scalar.value)
    }
}
