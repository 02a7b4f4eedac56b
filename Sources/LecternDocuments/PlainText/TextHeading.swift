/// A part or chapter heading, as its lines are written.
public struct TextHeading: Equatable, Sendable {
    /// Parts (BOOK, PART, VOLUME, EPOCH … holding chapters) and chapters.
    public enum Level: Equatable, Sendable { case part, chapter }
    public var level: Level
    /// The heading's lines as written (trimmed, inner whitespace collapsed, `_italics_` marks removed),
    /// e.g. ["CHAPTER I.", "Down the Rabbit-Hole"]. Each is spoken as its own heading utterance.
    public var lines: [String]
    /// The title a contents list gives a heading that shows only its number (`IV.` listed as
    /// `IV. The Storm`): in the table of contents and chapter marks, not spoken.
    public var listedTitle: String?
    /// The title for the table of contents (ID3 chapter): the lines joined with " ", then the
    /// listed title; without the notes' markers (`Association.[8]`), which are not spoken either.
    public var title: String { Footnotes.withoutMarkers((lines + [listedTitle].compactMap { $0 }).joined(separator: " ")) }
    /// 0-based line index of the heading's first line.
    public var firstLine: Int

    public init(level: Level, lines: [String], firstLine: Int, listedTitle: String? = nil) {
        self.listedTitle = listedTitle
        self.level = level
        self.lines = lines
        self.firstLine = firstLine
    }
}
