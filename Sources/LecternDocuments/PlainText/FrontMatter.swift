/// What a narrator reads of the pages before the first chapter: a dedication (`TO MY WIFE`,
/// `Dedicated to…`, under a `DEDICATION` line), an epigraph (a quotation, or lines followed by
/// their attribution, `—Job.`) and the stanzas of a poem under a line that is read; the rest — title, author, publisher, imprint, copyright — is the
/// title page, not read.
enum FrontMatter {
    static let dedication = LinePattern(#"^(?:TO\s+\S|To\s+[A-Z]|(?:DEDICATED|Dedicated|DEDICATION|Dedication|INSCRIBED|Inscribed)\b)"#)
    static let dedicationTitle = LinePattern(#"^(?:DEDICATION|Dedication)\s*[.:]?$"#)
    static let attribution = LinePattern(#"^(?:—|--|-|―)\s*\S"#)
    static let opensQuotation = LinePattern(#"^_?["“‘']"#)
    /// The author's name under the title (`By James Joyce`, `BY G. K. CHESTERTON`): the title page's,
    /// even where the markup sets it as a heading.
    static let byline = LinePattern(#"^(?:BY|By|by)\s+(?:[A-Z][\w.'’-]*\s*){1,5}$"#)
    /// A line of the imprint, not a title: `Copyright 1912 by …`, `Printed by …`, `L. C. PAGE & COMPANY`.
    static let imprint = LinePattern(#"\b(?:copyright(?:ed)?|all\s+rights|printed|published|press|company|co\.)(?:\W|$)|©"#, caseInsensitive: true)

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
            } else if k > 0, read.contains(k - 1), isVerse(pieces[k]) {
                // A poem under a title or a dedication that is read (`TO THE HESITATING PURCHASER`): its stanzas.
                read.insert(k)
            }
        }
        return read
    }

    /// Where running text starts before the first heading, if it does: the first paragraph of prose or
    /// verse (``isRunningText(_:)``) not read as a dedication or epigraph, with the paragraphs of
    /// sentences right before it and one short title before them (`PUBLISHERS' NOTE`, a repeated book title;
    /// in capitals, or not ending with a period as an imprint's line does).
    /// A title page is short lines; a prologue without a heading, a note to the reader, a song's verses are not.
    /// None before a play's cast list (its introduction and cast are front matter of their own).
    static func runningTextStart(_ front: ArraySlice<StructurePiece>, read: Set<Int>) -> Int? {
        let pieces = Array(front)
        guard var start = pieces.indices.first(where: { !read.contains($0) && isRunningText(pieces[$0]) }) else { return nil }
        func text(_ k: Int) -> String? {
            if case .paragraph(let lines, _) = pieces[k] { return TextLines.trim(TextLines.collapse(lines.joined(separator: " ").replacingOccurrences(of: "_", with: " "))) }
            return nil
        }
        // A play's cast list after it (`Dramatis Personae:`): the front is the play's front matter, left as it was.
        if pieces[start...].indices.contains(where: { k in text(k).map { CastList.title.matches($0) } ?? false }) { return nil }
        while start > 0, let t = text(start - 1), TextLines.wordCount(t) >= 12, let end = t.last, ".!?\"”’:;".contains(end) { start -= 1 }
        if start > 0, let t = text(start - 1), (1...6).contains(TextLines.wordCount(t)), let end = t.last, !",;".contains(end),
           TextLines.isUpperCase(t) || end != ".", !imprint.matches(t) { start -= 1 }
        return start
    }

    /// A stanza: two lines or more of three words or more on average, not in capitals, most of its words
    /// in lower case (a title page's or a list's lines are names and titles, capitalised), no imprint.
    static func isVerse(_ piece: StructurePiece) -> Bool {
        guard case .paragraph(let lines, _) = piece, lines.count >= 2 else { return false }
        let text = lines.joined(separator: " ")
        guard !TextLines.isUpperCase(text), !imprint.matches(text) else { return false }
        let words = TextLines.words(text).compactMap { $0.first(where: \.isLetter) }
        return words.count >= 3 * lines.count && words.filter(\.isLowercase).count * 2 >= words.count
    }

    /// A paragraph of prose or verse: 40 words or more, not in capitals, in one long line (a paragraph of a
    /// page laid out as lines) or in three or more lines of 35 characters on average (a list of titles
    /// or an imprint has shorter ones).
    static func isRunningText(_ piece: StructurePiece) -> Bool {
        guard case .paragraph(let lines, _) = piece else { return false }
        let text = lines.joined(separator: " ")
        guard TextLines.wordCount(text) >= 40, !TextLines.isUpperCase(text) else { return false }
        if lines.count == 1 { return text.count >= 200 }
        return lines.count >= 3 && lines.reduce(0) { $0 + TextLines.trim($1).count } >= 35 * lines.count
    }
}
