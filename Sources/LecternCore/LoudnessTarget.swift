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

    /// The gain in dB that brings a reading of `integrated` LUFS and `truePeak` dBTP to the target
    /// without its true peak going over the limit: the lesser of `integrated − reading` and
    /// `truePeakLimit − truePeak`.
    ///
    /// A gain is linear, so the true peak moves by exactly the gain; when the peak limit is the
    /// lesser, the result is quieter than the target (only a limiter could reach both). Silence
    /// (no integrated loudness) gets no gain.
    public func gain(integrated reading: Double, truePeak: Double) -> Double {
        guard reading.isFinite else { return 0 }
        let toTarget = integrated - reading
        guard truePeak.isFinite else { return toTarget }
        return min(toTarget, truePeakLimit - truePeak)
    }
}
