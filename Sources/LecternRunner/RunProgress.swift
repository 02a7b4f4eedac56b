/// How far a run has come, reported after every finished chunk.
public struct RunProgress: Sendable {
    public var wordsDone: Int
    public var wordCount: Int
    public var audioSecondsDone: Double
    /// Wall-clock seconds since rendering started.
    public var elapsed: Double
    public var chunksDone: Int
    public var chunkCount: Int

    /// Audio seconds rendered per wall-clock second.
    public var speed: Double { elapsed > 0 ? audioSecondsDone / elapsed : 0 }
    public var fraction: Double { wordCount > 0 ? Double(wordsDone) / Double(wordCount) : 1 }
    /// Estimated seconds left, from the rate so far.
    public var remaining: Double? { fraction > 0.01 ? elapsed * (1 - fraction) / fraction : nil }
}
