import Foundation

/// Project Gutenberg's `_italics_`: underscores are paired in order within a paragraph; a pair whose
/// opening `_` starts a word or whose closing `_` ends a word marks emphasis and both are removed
/// (`_very_`, `_Un_important`, `sure_ly_`). An unpaired `_`, or a pair both inside words (`A_1`,
/// `snake_case_name`), is kept; when a pair is not emphasis its first `_` stays and the second
/// is tried with the next one. HTML's inline tags left in a plain text by its conversion
/// (`<b>A PARODY</b>`, `<i>…</i>`), opened and closed in the text, are emphasis too, and removed.
enum Emphasis {
    /// An inline tag's pair: `<b>…</b>`, `<i>…</i>`, `<em>…</em>` ….
    static let tagPair = LinePattern(#"<(b|i|em|strong|u|big|small|tt|sup|sub)>(.*?)</\1>"#, caseInsensitive: true)

    static func remove(_ text: String) -> String {
        let text = removingTags(text)
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

    /// `text` with each pair of inline tags removed, the words between kept.
    static func removingTags(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")), text.utf8.contains(UInt8(ascii: ">")) else { return text }
        let range = NSRange(location: 0, length: text.utf16.count)
        return tagPair.regex.stringByReplacingMatches(in: text, range: range, withTemplate: "$2")
    }
}
