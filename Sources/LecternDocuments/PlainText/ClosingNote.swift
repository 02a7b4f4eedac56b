/// The author's note after the book's last chapter, headed by a line no chapter keyword opens (`NOTE`,
/// `Author's Note`): Dracula's `NOTE` of seven years after, which an EPUB sets apart as an epilogue. A
/// careful narrator announces it as a chapter of its own, not as more of the last chapter, whatever the format.
///
/// Only after the last heading of a book with two or more, only a line alone between running text
/// (the last chapter's, then the note's), and only a short note (up to ``maxWords`` before `THE END`):
/// a `NOTE` line inside a chapter is the chapter's. Notes to the chapters (`NOTE TO CHAPTER I.` …)
/// after the last chapter's text are each a chapter, however long.
enum ClosingNote {
    /// `NOTE`, `Note.`, `A NOTE`, `AUTHOR'S NOTE`, `The Editor’s Note`.
    static let title = LinePattern(#"^(?:(?:THE\s+)?(?:AUTHOR|EDITOR|TRANSLATOR)['’]?S\s+|A\s+)?NOTE[.:]?$"#, caseInsensitive: true)
    /// `NOTE TO CHAPTER I.`, `Notes to Chap. XII`: the author's notes after the book, each to a chapter (Ivanhoe's),
    /// each a section however long, as an HTML edition heads them.
    static let chapterNote = LinePattern(#"^NOTES?\s+TO\s+(?:CHAPTER|CHAP\.)\s+(?:[IVXLC]+|\d{1,3})[.:]?$"#, caseInsensitive: true)
    /// A closing note is a page or two; a longer stretch under such a line is the last chapter's own.
    static let maxWords = 2000

    static func apply(_ pieces: [StructurePiece]) -> [StructurePiece] {
        let headings = pieces.indices.filter { pieces[$0].isHeading }
        guard headings.count >= 2, let last = headings.last else { return pieces }
        var pieces = pieces
        // The last chapter's text first, then the notes to the chapters.
        if let firstNote = pieces[(last + 1)...].firstIndex(where: isChapterNote), pieces[(last + 1)..<firstNote].contains(where: \.isReadText) {
            for k in firstNote..<pieces.count where isChapterNote(pieces[k]) {
                if case .paragraph(let lines, let first) = pieces[k] { pieces[k] = heading(lines[0], at: first) }
            }
            return pieces
        }
        guard let k = pieces[(last + 1)...].firstIndex(where: isTitle),
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
        pieces[k] = heading(lines[0], at: first)
        return pieces
    }

    static func heading(_ line: String, at first: Int) -> StructurePiece {
        let text = TextLines.collapse(line)
        return .heading(lines: [text], firstLine: first, candidate: HeadingCandidate(kind: .standalone, text: text, hasTitle: false))
    }

    /// A paragraph of one line that is a note's title to a chapter (``chapterNote``).
    static func isChapterNote(_ piece: StructurePiece) -> Bool {
        guard case .paragraph(let lines, _) = piece, lines.count == 1 else { return false }
        return chapterNote.matches(TextLines.trim(lines[0]))
    }

    /// A paragraph of one line that is a note's title, capitalised.
    static func isTitle(_ piece: StructurePiece) -> Bool {
        guard case .paragraph(let lines, _) = piece, lines.count == 1, lines[0].first?.isUppercase == true else { return false }
        return title.matches(TextLines.trim(lines[0]))
    }
}
