import Foundation
import LecternCore

/// Brings a stretch of speech (a chunk) to a loudness target: measured with `IntegratedLoudness`,
/// turned up or down to the target's integrated loudness, its peaks held under the true-peak
/// limit by a ``PeakLimiter`` — checked again and corrected until both hold, a few passes at
/// most. What it does to a chunk depends on that chunk's samples alone, so a cached chunk stays
/// valid wherever it lies and an edit changes only its own chunks.
///
/// A gain scales the integrated loudness exactly, so the chunk is measured once; after the limiter
/// has turned some peaks down, only the 100 ms segments it changed are measured again. The true
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

    /// Levels `samples` (16-bit mono) in place and returns their reading after it; samples with no
    /// measurable loudness (silence, under 400 ms of sound) are left as they are. The reading's
    /// true peak is exact when it is over the goal (the limit less the encoder margin; some value
    /// under the goal otherwise), and its loudness range is not measured (0).
    @discardableResult
    public static func level(_ samples: inout [Int16], sampleRate: Int, target: LoudnessTarget,
                             workspace: Workspace = .current) throws -> Loudness {
        var levelled = workspace.levelled
        workspace.levelled = []
        defer { workspace.levelled = levelled }
        // Every value is written below before it is read; only the length is set here.
        if levelled.count != samples.count { Workspace.zeroed(&levelled, count: samples.count) }
        let weighted = workspace.weighted
        var loudest: Int32 = 0
        for sample in samples { loudest = max(loudest, abs(Int32(sample))) }
        let meter = IntegratedLoudness(sampleRate: sampleRate)
        // The chunk is measured once, its K-weighted samples kept: a gain scales its segments'
        // energies; what the limiter then changes is measured where it changed (by linearity).
        // (The filter reads floats faster than it converts 16-bit samples one by one.)
        samples.withUnsafeBufferPointer { original in
            levelled.withUnsafeMutableBufferPointer { out in
                for i in 0..<original.count { out[i] = Float(original[i]) * (1 / 32768) }
            }
        }
        let energies = levelled.withUnsafeBufferPointer { meter.segmentEnergies($0, weighted: weighted) }
        let unlevelled = meter.loudness(energies: energies)
        guard unlevelled.isFinite else {
            return Loudness(integrated: -.infinity, truePeak: 0, samplePeak: 0, range: 0, frameCount: samples.count, sampleRate: sampleRate)
        }
        // A limit over full scale means full scale: 16-bit samples hold nothing louder (and the
        // conversion back below relies on every value staying under it).
        let peakGoal = min(target.truePeakLimit, 0) - encoderMargin
        let peakLimit = Float(pow(10, peakGoal / 20))
        let estimator = TruePeakEstimator(sampleRate: sampleRate)
        var gain = target.integrated - unlevelled
        var ceiling = peakGoal - intersampleRoom
        // A chunk whose peaks the limiter will turn down loses about a quarter of a LU to it: aim
        // that much higher, so that one limited pass usually lands within the tolerance.
        if Double(loudest) / 32768 * pow(10, gain / 20) > pow(10, ceiling / 20) { gain += expectedLimiterLoss }
        var integrated = unlevelled
        var truePeak: Float = 0
        var changed: [ClosedRange<Int>] = []
        for _ in 0..<8 {
            let factor = Float(pow(10, gain / 20) / 32768)
            samples.withUnsafeBufferPointer { original in
                levelled.withUnsafeMutableBufferPointer { out in
                    for i in 0..<original.count { out[i] = Float(original[i]) * factor }
                }
            }
            changed.removeAll(keepingCapacity: true)
            let limiter = PeakLimiter(ceilingDB: ceiling, sampleRate: sampleRate)
            let limited = levelled.withUnsafeMutableBufferPointer { limiter.apply(to: $0, changed: &changed) }
            if limited > 0 {
                let linear = pow(10, gain / 20)
                var after = energies.map { $0 * linear * linear }
                samples.withUnsafeBufferPointer { original in
                    levelled.withUnsafeBufferPointer { levelled in
                        meter.update(&after, weighted: weighted, scale: linear, after: levelled, original: original, factor: factor,
                                     changed: changed)
                    }
                }
                integrated = meter.loudness(energies: after)
            } else {
                integrated = unlevelled + gain
            }
            if abs(integrated - target.integrated) > tolerance {
                gain += target.integrated - integrated
                continue
            }
            truePeak = estimator.peak(of: levelled, atLeast: peakLimit)
            guard truePeak > peakLimit else { break }
            ceiling -= 20 * log10(Double(truePeak / peakLimit)) + 0.05
        }
        if truePeak == 0 { truePeak = estimator.peak(of: levelled, atLeast: peakLimit) }
        levelled.withUnsafeBufferPointer { levelled in
            samples.withUnsafeMutableBufferPointer { samples in
                // Rounded to the nearest (ties to even) by adding 1.5 × 2²³, which leaves the
                // integer in the float's low bits: no conversion check or libm call per sample,
                // eight samples at a time.
                let magic: Float = 12_582_912
                let offset = Int32(bitPattern: magic.bitPattern)
                let whole = samples.count / 8 * 8
                if let input = levelled.baseAddress, let output = samples.baseAddress {
                    for i in stride(from: 0, to: whole, by: 8) {
                        // No clamping: the limiter has kept every value under its ceiling, at most
                        // −0.8 dBFS (the goal, under full scale, less the room for intersample peaks).
                        let scaled = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD8<Float>.self) * 32768
                        let bits = unsafeBitCast(scaled + SIMD8(repeating: magic), to: SIMD8<Int32>.self) &- SIMD8(repeating: offset)
                        UnsafeMutableRawPointer(output + i).storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: bits), as: SIMD8<Int16>.self)
                    }
                }
                for i in whole..<samples.count {
                    let scaled = min(32767, max(-32768, levelled[i] * 32768))
                    samples[i] = Int16(truncatingIfNeeded: Int32(bitPattern: (scaled + magic).bitPattern) &- offset)
                }
            }
        }
        var samplePeak: Int32 = 0
        for sample in samples { samplePeak = max(samplePeak, abs(Int32(sample))) }
        return Loudness(integrated: integrated, truePeak: 20 * log10(Double(truePeak)), samplePeak: 20 * log10(Double(samplePeak) / 32768),
                        range: 0, frameCount: samples.count, sampleRate: sampleRate)
    }
}
