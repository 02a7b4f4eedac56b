/// Lines that are wholly a transcriber's bracketed notation (music written as `[G: d' e' (f' g') a']`,
/// `[W: One, two, three, four]`, `[3/4: 4 4 8 8 | 8. 16 2] = [- - ' ' - ' -]`, a figure's labels
/// `[Hexachords: (Hard Low) (Natural Low)]`): a tag of up to four words with a colon opens the bracket, or the
/// bracket holds no word at all, and the line (or a later one) ends with the bracket.
/// Skipped as "transcriber's notation".
enum Notation {
    static let tagged = LinePattern(
        #"^\[(?!(?i:footnote|note|sidenote|illustration|transcriber|figure|fig\.|plate|image|picture)\b)[A-Za-z0-9/+=.#'-]{1,20}(?: [A-Za-z]{1,12}){0,3}:"#)
    static let marker = LinePattern(#"^\[(\d{1,3}|\*{1,3}|†|‡)\]$"#)

    /// A one-line bracket with no word in it (`[- ' ' - ' -]`, `[4 8 4 | 4 8 8 8]`), but not a footnote marker.
    static func isWordless(_ t: String) -> Bool {
        guard t.count >= 3, t.first == "[", t.last == "]", !marker.matches(t) else { return false }
        let inner = t.dropFirst().dropLast()
        guard inner.contains(where: { !$0.isWhitespace }) else { return false }
        return !inner.split(whereSeparator: \.isWhitespace).contains { $0.filter(\.isLetter).count >= 3 }
    }

    static func isNotationLine(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        guard t.first == "[" else { return false }
        return t.hasSuffix("]") && tagged.matches(t)
    }

    /// The end (exclusive) of a notation passage starting at line `start`: a tagged bracket that closes
    /// on this line or a later one (no blank line between) with nothing after it, or nil.
    static func end(from start: Int, in lines: [String], limit: Int) -> Int? {
        let t = TextLines.trim(lines[start])
        guard t.first == "[" else { return nil }
        if isWordless(t) { return start + 1 }
        guard tagged.matches(t) else { return nil }
        if t.hasSuffix("]") { return start + 1 }
        var j = start + 1
        while j < limit, j < start + 12, !TextLines.isBlank(lines[j]) { j += 1 }
        guard let close = Brackets.closing(from: start, in: lines, limit: j, maxLines: 12) else { return nil }
        return TextLines.trim(lines[close]).hasSuffix("]") ? close + 1 : nil
    }
}
