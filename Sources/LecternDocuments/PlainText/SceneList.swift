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
    static func apply(_ pieces: [StructurePiece]) -> (pieces: [StructurePiece], entries: Set<Int>) {
        guard let first = pieces.firstIndex(where: \.isHeading), first > 0 else { return (pieces, []) }
        // The title: the last paragraph before the first heading, with nothing read between them.
        guard let t = pieces[..<first].lastIndex(where: \.isReadText), case .paragraph(let block, _) = pieces[t], block.count == 1,
              title.matches(CastList.cleaned(block[0])) else { return (pieces, []) }
        var out = pieces
        var entries = Set<Int>()
        var n = first
        while n < pieces.count {
            switch pieces[n] {
            case .heading(let lines, let line, let candidate):
                // An entry names its scene (`ACT I. A garden.`); an act's heading alone opens the play.
                guard candidate.hasTitle || lines.count > 1 else { return (pieces, []) }
                out[n] = .paragraph(lines: lines, firstLine: line)
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
        let later = out[n...].contains { $0.isHeading }
        guard entries.count >= 2, later else { return (pieces, []) }
        return (out, entries)
    }
}
