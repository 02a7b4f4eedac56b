/// Plain text's `_italics_` marks: underscores that come in pairs where the first starts a word
/// or the second ends one (`_very_`, `_Un_important`, `sure_ly_`) mark emphasis and are removed;
/// an unpaired underscore, or a pair inside words (`A_1`, `snake_case_name`), is part of the text.
enum Emphasis {
    static func removingMarks(_ text: String) -> String {
        let chars = Array(text)
        let underscores = chars.indices.filter { chars[$0] == "_" }
        guard !underscores.isEmpty else { return text }
        func isWordChar(_ i: Int) -> Bool { i >= 0 && i < chars.count && (chars[i].isLetter || chars[i].isNumber) }
        var removed = Set<Int>()
        var k = 0
        while k + 1 < underscores.count {
            let open = underscores[k], close = underscores[k + 1]
            let opensWord = !isWordChar(open - 1) && isWordChar(open + 1)
            let closesWord = isWordChar(close - 1) && !isWordChar(close + 1)
            if (opensWord || closesWord) && close > open + 1 {
                removed.insert(open)
                removed.insert(close)
                k += 2
            } else {
                k += 1
            }
        }
        // A run of underscores standing alone (a rule `____`) is left as written.
        return String(chars.indices.filter { !removed.contains($0) }.map { chars[$0] })
    }
}
