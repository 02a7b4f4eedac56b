import Foundation

/// A look-ahead peak limiter for audio held whole in memory (a chunk): each sample's gain is at
/// most what keeps it under the ceiling, and the gain moves smoothly — over `window` samples on
/// each side of a peak, then back up at the release rate — so a peak is turned down without a
/// click and no sample is delayed (times stay exact).
///
/// The required gain r(n) = min(1, ceiling / |x(n)|) is taken as the minimum over ±`window`
/// samples and then averaged over ±`window` samples: every value averaged is at most r(n), so
/// the smoothed gain never lets a sample over the ceiling.
///
/// The gain is below 1 only from 2 × `window` samples before a sample over the ceiling to the
/// end of the release after it, so it is computed only there, stretch by stretch, in a buffer
/// the size of the longest stretch: the rest of the audio is read once and never written.
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
        samples.withUnsafeMutableBufferPointer { apply(to: $0) }
    }

    /// Limits `samples` (full scale 1) in place; returns how many samples were turned down.
    @discardableResult
    public func apply(to samples: UnsafeMutableBufferPointer<Float>) -> Int {
        var changed: [ClosedRange<Int>] = []
        return apply(to: samples, changed: &changed)
    }

    /// Limits `samples` (full scale 1) in place, adding to `changed` the stretches it turned
    /// down (first to last sample changed, in order); returns how many samples were turned down.
    @discardableResult
    public func apply(to samples: UnsafeMutableBufferPointer<Float>, changed stretches: inout [ClosedRange<Int>]) -> Int {
        let n = samples.count
        let limit = Float(ceiling)
        // Past the last sample over the ceiling the gain is back at 1 after 2 × window samples
        // (the smoothing) and then 1 / release samples at most (the release).
        let tail = 2 * window + Int((1 / release).rounded(.up)) + 1
        var scratch = Scratch()
        var changed = 0
        var start = -1, end = -1  // the current stretch's first and last sample over the ceiling
        // Most of speech is under the ceiling: blocks of 64 samples are checked at once, comparing
        // magnitudes as the bit patterns of non-negative floats (ordered as the floats are), which
        // a loop can compare eight at a time.
        let limitBits = Int32(bitPattern: limit.bitPattern)
        var block = 0
        while block < n {
            let blockEnd = min(n, block + 64)
            var loudest: Int32 = 0
            for i in block..<blockEnd { loudest = max(loudest, Int32(bitPattern: samples[i].bitPattern) & 0x7FFF_FFFF) }
            if loudest > limitBits {
                for i in block..<blockEnd where abs(samples[i]) > limit {
                    if start >= 0, i - end > tail + 2 * window {
                        changed += turnDown(samples, over: start...end, tail: tail, scratch: &scratch, changed: &stretches)
                        start = -1
                    }
                    if start < 0 { start = i }
                    end = i
                }
            }
            block = blockEnd
        }
        if start >= 0 { changed += turnDown(samples, over: start...end, tail: tail, scratch: &scratch, changed: &stretches) }
        return changed
    }

    /// Buffers reused from stretch to stretch.
    struct Scratch {
        var held: [Float] = []
        var queueIndex: [Int] = []
        var queueGain: [Float] = []

        /// Makes `buffer` `count` long (its values left to the caller), keeping its storage.
        static func size<T>(_ buffer: inout [T], _ count: Int, _ fill: T) {
            if buffer.count > count { buffer.removeLast(buffer.count - count) }
            if buffer.count < count { buffer.append(contentsOf: repeatElement(fill, count: count - buffer.count)) }
        }
    }

    /// Turns down the stretch around the samples over the ceiling from `over.lowerBound` to
    /// `over.upperBound` (no other sample over it within 2 × window + `tail` of the stretch).
    private func turnDown(_ x: UnsafeMutableBufferPointer<Float>, over: ClosedRange<Int>, tail: Int, scratch: inout Scratch,
                          changed stretches: inout [ClosedRange<Int>]) -> Int {
        let n = x.count
        let limit = Float(ceiling)
        let lo = max(0, over.lowerBound - 2 * window), hi = min(n - 1, over.upperBound + tail)
        // held[k − lo]: the minimum required gain over ±window of k, for k in lo − window ... hi + window
        // (clamped to the buffer), by a monotonic queue.
        // Past over.upperBound + window no sample over the ceiling is within ±window: held is 1.
        let first = max(0, lo - window), last = min(n - 1, over.upperBound + window)
        // Only the samples over the ceiling enter the queue (with their required gain); the
        // minimum is 1 when none is within ±window.
        let scanned = last + window - (first - window) + 1
        Scratch.size(&scratch.held, last - first + 1, 1)
        Scratch.size(&scratch.queueIndex, scanned, 0)
        Scratch.size(&scratch.queueGain, scanned, 1)
        scratch.held.withUnsafeMutableBufferPointer { held in
            scratch.queueIndex.withUnsafeMutableBufferPointer { queueIndex in
                scratch.queueGain.withUnsafeMutableBufferPointer { queueGain in
                    var head = 0, end = 0, next = max(0, first - window)
                    for k in first...last {
                        let upto = min(n - 1, k + window)
                        while next <= upto {
                            let magnitude = abs(x[next])
                            if magnitude > limit {
                                let value = limit / magnitude
                                while end > head, queueGain[end - 1] >= value { end -= 1 }
                                queueIndex[end] = next
                                queueGain[end] = value
                                end += 1
                            }
                            next += 1
                        }
                        while head < end, queueIndex[head] < k - window { head += 1 }
                        held[k - first] = head < end ? queueGain[head] : 1
                    }
                }
            }
        }
        // The average of `held` over ±window (clamped to the buffer), then the release.
        var gain: Float = 1
        var changed = 0
        var firstChanged = -1, lastChanged = -1
        let span = 2 * window + 1, inverse = 1 / Double(2 * window + 1), step = Float(release)
        // From `settled` on, every held value averaged is 1: the gain only recovers at the release
        // rate, and the stretch ends where it is back at 1.
        let settled = over.upperBound + 2 * window + 1
        scratch.held.withUnsafeBufferPointer { held in
            func value(_ k: Int) -> Double { k <= last ? Double(held[k - first]) : 1 }
            var sum = 0.0
            for k in max(0, lo - window)...min(n - 1, lo + window) { sum += value(k) }
            for k in lo...hi {
                let smooth: Float
                if k >= settled {
                    guard gain < 1 else { break }
                    smooth = 1
                } else {
                    let low = max(0, k - window), high = min(n - 1, k + window)
                    if k > lo {
                        if high == k + window { sum += value(high) }
                        if k - window - 1 >= 0 { sum -= value(k - window - 1) }
                    }
                    let width = high - low + 1
                    smooth = Float(width == span ? sum * inverse : sum / Double(width))
                }
                gain = min(smooth, gain + step, 1)
                if gain < 1 {
                    x[k] *= gain
                    changed += 1
                    if firstChanged < 0 { firstChanged = k }
                    lastChanged = k
                }
            }
        }
        if firstChanged >= 0 { stretches.append(firstChanged...lastChanged) }
        return changed
    }
}
