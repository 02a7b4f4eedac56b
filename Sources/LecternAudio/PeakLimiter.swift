import Foundation

/// A look-ahead peak limiter for audio held whole in memory (a chunk): each sample's gain is at
/// most what keeps it under the ceiling, and the gain moves smoothly — over `window` samples on
/// each side of a peak, then back up at the release rate — so a peak is turned down without a
/// click and no sample is delayed (times stay exact).
///
/// The required gain r(n) = min(1, ceiling / |x(n)|) is taken as the minimum over ±`window`
/// samples and then averaged over ±`window` samples: every value averaged is at most r(n), so
/// the smoothed gain never lets a sample over the ceiling.
public struct PeakLimiter: Sendable {
    /// The highest sample magnitude let through (linear, full scale 1).
    public var ceiling: Double
    /// Samples on each side of a peak over which the gain turns down.
    public var window: Int
    /// How far back toward 1 the gain may move per sample after a peak.
    public var release: Double

    /// - parameters:
    ///     - ceilingDB: the ceiling in dBFS.
    ///     - sampleRate: for the 5 ms window and the 80 ms release.
    public init(ceilingDB: Double, sampleRate: Int) {
        ceiling = pow(10, ceilingDB / 20)
        window = max(1, sampleRate / 200)
        release = 1 / (0.08 * Double(sampleRate))
    }

    /// Limits `samples` (full scale 1) in place; returns how many samples were turned down.
    @discardableResult
    public func apply(to samples: inout [Float]) -> Int {
        let n = samples.count
        guard n > 0 else { return 0 }
        var required = [Double](repeating: 1, count: n)
        var over = false
        for i in 0..<n {
            let magnitude = Double(abs(samples[i]))
            if magnitude > ceiling {
                required[i] = ceiling / magnitude
                over = true
            }
        }
        guard over else { return 0 }
        let held = Self.slidingMinimum(required, radius: window)
        // The average of `held` over ±window, by prefix sums.
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + held[i] }
        var gain = 1.0
        var changed = 0
        for i in 0..<n {
            let lo = max(0, i - window), hi = min(n - 1, i + window)
            let smooth = (prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1)
            gain = min(smooth, gain + release, 1)
            if gain < 1 {
                samples[i] = Float(Double(samples[i]) * gain)
                changed += 1
            }
        }
        return changed
    }

    /// The minimum of `values` over ±`radius` of each index (a monotonic queue: linear time).
    static func slidingMinimum(_ values: [Double], radius: Int) -> [Double] {
        let n = values.count
        var out = [Double](repeating: 1, count: n)
        var queue: [Int] = []  // indices with increasing values
        var head = 0
        var next = 0
        for i in 0..<n {
            while next < n, next <= i + radius {
                while queue.count > head, values[queue[queue.count - 1]] >= values[next] { queue.removeLast() }
                queue.append(next)
                next += 1
            }
            while queue[head] < i - radius { head += 1 }
            out[i] = values[queue[head]]
        }
        return out
    }
}
