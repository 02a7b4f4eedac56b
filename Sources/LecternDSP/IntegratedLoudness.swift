import Foundation

/// The integrated loudness (BS.1770-4, gated) of mono samples held in memory, computed as
/// libebur128 computes it — the same K-weighting filter, 400 ms blocks every 100 ms, the
/// absolute and relative gates — but several times faster, for ``LoudnessLeveler``.
///
/// The filter runs over eight stretches of the samples at once (SIMD lanes). Each stretch starts
/// its filter 400 ms early from rest, as libebur128's does at the first sample; by then the
/// filter has forgotten its start (its slowest pole decays by e⁻⁹⁰ over 400 ms at 22050 Hz), so
/// the reading agrees with libebur128's to far less than a hundredth of a LU.
public struct IntegratedLoudness: Sendable {
    /// Samples per second.
    public let sampleRate: Int
    /// Samples per 100 ms segment (libebur128 rounds the same way).
    let segment: Int
    /// The 4th-order K-weighting filter's numerator and denominator (a[0] = 1).
    let b: [Double], a: [Double]
    /// The same filter as its two stages (the high shelf, then the high-pass), each
    /// (b0, b1, b2, a1, a2): what the pass over a whole chunk runs, in single precision.
    let stages: [[Float]]

    static let lanes = 8
    typealias Lane = SIMD8<Float>

    /// - parameter sampleRate: the samples' rate (the filter is designed for it as libebur128 designs it).
    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        segment = (sampleRate + 5) / 10
        var f0 = 1681.974450955533, q = 0.7071752369554196
        var k = tan(.pi * f0 / Double(sampleRate))
        let vh = pow(10.0, 3.999843853973347 / 20), vb = pow(vh, 0.4996667741545416)
        let a0 = 1 + k / q + k * k
        let pb = [(vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0]
        let pa = [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(.pi * f0 / Double(sampleRate))
        let rb = [1.0, -2, 1]
        let ra = [1, 2 * (k * k - 1) / (1 + k / q + k * k), (1 - k / q + k * k) / (1 + k / q + k * k)]
        b = [pb[0] * rb[0], pb[0] * rb[1] + pb[1] * rb[0], pb[0] * rb[2] + pb[1] * rb[1] + pb[2] * rb[0],
             pb[1] * rb[2] + pb[2] * rb[1], pb[2] * rb[2]]
        a = [1, pa[0] * ra[1] + pa[1] * ra[0], pa[0] * ra[2] + pa[1] * ra[1] + pa[2] * ra[0],
             pa[1] * ra[2] + pa[2] * ra[1], pa[2] * ra[2]]
        stages = [[pb[0], pb[1], pb[2], pa[1], pa[2]].map(Float.init), [rb[0], rb[1], rb[2], ra[1], ra[2]].map(Float.init)]
    }

    /// The integrated loudness in LUFS of `samples` (full scale 1) scaled by `gain` (linear);
    /// −∞ when no 400 ms block passes the gates.
    public func loudness(of samples: UnsafeBufferPointer<Float>, gain: Double = 1) -> Double {
        loudness(energies: segmentEnergies(samples), gain: gain)
    }

    /// The integrated loudness of samples whose 100 ms segments have these energies
    /// (``segmentEnergies(_:)``), scaled by `gain`; −∞ when no 400 ms block passes the gates.
    public func loudness(energies: [Double], gain: Double = 1) -> Double {
        guard energies.count >= 4 else { return -.infinity }
        let scale = gain * gain / Double(4 * segment)
        var blocks: [Double] = []
        blocks.reserveCapacity(energies.count - 3)
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        for i in 0..<(energies.count - 3) {
            let z = (energies[i] + energies[i + 1] + energies[i + 2] + energies[i + 3]) * scale
            if z >= absoluteGate { blocks.append(z) }
        }
        guard !blocks.isEmpty else { return -.infinity }
        let relativeGate = blocks.reduce(0, +) / Double(blocks.count) * pow(10, -10.0 / 10)
        var sum = 0.0, count = 0
        for z in blocks where z >= relativeGate {
            sum += z
            count += 1
        }
        return 10 * log10(sum / Double(count)) - 0.691
    }

    /// Adds to `energies` (segment energies of samples `before`, ``segmentEnergies(_:weighted:)``)
    /// what changing them into `after` changes, where `changed` says they differ — exactly, by
    /// the filter's linearity: the K-weighted `after` is the K-weighted `before` (`weighted`)
    /// plus the K-weighted difference, which is zero until the first change and has died away
    /// (by e⁻¹¹) 50 ms after the last. So what a limiter changed in a few places is measured
    /// there, not over the whole chunk. `before(i)` gives sample i before the change, and
    /// `weighted` times `scale` is the K-weighted `before`.
    func update(_ energies: inout [Double], weighted: UnsafeBufferPointer<Float>, scale: Double, after: UnsafeBufferPointer<Float>,
                before: (Int) -> Float, changed: [ClosedRange<Int>]) {
        let whole = energies.count * segment
        let tail = sampleRate / 20
        var runs: [ClosedRange<Int>] = []
        for range in changed where range.lowerBound < whole {
            let run = range.lowerBound...min(whole - 1, range.upperBound + tail)
            if let last = runs.last, run.lowerBound <= last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
            } else {
                runs.append(run)
            }
        }
        let (b0, b1, b2, b3, b4) = (b[0], b[1], b[2], b[3], b[4]), (a1, a2, a3, a4) = (a[1], a[2], a[3], a[4])
        for run in runs {
            var v1 = 0.0, v2 = 0.0, v3 = 0.0, v4 = 0.0
            var s = run.lowerBound / segment, end = (s + 1) * segment
            var added = 0.0
            for i in run {
                if i == end {
                    energies[s] += added
                    added = 0
                    s += 1
                    end += segment
                }
                let v0 = Double(after[i] - before(i)) - a1 * v1 - a2 * v2 - a3 * v3 - a4 * v4
                let d = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
                v4 = v3; v3 = v2; v2 = v1; v1 = v0
                added += d * (2 * scale * Double(weighted[i]) + d)
            }
            energies[s] += added
        }
    }

