import Foundation
import LecternCore

/// Brings a stretch of speech (a chunk) to a loudness target: measured with ``LoudnessMeter``,
/// turned up or down to the target's integrated loudness, its peaks held under the true-peak
/// limit by a ``PeakLimiter`` — measured again and corrected until both hold, a few passes at
/// most. What it does to a chunk depends on that chunk's samples alone, so a cached chunk stays
/// valid wherever it lies and an edit changes only its own chunks.
public enum LoudnessLeveler {
    /// Room left under the limit for the MP3 encoder's overshoot of the levelled samples' peaks.
    public static let encoderMargin = 0.5
    /// How close to the target integrated loudness a pass must come.
    static let tolerance = 0.3

    /// Levels `samples` (16-bit mono) in place and returns their reading after it; samples with no
    /// measurable loudness (silence, under 400 ms of sound) are left as they are.
    @discardableResult
    public static func level(_ samples: inout [Int16], sampleRate: Int, target: LoudnessTarget) throws -> Loudness {
        let original = samples.map { Float($0) / 32768 }
        // The gain scales the integrated loudness exactly, so the first reading needs no peaks.
        let before = try measure(original, sampleRate: sampleRate, integratedOnly: true)
        guard before.integrated.isFinite else { return before }
        let peakGoal = target.truePeakLimit - encoderMargin
        var gain = target.integrated - before.integrated
        var ceiling = peakGoal - 0.5
        var levelled = original
        var reading = before
        // The integrated loudness is brought to the target with the cheap meter; the true peak's
        // oversampling measures only a levelling whose loudness already holds.
        for _ in 0..<8 {
            let factor = Float(pow(10, gain / 20))
            levelled = original.map { $0 * factor }
            PeakLimiter(ceilingDB: ceiling, sampleRate: sampleRate).apply(to: &levelled)
            reading = try measure(levelled, sampleRate: sampleRate, integratedOnly: true)
            if abs(reading.integrated - target.integrated) > tolerance {
                gain += target.integrated - reading.integrated
                continue
            }
            reading = try measure(levelled, sampleRate: sampleRate)
            guard reading.truePeak > peakGoal else { break }
            ceiling -= reading.truePeak - peakGoal + 0.05
        }
        for i in samples.indices {
            samples[i] = Int16(max(-32768, min(32767, (Double(levelled[i]) * 32768).rounded())))
        }
        return reading
    }

    static func measure(_ samples: [Float], sampleRate: Int, integratedOnly: Bool = false) throws -> Loudness {
        let meter = try LoudnessMeter(sampleRate: sampleRate, integratedOnly: integratedOnly)
        try meter.add(samples)
        return try meter.loudness()
    }
}
