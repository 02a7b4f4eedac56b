/// Text for a manual page (roff: mdoc or man): escaped, `code` spans in bold, and laid out as
/// `mandoc -T lint` wants it — each sentence on a new line, lines within 80 bytes.
public enum RoffText {
    /// `markdown` (plain text with `code` spans) as roff input lines.
    public static func lines(_ markdown: String) -> [String] {
        layout(escaped(markdown))
    }

    /// Backslashes and non-ASCII characters as roff escapes, `code` spans in bold.
    public static func escaped(_ markdown: String) -> String {
        var out = ""
        var inCode = false
        for scalar in markdown.unicodeScalars {
            switch scalar {
            case "`":
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
            case "\\": out += "\\e"
            case "\n", "\t": out += " "
            default:
                if scalar.isASCII { out.unicodeScalars.append(scalar) } else { out += "\\[u" + hex(scalar.value) + "]" }
            }
        }
        return inCode ? out + "\\fR" : out
    }

    /// Words laid out in lines of at most 80 bytes, a new line after each sentence's end; a line
    /// that would start with a control character (`.`, `'`) starts with `\&`.
    public static func layout(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
            if endsSentence(word) {
                lines.append(line)
                line = ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }
    }

    /// Whether a word ends with `.`, `!` or `?` (before closing brackets, quotes or a font change),
    /// as mandoc reads a sentence's end.
    static func endsSentence(_ word: Substring) -> Bool {
        var w = word
        while true {
            if w.hasSuffix("\\fR") || w.hasSuffix("\\fP") { w = w.dropLast(3); continue }
            if let last = w.last, ")]\"'".contains(last) { w = w.dropLast(); continue }
            break
        }
        guard let last = w.last else { return false }
        return ".!?".contains(last) && w.count > 1
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
