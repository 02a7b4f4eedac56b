/// Small helpers for looking at lines of plain text.
enum TextLines {
    /// The line without leading and trailing whitespace.
    static func trim(_ line: String) -> String {
        let scalars = line.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return line }
        if !isSpace(first) && !isSpace(last) { return line }
        var s = Substring(line)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }

    static func isBlank(_ line: String) -> Bool { line.unicodeScalars.allSatisfy(isSpace) }

    /// Runs of whitespace collapsed to one space, ends trimmed.
    static func collapse(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whitespace, decided directly for ASCII (nearly all of the text).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// Whether `text` contains the ASCII `needle`, compared byte by byte (Foundation's search is slow).
    static func has(_ text: String, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard let first = n.first else { return true }
        var it = Array(text.utf8)[...]
        while let k = it.firstIndex(of: first) {
            if it[k...].starts(with: n) { return true }
            it = it[(k + 1)...]
        }
        return false
    }

    /// The words of a text: whitespace-separated runs that contain a letter or digit.
    /// The number of words, counted on Unicode scalars (fast).
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var hasAlnum = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                if inWord, hasAlnum { count += 1 }
                inWord = false
                hasAlnum = false
            } else {
                inWord = true
                if !hasAlnum {
                    let v = scalar.value
                    hasAlnum = v < 0x80 ? ((v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A))
                        : (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
                }
            }
        }
        if inWord, hasAlnum { count += 1 }
        return count
    }

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
