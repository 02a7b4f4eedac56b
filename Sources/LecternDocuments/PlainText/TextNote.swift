import LecternCore

/// A footnote body. Its label (`[12]`, `{1}`, `Footnote 1:`) is a separate skipped passage
/// with the reason "footnote label".
public struct TextNote: Equatable, Sendable {
    /// The id the markers use: "12", "01", "*".
    public var id: String
    /// The body, without its label, cleaned like a paragraph.
    public var text: String
    public var firstLine: Int
    /// The label a listener hears it announced by ("3", "A"); nil: its id.
    public var label: String?
    /// Transcriber's codes inside the body, as in a paragraph (added field; usually empty).
    public var silent: [SilentStretch]
    /// Respellings of words holding accent codes (``AccentCodes``), as in a paragraph.
    public var pronunciations: [Pronunciation] = []

    public init(id: String, text: String, firstLine: Int, silent: [SilentStretch] = []) {
        self.id = id
        self.text = text
        self.firstLine = firstLine
        self.silent = silent
    }
}