    /// The integrated loudness of `samples`; see ``loudness(of:gain:)-(UnsafeBufferPointer<Float>,_)``.
    public func loudness(of samples: [Float], gain: Double = 1) -> Double {
        samples.withUnsafeBufferPointer { loudness(of: $0, gain: gain) }
    }

    /// The sum of the K-weighted samples' squares in each whole 100 ms segment.
    public func segmentEnergies(_ x: UnsafeBufferPointer<Float>) -> [Double] {
        segmentEnergies(x, weighted: nil)
    }

    /// The sum of the K-weighted samples' squares in each whole 100 ms segment, and in
    /// `weighted` (when given, as long as `x`) each K-weighted sample of those segments.
    func segmentEnergies(_ x: UnsafeBufferPointer<Float>, weighted: UnsafeMutableBufferPointer<Float>?) -> [Double] {
        let segments = x.count / segment
        guard segments > 0 else { return [] }
        let perLane = (segments + Self.lanes - 1) / Self.lanes
        var energies = [Double](repeating: 0, count: perLane * Self.lanes)
        var starts = SIMD8<Int>()
        for lane in 0..<Self.lanes { starts[lane] = lane * perLane * segment }
        // Two biquads in transposed direct form II, in single precision: the cascade keeps the
        // high-pass's poles near 1 where they belong, which a 4th-order direct form in floats
        // would not; against libebur128's double-precision filter it differs by far less than
        // a hundredth of a LU.
        let (p0, p1, p2, q1, q2) = (Lane(repeating: stages[0][0]), Lane(repeating: stages[0][1]), Lane(repeating: stages[0][2]),
                                    Lane(repeating: stages[0][3]), Lane(repeating: stages[0][4]))
        let (r0, r1, r2, u1, u2) = (Lane(repeating: stages[1][0]), Lane(repeating: stages[1][1]), Lane(repeating: stages[1][2]),
                                    Lane(repeating: stages[1][3]), Lane(repeating: stages[1][4]))
        var s11 = Lane(), s12 = Lane(), s21 = Lane(), s22 = Lane()
        let n = x.count
        let whole = segments * segment
        var input = Lane()
        for s in -4..<perLane {
            var sum = Lane()
            let base = s * segment
            for t in 0..<segment {
                let offset = base + t
                // Every lane in range but the first's warm-up and the last's end (zeros there).
                if offset >= 0, starts[Self.lanes - 1] + offset < n {
                    for lane in 0..<Self.lanes { input[lane] = x[starts[lane] + offset] }
                } else {
                    for lane in 0..<Self.lanes {
                        let i = starts[lane] + offset
                        input[lane] = i >= 0 && i < n ? x[i] : 0
                    }
                }
                let y1 = p0 * input + s11
                s11 = p1 * input - q1 * y1 + s12
                s12 = p2 * input - q2 * y1
                let y = r0 * y1 + s21
                s21 = r1 * y1 - u1 * y + s22
                s22 = r2 * y1 - u2 * y
                sum += y * y
                if let weighted, offset >= 0 {
                    for lane in 0..<Self.lanes where starts[lane] + offset < whole { weighted[starts[lane] + offset] = y[lane] }
                }
            }
            guard s >= 0 else { continue }
            for lane in 0..<Self.lanes { energies[lane * perLane + s] = Double(sum[lane]) }
        }
        return Array(energies[..<segments])
    }
}
