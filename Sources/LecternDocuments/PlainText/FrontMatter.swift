/// What a narrator reads of the pages before the first chapter: a dedication (`TO MY WIFE`,
/// `Dedicated to…`, under a `DEDICATION` line) and an epigraph (a quotation, or lines followed by
/// their attribution, `—Job.`); the rest — title, author, publisher, imprint, copyright — is the
/// title page, not read.
enum FrontMatter {
    static let dedication = LinePattern(#"^(?:TO\s+\S|To\s+[A-Z]|(?:DEDICATED|Dedicated|DEDICATION|Dedication|INSCRIBED|Inscribed)\b)"#)
    static let dedicationTitle = LinePattern(#"^(?:DEDICATION|Dedication)\s*[.:]?$"#)
    static let attribution = LinePattern(#"^(?:—|--|-|―)\s*\S"#)
    static let opensQuotation = LinePattern(#"^_?["“‘']"#)
    /// The author's name under the title (`By James Joyce`, `BY G. K. CHESTERTON`): the title page's,
    /// even where the markup sets it as a heading.
    static let byline = LinePattern(#"^(?:BY|By|by)\s+(?:[A-Z][\w.'’-]*\s*){1,5}$"#)

    /// The indexes of the pieces (before the first heading) that are read.
    static func read(_ front: ArraySlice<StructurePiece>) -> Set<Int> {
        let pieces = Array(front)
        func text(_ k: Int) -> String? {
            if case .paragraph(let lines, _) = pieces[k] { return TextLines.collapse(lines.joined(separator: " ")) }
            return nil
        }
        var read = Set<Int>()
        for k in pieces.indices {
            guard let t = text(k) else { continue }
            let words = TextLines.wordCount(t)
            if dedicationTitle.matches(t), k + 1 < pieces.count, text(k + 1) != nil {
                read.insert(k)
                read.insert(k + 1)
            } else if dedication.matches(t), words <= 60 {
                read.insert(k)
            } else if opensQuotation.matches(t), words >= 6 {
                read.insert(k)
                // Its source on the next lines: short, after a dash or alone.
                if k + 1 < pieces.count, let next = text(k + 1), TextLines.wordCount(next) <= 10 { read.insert(k + 1) }
            } else if k + 1 < pieces.count, let next = text(k + 1), attribution.matches(next), TextLines.wordCount(next) <= 10, words >= 4 {
                read.insert(k)
                read.insert(k + 1)
            }
        }
        return read
    }
}
