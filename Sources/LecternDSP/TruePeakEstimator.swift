import Foundation

/// The true (inter-sample) peak of samples held in memory, computed as libebur128 computes it
/// (below 96 kHz: 4× oversampling by a 49-tap Hann-windowed sinc, in four phases; 2× below
/// 192 kHz; the sample peak above) but only where it can reach a given level.
///
/// A value between samples is a weighted sum of the 12 samples around it, so it is at most
/// their peak times the sum of its phase's absolute weights (``gainBound``, about 1.5). Only the
/// stretches around samples within that factor of the level are interpolated — a small part of
/// speech — and the result is exact (libebur128's, to the float rounding of its output) whenever
/// the true peak is at least the level. Unlike libebur128, the values after the last sample are
/// interpolated too (from zeros beyond the end), which can only raise the peak.
public struct TruePeakEstimator: Sendable {
    /// Interpolated values per sample interval (1 when the rate needs none).
    public let factor: Int
    /// For each fractional phase (1 ..< factor), each weight and the offset of its sample from
    /// the sample before the interpolated point, in libebur128's order of summation.
    let phases: [[(offset: Int, weight: Double)]]
    /// The most an interpolated value can exceed the peak of the samples it is made of.
    public let gainBound: Double
    /// The lowest and highest sample offset any phase uses.
    let reach: ClosedRange<Int>
    /// Each phase's weights as one vector, lane j for the sample at offset `reach.lowerBound + j`
    /// (zero past the reach); empty when the reach is wider than a vector.
    let vectors: [SIMD16<Float>]

    /// - parameter sampleRate: the rate of the samples (it decides the oversampling, as in libebur128).
    public init(sampleRate: Int) {
        factor = sampleRate < 96000 ? 4 : sampleRate < 192_000 ? 2 : 1
        let taps = 49
        let centre = (taps - 1) / 2 / factor
        var phases = [[(offset: Int, weight: Double)]](repeating: [], count: factor)
        if factor > 1 {
            for j in 0..<taps {
                let m = Double(j) - Double(taps - 1) / 2
                var c = abs(m) > 1e-6 ? sin(m * .pi / Double(factor)) / (m * .pi / Double(factor)) : 1
                c *= 0.5 * (1 - cos(2 * .pi * Double(j) / Double(taps - 1)))
                guard abs(c) > 1e-6 else { continue }
                // Output (n, f) is Σ weight(j) · x[n − j / factor], at time n − centre + f / factor.
                phases[j % factor].append((offset: centre - j / factor, weight: c))
            }
        }
        self.phases = Array(phases.dropFirst())  // phase 0 is the sample itself
        gainBound = max(1, self.phases.map { $0.reduce(0) { $0 + abs($1.weight) } }.max() ?? 1)
        let offsets = self.phases.flatMap { $0.map(\.offset) }
        reach = (offsets.min() ?? 0)...(offsets.max() ?? 0)
        vectors = reach.count > 16 ? [] : self.phases.map { phase in
            var vector = SIMD16<Float>()
            for tap in phase { vector[tap.offset - (offsets.min() ?? 0)] = Float(tap.weight) }
            return vector
        }
    }

    /// The true peak (linear, full scale 1) of `samples` if it is at least `level`; otherwise
    /// some value below `level` (at least the sample peak of the samples near it).
    public func peak(of samples: UnsafeBufferPointer<Float>, atLeast level: Float) -> Float {
        let n = samples.count
        let trigger = level / Float(gainBound * (1 + 1e-6))  // rounding may not hide a value at the bound
        var peak: Float = 0
        var next = Int.min  // the first interval not yet interpolated
        for i in 0..<n where abs(samples[i]) >= trigger {
            peak = max(peak, abs(samples[i]))
            // The intervals [k, k + 1) whose values use sample i.
            let first = max(next, i - reach.upperBound), last = i - reach.lowerBound
            guard first <= last else { continue }
            for k in first...last { peak = max(peak, interpolatedPeak(samples, after: k)) }
            next = last + 1
        }
        return peak
    }

    /// The peak of `samples` at least `level`; see ``peak(of:atLeast:)-(UnsafeBufferPointer<Float>,_)``.
    public func peak(of samples: [Float], atLeast level: Float) -> Float {
        samples.withUnsafeBufferPointer { peak(of: $0, atLeast: level) }
    }

    /// The largest magnitude of the values interpolated between sample `k` and sample `k + 1`
    /// (samples outside the buffer are zeros).
    func interpolatedPeak(_ x: UnsafeBufferPointer<Float>, after k: Int) -> Float {
        var peak: Float = 0
        let from = k + reach.lowerBound
        if !vectors.isEmpty, from >= 0, from + 16 <= x.count, let base = x.baseAddress {
            // The samples the phases use, in one vector: each phase is a product and a sum.
            let window = UnsafeRawPointer(base + from).loadUnaligned(as: SIMD16<Float>.self)
            for weights in vectors { peak = max(peak, abs((window * weights).sum())) }
            return peak
        }
        let inside = k + reach.lowerBound >= 0 && k + reach.upperBound < x.count
        for phase in phases {
            var sum = 0.0
            if inside {
                for tap in phase { sum += Double(x[k + tap.offset]) * tap.weight }
            } else {
                for tap in phase where (0..<x.count).contains(k + tap.offset) { sum += Double(x[k + tap.offset]) * tap.weight }
            }
            peak = max(peak, abs(Float(sum)))
        }
        return peak
    }
}
