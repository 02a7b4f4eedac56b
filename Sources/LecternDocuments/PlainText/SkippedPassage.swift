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
