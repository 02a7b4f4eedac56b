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
