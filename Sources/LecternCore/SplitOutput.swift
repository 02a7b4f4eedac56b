/// Whether a run also writes the book as one file per chapter (manifest key `split:`).
public enum SplitOutput: String, Sendable, CaseIterable {
    /// The book as one MP3 (the default).
    case none
    /// Also a folder `NAME-chapters/` of one MP3 per chapter, each tagged as track n of N of the
    /// book, and a playlist `NAME.m3u8` that lists them in order.
    case chapters
}
