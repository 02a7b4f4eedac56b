import Foundation
import LecternCore

/// Brings a stretch of speech (a chunk) to a loudness target: measured with `IntegratedLoudness`,
/// turned up or down to the target's integrated loudness, its peaks held under the true-peak
/// limit by a ``PeakLimiter`` — checked again and corrected until both hold, a few passes at
/// most. What it does to a chunk depends on that chunk's samples alone, so a cached chunk stays
/// valid wherever it lies and an edit changes only its own chunks.
///
/// A gain scales the integrated loudness exactly, so the chunk is measured once; it is measured
/// again (integrated loudness only) only after the limiter has turned some peaks down. The true
/// peak is ``TruePeakEstimator``'s: libebur128's oversampling, but only around the loudest samples.
public enum LoudnessLeveler {
    /// Room left under the limit for the MP3 encoder's overshoot of the levelled samples' peaks.
    public static let encoderMargin = 0.5
    /// How close to the target integrated loudness a pass must come.
    static let tolerance = 0.3
    /// How far under the true-peak goal the limiter's (sample) ceiling starts: room for the
    /// peaks between samples, which the limiter does not see.
    static let intersampleRoom = 0.3
    /// What the limiter typically takes off a chunk's integrated loudness (LU), added to the first
    /// pass's gain when it will limit.
    static let expectedLimiterLoss = 0.25
    /// How far under the goal the true peak is computed exactly (below, only "under").
    static let exactPeakRange = 1.0

    /// Levels `samples` (16-bit mono) in place and returns their reading after it; samples with no
    /// measurable loudness (silence, under 400 ms of sound) are left as they are. The reading's
    /// true peak is exact when it is within 1 dB of the limit (less than that otherwise), and
    /// its loudness range is not measured (0).
    @discardableResult
    public static func level(_ samples: inout [Int16], sampleRate: Int, target: LoudnessTarget) throws -> Loudness {
        var levelled = samples.map { Float($0) / 32768 }
        let meter = IntegratedLoudness(sampleRate: sampleRate)
        let unlevelled = meter.loudness(of: levelled)
        guard unlevelled.isFinite else {
            return Loudness(integrated: -.infinity, truePeak: 0, samplePeak: 0, range: 0, frameCount: samples.count, sampleRate: sampleRate)
        }
        let peakGoal = target.truePeakLimit - encoderMargin
        let peakLimit = Float(pow(10, peakGoal / 20))
        let estimator = TruePeakEstimator(sampleRate: sampleRate)
        var gain = target.integrated - unlevelled
        var ceiling = peakGoal - intersampleRoom
        // A chunk whose peaks the limiter will turn down loses about a quarter of a LU to it: aim
        // that much higher, so that one limited pass usually lands within the tolerance.
        let loudest = samples.reduce(Int32(0)) { max($0, abs(Int32($1))) }
        if Double(loudest) / 32768 * pow(10, gain / 20) > pow(10, ceiling / 20) { gain += expectedLimiterLoss }
        var integrated = unlevelled
        var truePeak: Float = 0
        for _ in 0..<8 {
            let factor = Float(pow(10, gain / 20) / 32768)
            samples.withUnsafeBufferPointer { original in
                levelled.withUnsafeMutableBufferPointer { out in
                    for i in 0..<original.count { out[i] = Float(original[i]) * factor }
                }
            }
            let limited = PeakLimiter(ceilingDB: ceiling, sampleRate: sampleRate).apply(to: &levelled)
            integrated = limited > 0 ? meter.loudness(of: levelled) : unlevelled + gain
            if abs(integrated - target.integrated) > tolerance {
                gain += target.integrated - integrated
                continue
            }
            truePeak = estimator.peak(of: levelled, atLeast: peakLimit * Float(pow(10, -exactPeakRange / 20)))
            guard truePeak > peakLimit else { break }
            ceiling -= 20 * log10(Double(truePeak / peakLimit)) + 0.05
        }
        if truePeak == 0 { truePeak = estimator.peak(of: levelled, atLeast: peakLimit * Float(pow(10, -exactPeakRange / 20))) }
        var samplePeak: Int32 = 0
        levelled.withUnsafeBufferPointer { levelled in
            samples.withUnsafeMutableBufferPointer { samples in
                for i in 0..<samples.count {
                    let value = Int16(max(-32768, min(32767, (levelled[i] * 32768).rounded())))
                    samples[i] = value
                    samplePeak = max(samplePeak, abs(Int32(value)))
                }
            }
        }
        return Loudness(integrated: integrated, truePeak: 20 * log10(Double(truePeak)), samplePeak: 20 * log10(Double(samplePeak) / 32768),
                        range: 0, frameCount: samples.count, sampleRate: sampleRate)
    }
}
