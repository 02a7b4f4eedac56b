/// An audio format a run writes the book in (`formats: [mp3, m4b, opus]`): every format comes
/// from one render, with the same chapters, metadata and times.
public enum AudioFormat: String, Sendable, CaseIterable, Equatable {
    /// MP3 (MPEG-2 Layer III, LAME) with an ID3v2 tag and CHAP/CTOC chapters: plays everywhere.
    case mp3
    /// AAC-LC in MP4 with iTunes tags, a QuickTime chapter track and Nero chapters: what Apple
    /// Books and most audiobook players show chapters for.
    case m4b
    /// Ogg Opus with Vorbis comments and `CHAPTERnnn` chapters: the smallest file at a given quality.
    case opus

    public var fileExtension: String { rawValue }

    /// Whether the format is encoded from the book's PCM after the render (M4B, Opus), so the
    /// chunks' PCM must be kept in the cache; MP3 is assembled from the chunks' own streams.
    public var needsPCM: Bool { self != .mp3 }
}
