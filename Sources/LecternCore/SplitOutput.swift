/// Whether a run also writes the book as one file per chapter (`split:`).
public enum SplitOutput: String, Sendable, CaseIterable {
    /// The book as one file per format (the default).
    case none
    /// Also a folder `NAME-chapters/` of one file per chapter in each format, each tagged as
    /// track n of N of the book, and a playlist per format that lists them in order.
    case chapters
    /// The chapter files and playlists of ``chapters`` instead of the book as one file.
    case chaptersOnly = "chapters-only"

    /// Whether the book is written as one file per format.
    public var writesBook: Bool { self != .chaptersOnly }
    /// Whether the book is written as one file per chapter.
    public var writesChapters: Bool { self != .none }
}
