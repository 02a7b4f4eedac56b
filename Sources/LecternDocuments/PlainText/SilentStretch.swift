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
