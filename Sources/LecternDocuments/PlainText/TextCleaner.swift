/// Turns a paragraph's or note's lines into the text Lectern narrates: whitespace collapsed,
/// `_italics_` marks removed, footnote markers and transcriber's codes listed as silent stretches.
enum TextCleaner {
    /// `letterNotes`: the one-letter note ids the book has (`[Footnote A: …]`), so `[A]` is a marker.
    /// `definedCodes`: the bracket codes the book's transcriber's note defines.
    static func paragraph(_ lines: [String], firstLine: Int, letterNotes: Set<String> = [], definedCodes: Set<String> = [],
                          skipIllustrations: Bool = true) -> TextParagraph {
        let text = Emphasis.remove(TextLines.collapse(lines.joined(separator: " ")))
        let marks = InlineMarks.find(in: text, letterNotes: letterNotes, definedCodes: definedCodes, skipIllustrations: skipIllustrations)
        return TextParagraph(text: text, silent: marks.silent, noteReferences: marks.references, firstLine: firstLine)
    }

    static func note(id: String, lines: [String], firstLine: Int, definedCodes: Set<String> = []) -> TextNote {
        let text = Emphasis.remove(TextLines.collapse(lines.joined(separator: " ")))
        let marks = InlineMarks.find(in: text, definedCodes: definedCodes)
        return TextNote(id: id, text: text, firstLine: firstLine, silent: marks.silent.filter {
            $0.reason == InlineMarks.transcribersCode || $0.reason == InlineMarks.transcribersNote
        })
    }
}
