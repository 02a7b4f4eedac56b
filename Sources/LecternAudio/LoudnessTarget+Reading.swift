import LecternCore

extension LoudnessTarget {
    /// ``gain(integrated:truePeak:)`` for a meter's reading.
    public func gain(for reading: Loudness) -> Double {
        gain(integrated: reading.integrated, truePeak: reading.truePeak)
    }
}
