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
    /// The phases' taps in single precision, for eight intervals at once.
    let floatPhases: [[(offset: Int, weight: Float)]]

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
        floatPhases = self.phases.map { $0.map { (offset: $0.offset, weight: Float($0.weight)) } }
    }

    /// The true peak (linear, full scale 1) of `samples` if it is at least `level`; otherwise
    /// some value below `level` (at least the sample peak of the samples near it).
    public func peak(of samples: UnsafeBufferPointer<Float>, atLeast level: Float) -> Float {
        let trigger = level / Float(gainBound * (1 + 1e-6))  // rounding may not hide a value at the bound
        var peak: Float = 0
        // The intervals [k, k + 1) whose values use a sample at or over the trigger, gathered in
        // runs and interpolated run by run.
        var run: ClosedRange<Int>?
        for i in 0..<samples.count where abs(samples[i]) >= trigger {
            peak = max(peak, abs(samples[i]))
            let intervals = (i - reach.upperBound)...(i - reach.lowerBound)
            if let current = run, intervals.lowerBound <= current.upperBound + 1 {
                run = current.lowerBound...intervals.upperBound
            } else {
                if let current = run { peak = max(peak, interpolatedPeak(samples, over: current)) }
                run = intervals
            }
        }
        if let current = run { peak = max(peak, interpolatedPeak(samples, over: current)) }
        return peak
    }

    /// The largest magnitude of the values interpolated in the intervals after each sample of
    /// `intervals`: eight intervals at a time, each phase a sum of its taps over shifted vectors
    /// of samples, where all the samples they use are inside the buffer (the last block may take
    /// up to seven intervals past the run: values of the same signal, which cannot make the peak
    /// wrong).
    func interpolatedPeak(_ x: UnsafeBufferPointer<Float>, over intervals: ClosedRange<Int>) -> Float {
        var peak: Float = 0
        var k = intervals.lowerBound
        guard let base = x.baseAddress, factor > 1 else { return 0 }
        var highest = SIMD8<Float>()
        while k <= intervals.upperBound {
            guard k + reach.lowerBound >= 0, k + 7 + reach.upperBound < x.count else {
                peak = max(peak, interpolatedPeak(x, after: k))
                k += 1
                continue
            }
            for phase in floatPhases {
                var sum = SIMD8<Float>()
                for tap in phase { sum += tap.weight * UnsafeRawPointer(base + k + tap.offset).loadUnaligned(as: SIMD8<Float>.self) }
                let magnitude = unsafeBitCast(unsafeBitCast(sum, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                highest.replace(with: magnitude, where: magnitude .> highest)
            }
            k += 8
        }
        for lane in 0..<8 { peak = max(peak, highest[lane]) }
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
