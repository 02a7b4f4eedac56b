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

    /// The 0-based index of the item's first line.
    public var firstLine: Int {
        switch self {
        case .heading(let h): h.firstLine
        case .paragraph(let p): p.firstLine
        case .note(let n): n.firstLine
        case .sectionBreak(let line): line
        case .skipped(let s): s.firstLine
        }
    }
}

/// A part or chapter heading, as its lines are written.
public struct TextHeading: Equatable, Sendable {
    /// Parts (BOOK, PART, VOLUME, EPOCH … holding chapters) and chapters.
    public enum Level: Equatable, Sendable { case part, chapter }
    public var level: Level
    /// The heading's lines as written (trimmed, inner whitespace collapsed, `_italics_` marks removed),
    /// e.g. ["CHAPTER I.", "Down the Rabbit-Hole"]. Each is spoken as its own heading utterance.
    public var lines: [String]
    /// The title for the table of contents (ID3 chapter): the lines joined with " ".
    public var title: String { lines.joined(separator: " ") }
    /// 0-based line index of the heading's first line.
    public var firstLine: Int

    public init(level: Level, lines: [String], firstLine: Int) {
        self.level = level
        self.lines = lines
        self.firstLine = firstLine
    }
}

/// Running text: the lines of one paragraph joined and cleaned.
public struct TextParagraph: Equatable, Sendable {
    /// Whitespace collapsed to single spaces, trimmed; `_italics_` underscores removed.
    public var text: String
    /// Stretches of `text` that stay in the text but are not spoken: footnote markers, transcriber's
    /// bracket codes, an `[Illustration]` inside a line of text. UTF-16 offsets into `text`.
    public var silent: [SilentStretch]
    /// Footnote ids referred to by markers in this paragraph, in order ("12", "01", "*").
    public var noteReferences: [String]
    public var firstLine: Int

    public init(text: String, silent: [SilentStretch] = [], noteReferences: [String] = [], firstLine: Int) {
        self.text = text
        self.silent = silent
        self.noteReferences = noteReferences
        self.firstLine = firstLine
    }
}

/// A stretch of a paragraph's text that is kept (so offsets keep their place) but not spoken.
public struct SilentStretch: Equatable, Sendable {
    /// UTF-16 offset into the text.
    public var offset: Int
    /// UTF-16 length.
    public var length: Int
    /// "footnote marker", "transcriber's code", "illustration" or "formatting markup".
    public var reason: String

    public init(offset: Int, length: Int, reason: String) {
        self.offset = offset
        self.length = length
        self.reason = reason
    }
}

/// A footnote body. Its label (`[12]`, `{1}`, `Footnote 1:`) is a separate skipped passage
/// with the reason "footnote label".
public struct TextNote: Equatable, Sendable {
    /// The id the markers use: "12", "01", "*".
    public var id: String
    /// The body, without its label, cleaned like a paragraph.
    public var text: String
    public var firstLine: Int
    /// Transcriber's codes inside the body, as in a paragraph (added field; usually empty).
    public var silent: [SilentStretch]

    public init(id: String, text: String, firstLine: Int, silent: [SilentStretch] = []) {
        self.id = id
        self.text = text
        self.firstLine = firstLine
        self.silent = silent
    }
}

/// A passage that is not narrated, with why.
public struct SkippedPassage: Equatable, Sendable {
    /// The passage as written, whitespace collapsed.
    public var text: String
    /// Why it is not read: "Project Gutenberg header", "contents list", "illustration", "table" …
    public var reason: String
    public var firstLine: Int

    public init(text: String, reason: String, firstLine: Int) {
        self.text = text
        self.reason = reason
        self.firstLine = firstLine
    }
}
