import LecternCore

/// A passage the reading pass took for one it leaves out (an errata list, a contents list …)
/// that is too long to be one (``SkipBounds``): it is read, and the reader warns.
public struct OversizedSkip: Equatable, Sendable {
    /// The kind it was taken for: a skipped passage's reason.
    public var reason: SkipReason
    public var words: Int
    /// The most words a passage of its kind holds.
    public var bound: Int
    /// Its first few words.
    public var firstWords: String
    /// The 0-based index of its first line.
    public var firstLine: Int

    public init(reason: SkipReason, words: Int, bound: Int, firstWords: String, firstLine: Int) {
        (self.reason, self.words, self.bound, self.firstWords, self.firstLine) = (reason, words, bound, firstWords, firstLine)
    }

    /// The first eight words of `text`, with "…" when there are more.
    static func opening(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(8).joined(separator: " ") + (words.count > 8 ? " …" : "")
    }

    /// The warning, for the passage in `source`, in chapter `chapter` (nil: before the first);
    /// `showsLine`: the line is the file's own (a plain text's, not a page laid out as lines).
    public func warning(source: String, chapter: Int?, showsLine: Bool) -> String {
        let place = (chapter.map { "chapter \($0)" } ?? "before the first chapter") + (showsLine ? ", line \(firstLine + 1)" : "")
        return "\(source): \"\(firstWords)\" (\(place)) looks like \(reason) but is \(words) words, more than \(bound) "
            + "such a passage holds: it is read, not skipped"
    }
}
