import Foundation

/// Marks inside running text that stay in the text but are not spoken: footnote markers
/// (`[1]`, `[01]`, `[4a]`, `[*]`, `{1}`, `^1`, `[†]`) and transcriber's codes (bracketed notation that is
/// not prose: no spaces and some non-letter such as `+ = : / | -` — `[f++]`, `[c=]`, `[4/4]` — or a
/// short tag with a colon, `[F: a,]`); also Project Gutenberg's `/* NIND … */` block markup and the braces of
/// superscripts `M^{r.}` ("formatting markup"), and a bracketed transcriber's note inside a line. A one-letter `[A]` is a marker when the book has a note `A`.
enum InlineMarks {
    static let footnoteMarker = "footnote marker"
    static let transcribersCode = "transcriber's code"
    static let illustration = "illustration"
    static let formattingMarkup = "formatting markup"
    static let transcribersNote = "transcriber's note"
    /// Project Gutenberg's block markup left in some texts: `/* NIND “My dear friend, */`.
    static let superscript = LinePattern(#"\^\{[^{}\n]{1,12}\}"#)
    static let markup = LinePattern(#"/\*(?:\s*[A-Z]{2,8}\b)?|\*/"#)

    static let pattern = LinePattern(#"\[([^\[\]\n]{1,200})\]|\{(\d{1,3}|\*|†)\}|\^(\d{1,3}|†)"#)
    static let markerContent = LinePattern(#"^(\d{1,3}[a-z]?|\*{1,3}|†|‡)$"#)
    /// `[W: …]`, `[G:]`, `[f++: …]`: a short tag; not a word (`[Note: Throughout…]` is read).
    static let taggedCode = LinePattern(#"^(?:[A-Za-z0-9/+=.#-]{1,2}|[A-Z0-9/+=.#-]{3,5}):"#)

    /// The silent stretches of `text` (UTF-16 offsets) and the footnote ids its markers refer to.
    /// `letterNotes`: one-letter ids of the book's notes; `[A]` is a marker only when a note `A` exists.
    /// `skipIllustrations`: an `[Illustration]` inside a line of text is a silent stretch ("illustration").
    /// `definedCodes`: bracket contents a transcriber's note defines (`[Podium] = …`): codes wherever they appear.
    static func find(in text: String, letterNotes: Set<String> = [], definedCodes: Set<String> = [], skipIllustrations: Bool = true)
        -> (silent: [SilentStretch], references: [String]) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "^") || $0 == UInt8(ascii: "*") })
        else { return ([], []) }
        var silent: [SilentStretch] = []
        var references: [String] = []
        let ns = text as NSString
        if TextLines.has(text, "^{") {
            // Superscripts `M^{r.}`: the braces are markup, the letters are read (`Mr.`).
            for m in superscript.allMatches(text) {
                silent.append(SilentStretch(offset: m.range.location, length: 2, reason: formattingMarkup))
                silent.append(SilentStretch(offset: m.range.location + m.range.length - 1, length: 1, reason: formattingMarkup))
            }
        }
        if TextLines.has(text, "/*") || TextLines.has(text, "*/") {
            for m in markup.allMatches(text) {
                silent.append(SilentStretch(offset: m.range.location, length: m.range.length, reason: formattingMarkup))
            }
        }
        let notes = producersNotes(in: text)
        silent += notes
        for m in pattern.allMatches(text) where !notes.contains(where: { $0.offset <= m.range.location && m.range.location < $0.offset + $0.length }) {
            var id: String?
            var isCode = false
            for group in 1...3 where m.range(at: group).location != NSNotFound {
                let content = ns.substring(with: m.range(at: group))
                if group > 1 || markerContent.matches(content) || letterNotes.contains(content) {
                    id = content
                } else {
                    isCode = isCodeContent(content) || definedCodes.contains(content)
                }
            }
            if let id {
                silent.append(SilentStretch(offset: m.range.location, length: m.range.length, reason: footnoteMarker))
                references.append(id)
            } else if isCode {
                silent.append(SilentStretch(offset: m.range.location, length: m.range.length, reason: transcribersCode))
            } else if TranscribersNote.starts(ns.substring(with: m.range)) {
                // `[Transcriber's note: …]`, `[Note Project Gutenberg: …]` inside a line: the producer's, not the book's.
                silent.append(SilentStretch(offset: m.range.location, length: m.range.length, reason: transcribersNote))
            } else if skipIllustrations, IllustrationMark.opens(ns.substring(with: m.range)) {
                silent.append(SilentStretch(offset: m.range.location, length: m.range.length, reason: illustration))
            }
        }
        silent.sort { $0.offset < $1.offset }
        return (silent, references)
    }

    /// Bracketed transcriber's or producer's notes (`[Note Project Gutenberg: music transcribed …]`) to
    /// their closing bracket, however long and whatever brackets they hold (the music's code itself).
    static func producersNotes(in text: String) -> [SilentStretch] {
        guard TextLines.has(text, "[") else { return [] }
        var found: [SilentStretch] = []
        var i = text.startIndex
        while let open = text[i...].firstIndex(of: "[") {
            let head = String(text[open...].prefix(120))
            guard TranscribersNote.starts(head), let close = Brackets.closingIndex(in: text[open...]) else {
                i = text.index(after: open)
                continue
            }
            let offset = text.utf16.distance(from: text.startIndex, to: open)
            var length = text.utf16.distance(from: open, to: close)
            // The code it introduces (`music transcribed in Lilypond format] \layout { …`), to the end: silent too.
            let rest = text[close...]
            if TranscribersNote.introducesCode(String(text[open..<close])), !rest.isEmpty,
               TranscribersNote.isCodeLine(String(rest.prefix(60))) {
                length = text.utf16.distance(from: open, to: text.endIndex)
                found.append(SilentStretch(offset: offset, length: length, reason: transcribersNote))
                break
            }
            found.append(SilentStretch(offset: offset, length: length, reason: transcribersNote))
            i = close
        }
        return found
    }

    /// Bracket content that is notation rather than words (`f++`, `4/4`, `C|`, `G:`, `F: a,`).
    static func isCodeContent(_ content: String) -> Bool {
        if taggedCode.matches(content) { return true }
        if content.contains(where: \.isWhitespace) {
            // `[S = M M M]`, `[4. = 8 8 8]`: symbols between one- and two-letter tokens, no word.
            // `[- ' ' -]`, `[2 4]`, `[16 16 8 4]`: rhythms and figures, no letter at all.
            let tokens = content.split(whereSeparator: \.isWhitespace)
            return !tokens.contains { $0.filter(\.isLetter).count >= 3 }
                && (content.contains(where: { "+=|/\\<>^~".contains($0) }) || !content.contains(where: \.isLetter))
        }
        if content.allSatisfy({ $0.isLetter }) { return false }  // `[sic]`, `[Gamma]`: words, spoken
        if content.contains(where: { "+=:/|\\-#<>^~'’.,()".contains($0) }) { return true }
        return false
    }
}
