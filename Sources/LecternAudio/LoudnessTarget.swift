import Foundation

/// Where a chapter's loudness is brought: an integrated loudness, and a true-peak ceiling no gain
/// may push the audio over (`loudness: {target: -18, true_peak: -1.5}`).
public struct LoudnessTarget: Sendable, Equatable, Codable {
    /// The integrated loudness wanted, in LUFS.
    public var integrated: Double
    /// The highest true peak allowed, in dBTP.
    public var truePeakLimit: Double

    public init(integrated: Double, truePeakLimit: Double) {
        self.integrated = integrated
        self.truePeakLimit = truePeakLimit
    }

    /// Lectern's default: −18 LUFS, true peak at most −1.5 dBTP (spoken word; ACX asks for
    /// −23 to −18 LUFS RMS and peaks under −3 dBFS, podcasts commonly −16 to −19 LUFS).
    public static let standard = LoudnessTarget(integrated: -18, truePeakLimit: -1.5)

    /// The gain in dB that brings `reading` to the target without its true peak going over the
    /// limit: the lesser of `integrated − reading.integrated` and `truePeakLimit − reading.truePeak`.
    ///
    /// A gain is linear, so the true peak moves by exactly the gain; when the peak limit is the
    /// lesser, the result is quieter than the target (only a limiter could reach both). Silence
    /// (no integrated loudness) gets no gain.
    public func gain(for reading: Loudness) -> Double {
        guard reading.integrated.isFinite else { return 0 }
        let toTarget = integrated - reading.integrated
        guard reading.truePeak.isFinite else { return toTarget }
        return min(toTarget, truePeakLimit - reading.truePeak)
    }
}
