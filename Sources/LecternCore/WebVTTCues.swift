/// What a cue of the WebVTT export holds (manifest key `vtt:`).
public enum WebVTTCues: String, Sendable, CaseIterable {
    /// A cue per sentence, however long: for read-along highlighting (the default).
    case sentences
    /// Captions: cues of at most 2 lines of 42 characters and 7 seconds, split at word
    /// boundaries (at a sentence's or clause's end when one is near), word timestamps kept.
    case captions
}
