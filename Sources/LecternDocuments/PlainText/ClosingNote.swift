/// The author's note after the book's last chapter, headed by a line no chapter keyword opens (`NOTE`,
/// `Author's Note`): Dracula's `NOTE` of seven years after, which an EPUB sets apart as an epilogue. A
/// careful narrator announces it as its own section, not as more of the last chapter, whatever the format.
///
/// Only after the last heading of a book with two or more, only a line alone between running text
/// (the last chapter's, then the note's), and only a short note (up to ``maxWords`` before `THE END`):
/// a `NOTE` line inside a chapter is the chapter's.
enum ClosingNote {
    /// `NOTE`, `Note.`, `A NOTE`, `AUTHOR'S NOTE`, `The Editor’s Note`.
    static let title = LinePattern(#"^(?:(?:THE\s+)?(?:AUTHOR|EDITOR|TRANSLATOR)['’]?S\s+|A\s+)?NOTE[.:]?$"#, caseInsensitive: true)
    /// A closing note is a page or two; a longer stretch under such a line is the last chapter's own.
    static let maxWords = 2000

    static func apply(_ pieces: [StructurePiece]) -> [StructurePiece] {
        let headings = pieces.indices.filter { pieces[$0].isHeading }
        guard headings.count >= 2, let last = headings.last,
              let k = pieces[(last + 1)...].firstIndex(where: isTitle),
              pieces[(last + 1)..<k].contains(where: \.isReadText),
              case .paragraph(let lines, let first) = pieces[k] else { return pieces }
        var words = 0
        for piece in pieces[(k + 1)...] {
            guard case .paragraph(let text, _) = piece else {
                if case .note(_, let text, _) = piece { words += text.reduce(0) { $0 + TextLines.wordCount($1) } }
                continue
            }
            if text.count == 1, BackMatter.theEnd.matches(text[0]) { break }
            words += text.reduce(0) { $0 + TextLines.wordCount($1) }
        }
        guard words > 0, words <= maxWords else { return pieces }
        var out = pieces
        let heading = TextLines.collapse(lines[0])
        out[k] = .heading(lines: [heading], firstLine: first, candidate: HeadingCandidate(kind: .standalone, text: heading, hasTitle: false))
        return out
    }

    /// A paragraph of one line that is a note's title, capitalised.
    static func isTitle(_ piece: StructurePiece) -> Bool {
        guard case .paragraph(let lines, _) = piece, lines.count == 1, lines[0].first?.isUppercase == true else { return false }
        return title.matches(TextLines.trim(lines[0]))
    }
}
