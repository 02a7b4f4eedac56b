/// Small helpers for looking at lines of plain text.
enum TextLines {
    /// The line without leading and trailing whitespace.
    static func trim(_ line: String) -> String {
        let scalars = line.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return line }
        if !first.properties.isWhitespace && !last.properties.isWhitespace { return line }
        var s = Substring(line)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }

    static func isBlank(_ line: String) -> Bool { line.unicodeScalars.allSatisfy(\.properties.isWhitespace) }

    /// Runs of whitespace collapsed to one space, ends trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of a text: whitespace-separated runs that contain a letter or digit.
    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
    }

    /// The number of leading spaces (a tab counts as one).
    static func indent(_ line: String) -> Int {
        var n = 0
        for c in line { if c == " " || c == "\t" { n += 1 } else { break } }
        return n
    }

    /// Only the letters and digits, upper-cased: for comparing a line with another written differently.
    static func letterKey(_ text: String) -> String {
        String(text.uppercased().filter { $0.isLetter || $0.isNumber })
    }

    /// True when every letter is upper-case and there are at least two letters.
    static func isUpperCase(_ text: String) -> Bool {
        var letters = 0
        for c in text where c.isLetter {
            if c.isLowercase { return false }
            letters += 1
        }
        return letters >= 2
    }
}
