/// The editor's notes at the back of a book, under a title of their own (`NOTES AND REFERENCES`,
/// `Notes on the Tales`), each headed by the number and title of the piece it annotates
/// (`I. THE LION AND THE CRANE.`): the numbers are the notes', not the book's chapter series. When
/// every numbered heading of the book stands after such a title in the back half of the book, those
/// headings are no evidence that the chapters are numbered (the book's own headings are then looked
/// for as in a book with none), and they are read as section headings of the notes.
enum BackNotes {
    /// `NOTES`, `Notes and References`, `NOTES ON THE TALES`, `Notes to the Poems.`
    static let title = LinePattern(#"^(?:NOTES|Notes)(?:\s+(?:AND|and|ON|on|TO|to|&)\s+[A-Za-z][A-Za-z ,'’-]{1,40})?\s*[.:]?$"#)

    /// The line of the notes' title when the pieces' numbered headings are all the notes': there are
    /// two or more, every heading that is not a standalone one (`PREFACE`) is numbered and stands after it, and it
    /// stands alone in its block in the back half of the body (`start..<limit`).
    static func start(of pieces: [StructurePiece], lines: [String], start: Int, limit: Int) -> Int? {
        let numbered = pieces.compactMap { piece -> (line: Int, number: Int?)? in
            guard case .heading(_, let line, let c) = piece, c.kind != .standalone else { return nil }
            return (line, c.number)
        }
        guard numbered.count >= 2, numbered.allSatisfy({ $0.number != nil }), let first = numbered.first?.line else { return nil }
        let half = start + (limit - start) / 2
        guard half < min(first, limit) else { return nil }
        return (half..<min(first, limit)).last { i in
            !TextLines.isBlank(lines[i]) && (i == 0 || TextLines.isBlank(lines[i - 1]))
                && (i + 1 >= lines.count || TextLines.isBlank(lines[i + 1])) && title.matches(TextLines.trim(lines[i]))
        }
    }

    /// The pieces with each numbered heading after line `notes` read as a paragraph, and those
    /// paragraphs' first lines (section headings of the notes).
    /// A title's lines under the number's (`Source.—Knowles, …`) are the note's first paragraph.
    static func apply(_ pieces: [StructurePiece], after notes: Int, lines text: [String]) -> (pieces: [StructurePiece], sections: Set<Int>) {
        var sections: Set<Int> = []
        let out = pieces.flatMap { piece -> [StructurePiece] in
            guard case .heading(let lines, let first, let c) = piece, first > notes, c.number != nil else { return [piece] }
            sections.insert(first)
            var out: [StructurePiece] = [.paragraph(lines: [lines[0]], firstLine: first)]
            if lines.count > 1 {
                let key = TextLines.letterKey(lines[1])
                let at = ((first + 1)..<min(first + 10, text.count)).first { TextLines.letterKey(text[$0]) == key } ?? first + 1
                out.append(.paragraph(lines: Array(lines.dropFirst()), firstLine: at))
            }
            return out
        }
        return (out, sections)
    }
}
