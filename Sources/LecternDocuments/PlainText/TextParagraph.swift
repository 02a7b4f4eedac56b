import LecternCore

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
    /// What the format said the block is (a list item, a quotation, a heading below the chapters').
    public var kind: BlockKind = .paragraph
    /// The block's language, its spans in other languages and its pronunciations, as its reader
    /// found them (UTF-16 offsets into `text`); a plain text has none.
    public var language: String?
    public var spans: [LanguageSpan] = []
    public var pronunciations: [Pronunciation] = []
    /// The whole paragraph was set in italics (`_…_`): in a play, a stage direction.
    public var italic = false
    /// The length (UTF-16) of a speaker's label the format's markup sets at the paragraph's start
    /// (`<b>Lane.</b>`): a candidate ``PlayReading`` weighs with the labels the text shows.
    public var speakerLabel: Int?

    public init(text: String, silent: [SilentStretch] = [], noteReferences: [String] = [], firstLine: Int) {
        self.text = text
        self.silent = silent
        self.noteReferences = noteReferences
        self.firstLine = firstLine
    }
}
