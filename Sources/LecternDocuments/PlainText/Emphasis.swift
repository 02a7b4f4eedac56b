/// Project Gutenberg's `_italics_`: underscores are paired in order within a paragraph; a pair whose
/// opening `_` starts a word or whose closing `_` ends a word marks emphasis and both are removed
/// (`_very_`, `_Un_important`, `sure_ly_`). An unpaired `_`, or a pair both inside words (`A_1`,
/// `snake_case_name`), is kept; when a pair is not emphasis its first `_` stays and the second
/// is tried with the next one.
enum Emphasis {
    static func remove(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "_")) else { return text }
        let chars = Array(text)
        let marks = chars.indices.filter { chars[$0] == "_" }
        var drop = Set<Int>()
        func isWordChar(_ i: Int) -> Bool { i >= 0 && i < chars.count && (chars[i].isLetter || chars[i].isNumber) }
        var k = 0
        while k + 1 < marks.count {
            let open = marks[k], close = marks[k + 1]
            let startsWord = !isWordChar(open - 1) && isWordChar(open + 1)
            let endsWord = isWordChar(close - 1) && !isWordChar(close + 1)
            // `__` with nothing between is not emphasis.
            if close > open + 1, startsWord || endsWord {
                drop.insert(open)
                drop.insert(close)
                k += 2
            } else {
                k += 1
            }
        }
        guard !drop.isEmpty else { return text }
        var out = ""
        out.reserveCapacity(chars.count)
        for (i, c) in chars.enumerated() where !drop.contains(i) { out.append(c) }
        return out
    }
}
