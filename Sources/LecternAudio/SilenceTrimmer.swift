/// Finds where speech starts and ends in a buffer, so that configured pauses are exact
/// instead of adding to the engine's own leading and trailing silence.
public enum SilenceTrimmer {
    /// Samples at or below this magnitude (about −50 dBFS) count as silence.
    public static let threshold: Int16 = 100

    /// The range of `samples` from the first to the last sample louder than ``threshold``;
    /// empty (at 0) when everything is silent.
    public static func speechRange(_ samples: [Int16]) -> Range<Int> {
        guard let first = samples.firstIndex(where: { $0 > threshold || $0 < -threshold }),
              let last = samples.lastIndex(where: { $0 > threshold || $0 < -threshold }) else { return 0..<0 }
        return first..<(last + 1)
    }
}
