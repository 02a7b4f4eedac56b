/// Separator lines between sections (`***`, `* * *`, `-----`, `~`, `=====`): a pause.
enum Separators {
    static func isSeparator(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        guard let first = t.first, "*~-=_·•.#\u{2014}\u{2013}".contains(first) else { return false }
        var marks = 0
        var kinds = Set<Character>()
        for c in t {
            if c == " " || c == "\t" { continue }
            guard "*~-=_·•.#+".contains(c) || c == "\u{2014}" || c == "\u{2013}" else { return false }
            marks += 1
            kinds.insert(c)
        }
        if kinds.contains("+") { return false }  // table borders
        if kinds == ["."] { return marks >= 3 && t.utf8.contains(UInt8(ascii: " ")) }  // ". . ." but not an ellipsis
        return marks >= 3 || (marks >= 1 && (kinds == ["*"] || kinds == ["~"]))
    }
}
