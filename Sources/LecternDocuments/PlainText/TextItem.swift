/// One piece of a plain text as a narrator meets it: a heading, running text, a footnote body,
/// a pause between sections, or a passage that is not read aloud.
public enum TextItem: Equatable, Sendable {
    /// A part or chapter heading.
    case heading(TextHeading)
    /// Running text to be narrated.
    case paragraph(TextParagraph)
    /// A footnote body.
    case note(TextNote)
    /// `***`, `* * *`, `-----`, `~` … between paragraphs: a pause.
    case sectionBreak(line: Int)
    /// Not narrated, with the reason.
    case skipped(SkippedPassage)
    /// A chapter the format names for certain (an EPUB's table of contents), its title not
    /// spoken: the text's own headings are then read as headings inside it.
    case chapter(title: String, line: Int)
    /// A passage taken for one that is left out, too long to be one (``SkipBounds``): what follows
    /// reads it, and the reader warns.
    case oversizedSkip(OversizedSkip)

    /// The 0-based index of the item's first line.
    public var firstLine: Int {
        switch self {
        case .heading(let h): h.firstLine
        case .paragraph(let p): p.firstLine
        case .note(let n): n.firstLine
        case .sectionBreak(let line): line
        case .skipped(let s): s.firstLine
        case .chapter(_, let line): line
        case .oversizedSkip(let o): o.firstLine
        }
    }
}
