import LecternCore

/// A passage that is not narrated, with why.
public struct SkippedPassage: Equatable, Sendable {
    /// The passage as written, whitespace collapsed.
    public var text: String
    /// Why it is not read: "Project Gutenberg header", "contents list", "illustration", "table" …
    public var reason: SkipReason
    public var firstLine: Int
    /// Which side of a start or end marker's cut it lies on, when a marker cut it.
    public var cut: SkippedText.Cut?

    public init(text: String, reason: SkipReason, firstLine: Int, cut: SkippedText.Cut? = nil) {
        self.cut = cut
        self.text = text
        self.reason = reason
        self.firstLine = firstLine
    }
}
