import LecternAudio

/// The chunk streams of one chapter (chunks never cross chapters): concatenated, they are the
/// chapter's own MP3, whose time t is the book's time `startSample + t` (in samples).
public struct ChapterAudio: Sendable {
    public var parts: [MP3BookAssembler.Part]
    /// Where the chapter's first chunk starts in the decoded book.
    public var startSample: Int
    /// Samples after the last chunk's audio that decoders must drop.
    public var endPadding: Int
    /// Length of the decoded chapter file.
    public var sampleCount: Int

    public init(parts: [MP3BookAssembler.Part], startSample: Int, endPadding: Int, sampleCount: Int) {
        self.parts = parts
        self.startSample = startSample
        self.endPadding = endPadding
        self.sampleCount = sampleCount
    }
}
