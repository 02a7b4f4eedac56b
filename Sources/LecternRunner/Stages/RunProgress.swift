/// How far a run has come, reported after every finished chunk.
public struct RunProgress: Sendable {
    public var wordsDone: Int
    public var wordCount: Int
    public var audioSecondsDone: Double
    /// Wall-clock seconds since rendering started.
    public var elapsed: Double
    public var chunksDone: Int
    public var chunkCount: Int
    /// Audio seconds of `audioSecondsDone` that came from the cache.
    public var audioSecondsReused: Double = 0

    /// Audio seconds rendered per wall-clock second (reused chunks do not count).
    public var speed: Double { elapsed > 0 ? (audioSecondsDone - audioSecondsReused) / elapsed : 0 }
    public var fraction: Double { wordCount > 0 ? Double(wordsDone) / Double(wordCount) : 1 }
    /// Estimated seconds left, from the rate so far (of rendered chunks only).
    public var remaining: Double? {
        let rendered = audioSecondsDone - audioSecondsReused
        guard rendered > 0, fraction > 0.01, fraction < 1, audioSecondsDone > 0 else { return nil }
        let left = audioSecondsDone / fraction - audioSecondsDone  // audio still to render, by words
        return left / rendered * elapsed
    }
}
