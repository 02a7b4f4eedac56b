/// Lines that are wholly a transcriber's bracketed notation (music written as `[G: d' e' (f' g') a']`,
/// `[W: One, two, three, four]`, `[3/4: 4 4 8 8 | 8. 16 2] = [- - ' ' - ' -]`): a short tag with a
/// colon opens the bracket and the line ends with a bracket. Skipped as "transcriber's notation".
enum Notation {
    static let reason = "transcriber's notation"
    static let tagged = LinePattern(#"^\[[A-Za-z0-9/+=.#-]{1,5}:"#)

    static func isNotationLine(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        guard t.first == "[" else { return false }
        return t.hasPrefix("[") && t.hasSuffix("]") && tagged.matches(t)
    }
}
