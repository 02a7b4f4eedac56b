/// Gathering a chunk's samples before they are levelled (the chunk renderer's buffer): the
/// appends compiled optimised here, not as generic code in a debug build of their caller, where
/// a second of silence appended cost more than levelling it.
extension Array where Element == Int16 {
    /// Appends `count` zeros.
    public mutating func appendSilence(_ count: Int) {
        append(contentsOf: repeatElement(0, count: count))
    }

    /// Appends `samples`.
    public mutating func appendSamples(_ samples: ArraySlice<Int16>) {
        append(contentsOf: samples)
    }
}
