/// What a format's markup tells the structure pass about its lines (``StructurePass``): which
/// lines start headings it marks, and of those, which are its chapters' and which cannot be.
/// A plain text has none; its words and layout are all the evidence.
struct FormatEvidence: Equatable {
    /// Lines that start a marked heading (`<h1>`–`<h6>`, a shown heading), of any level: no
    /// contents list runs on past one.
    var headings: Set<Int> = []
    /// The marked headings of the level that opens running text: the chapters, when no heading
    /// names itself (`CHAPTER I`, `PREFACE`), in place of short upper-case lines.
    var chapterHeadings: Set<Int> = []
    /// Marked headings deeper than every level whose headings name themselves as chapters or
    /// parts (a `VOL. XII` in a title page's `<h4>` under `<h2>` chapters): never a chapter.
    var notHeadings: Set<Int> = []
    /// Where chapters the format names start (an EPUB's table of contents), in order.
    var namedChapters: [Int] = []
    /// The entries of the contents lists the reader took apart (an HTML table of links), each with
    /// the line after it.
    var contentsLists: [ListedChapters.List] = []
    /// Blocks the format marks as a play's speaker or stage direction (`z3998:persona`,
    /// `span.stagedir`), by their first lines: never a heading's title.
    var playText: Set<Int> = []
    /// The level of each marked heading (1 for `<h1>`), by its first line: a section runs to the next
    /// heading of its level or above.
    var headingLevels: [Int: Int] = [:]

    static let none = FormatEvidence()
}
