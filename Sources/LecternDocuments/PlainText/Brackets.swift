/// Finding where a bracket opened on one line closes, possibly lines (and blank lines) later.
enum Brackets {
    /// The line holding the `]` that closes the first `[` of line `start`, or nil if it does not close
    /// within `maxLines` lines.
    static func closing(from start: Int, in lines: [String], limit: Int, maxLines: Int) -> Int? {
        var depth = 0
        var opened = false
        var i = start
        while i < limit, i < start + maxLines {
            for c in lines[i] {
                if c == "[" { depth += 1; opened = true } else if c == "]", opened {
                    depth -= 1
                    if depth == 0 { return i }
                }
            }
            i += 1
        }
        return nil
    }

    /// The offset just after the `]` closing the first `[` in `text`, if it closes.
    static func closingIndex<S: StringProtocol>(in text: S) -> S.Index? {
        var depth = 0
        var opened = false
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "[" { depth += 1; opened = true } else if c == "]", opened {
                depth -= 1
                if depth == 0 { return text.index(after: i) }
            }
            i = text.index(after: i)
        }
        return nil
    }
}
