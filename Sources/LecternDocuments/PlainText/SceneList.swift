/// A play's list of scenes before its first act, under its title (`THE SCENES OF THE PLAY`,
/// `SYNOPSIS OF SCENES`): `ACT I. Algernon Moncrieff's Flat in Half-Moon Street, W.`, one line
/// an act. Its lines name the acts, but they are front matter, never chapters: read with the cast
/// list (``CastList``) when one stands before it, else front matter as ever.
enum SceneList {
    static let title = LinePattern(
        #"^(?:THE\s+)?(?:SCENES(?:\s+OF\s+THE\s+(?:PLAY|COMEDY|TRAGEDY|DRAMA))?|SYNOPSIS(?:\s+OF\s+(?:SCENES|SCENERY))?|LIST\s+OF\s+SCENES)\s*[.:]?$"#,
        caseInsensitive: true)

    /// The pieces with a list of scenes' headings made paragraphs, and the first lines of its
    /// entries: the headings naming a scene that follow its title one after another, with no text
    /// between them, when more headings follow later (the acts themselves).
    /// `lines`: the text as written, to find the lines a heading took in after its own (`TIME:
    /// The Present.` under the last act's line), which are paragraphs of their own.
    static func apply(_ pieces: [StructurePiece], lines: [String]) -> (pieces: [StructurePiece], entries: Set<Int>) {
        guard let first = pieces.firstIndex(where: \.isHeading), first > 0 else { return (pieces, []) }
        // The title: the last paragraph before the first heading, with nothing read between them.
        guard let t = pieces[..<first].lastIndex(where: \.isReadText), case .paragraph(let block, _) = pieces[t], block.count == 1,
              title.matches(CastList.cleaned(block[0])) else { return (pieces, []) }
        var out: [[StructurePiece]] = pieces.map { [$0] }
        var entries = Set<Int>()
        var n = first
        while n < pieces.count {
            switch pieces[n] {
            case .heading(let headingLines, let line, let candidate):
                // An entry names its scene (`ACT I. A garden.`); an act's heading alone opens the play.
                guard candidate.hasTitle || headingLines.count > 1 else { return (pieces, []) }
                // A line that names its scene is the whole entry; what the heading took in after it stands apart.
                out[n] = candidate.hasTitle
                    ? [.paragraph(lines: [headingLines[0]], firstLine: line)] + Self.paragraphs(headingLines.dropFirst(), after: line, in: lines)
                    : [.paragraph(lines: headingLines, firstLine: line)]
                entries.insert(line)
            case .skipped, .sectionBreak:
                break
            default:
                n = pieces.count
                continue
            }
            n += 1
            if n < pieces.count, case .paragraph = pieces[n] { break }
        }
        let later = pieces[n...].contains { $0.isHeading }
        guard entries.count >= 2, later else { return (pieces, []) }
        return (out.flatMap { $0 }, entries)
    }

    /// Each of `taken` (a heading's lines after its first) as a paragraph at the line where it is
    /// written after `line`.
    static func paragraphs(_ taken: ArraySlice<String>, after line: Int, in text: [String]) -> [StructurePiece] {
        var at = line
        return taken.map { wanted in
            let key = TextLines.collapse(wanted)
            if let found = text.indices.dropFirst(at + 1).first(where: { CastList.cleaned(text[$0]) == key }) { at = found } else { at += 1 }
            return .paragraph(lines: [wanted], firstLine: at)
        }
    }
}
