import Foundation

/// The integrated loudness (BS.1770-4, gated) of mono samples held in memory, computed as
/// libebur128 computes it — the same K-weighting filter, 400 ms blocks every 100 ms, the
/// absolute and relative gates — but several times faster, for ``LoudnessLeveler``.
///
/// The filter runs over four stretches of the samples at once (SIMD lanes, one vector register each). Each stretch starts
/// its filter 400 ms early from rest, as libebur128's does at the first sample; by then the
/// filter has forgotten its start (its slowest pole decays by e⁻⁹⁰ over 400 ms at 22050 Hz), so
/// the reading agrees with libebur128's to far less than a hundredth of a LU.
public struct IntegratedLoudness: Sendable {
    /// Samples per second.
    public let sampleRate: Int
    /// Samples per 100 ms segment (libebur128 rounds the same way).
    let segment: Int
    /// The K-weighting filter as its two stages (the high shelf, then the high-pass), each
    /// (b0, b1, b2, a1, a2), in single precision.
    let stages: [[Float]]

    static let lanes = 4
    typealias Lane = SIMD4<Float>

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
    /// what changing them into `after` changes, where `changed` says they differ, by the filter's
    /// linearity: the K-weighted `after` is the K-weighted `before` (`weighted`) plus the
    /// K-weighted difference, which is zero until the first change and has all but died away
    /// 25 ms after the last (its slowest part, the 38 Hz high-pass, decays with a 4.2 ms time
    /// constant; measured on limited speech, the result is within a millionth of a LU of measuring
    /// the whole signal again). So what a limiter changed in a few places is measured there, not
    /// over the whole chunk. Sample i before the change is `original[i] × factor`, and `weighted`
    /// times `scale` is the K-weighted `before`.
    func update(_ energies: inout [Double], weighted: KWeighted, scale: Double, after: UnsafeBufferPointer<Float>,
                original: UnsafeBufferPointer<Int16>, factor: Float, changed: [ClosedRange<Int>]) {
        let whole = energies.count * segment
        let tail = sampleRate / 40
        var runs: [ClosedRange<Int>] = []
        for range in changed where range.lowerBound < whole {
            let run = range.lowerBound...min(whole - 1, range.upperBound + tail)
            if let last = runs.last, run.lowerBound <= last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
            } else {
                runs.append(run)
            }
        }
        let (p0, p1, p2, q1, q2) = (stages[0][0], stages[0][1], stages[0][2], stages[0][3], stages[0][4])
        let (r0, r1, r2, u1, u2) = (stages[1][0], stages[1][1], stages[1][2], stages[1][3], stages[1][4])
        let (c1, c2) = (p1 - q1 * p0, p2 - q2 * p0), (e1, e2) = (r1 - u1 * r0, r2 - u2 * r0)
        let twiceScale = Float(2 * scale)
        let laneLength = weighted.laneLength
        let store = UnsafeBufferPointer(start: weighted.storage, count: laneLength)
        for run in runs {
            var s11: Float = 0, s12: Float = 0, s21: Float = 0, s22: Float = 0
            var s = run.lowerBound / segment, end = (s + 1) * segment
            var lane = run.lowerBound / laneLength, offset = run.lowerBound - lane * laneLength
            var added = 0.0
            for i in run {
                let y = store[offset][lane]
                offset += 1
                if offset == laneLength { (lane, offset) = (lane + 1, 0) }
                if i == end {
                    energies[s] += added
                    added = 0
                    s += 1
                    end += segment
                }
                let dx = after[i] - Float(original[i]) * factor
                let d1 = p0 * dx + s11
                (s11, s12) = (c1 * dx + s12 - q1 * s11, c2 * dx - q2 * s11)
                let d = r0 * d1 + s21
                (s21, s22) = (e1 * d1 + s22 - u1 * s21, e2 * d1 - u2 * s21)
                added += Double(d * (twiceScale * y + d))
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
    /// `weighted` (when given) each K-weighted sample of those segments.
    func segmentEnergies(_ x: UnsafeBufferPointer<Float>, weighted: KWeighted?) -> [Double] {
        energies(x, weighted: weighted)
    }

    /// The same of 16-bit samples (full scale 32768).
    func segmentEnergies(_ x: UnsafeBufferPointer<Int16>, weighted: KWeighted?) -> [Double] {
        energies(x, weighted: weighted)
    }

    /// The pass itself, specialised here for each kind of sample (a generic function called from
    /// another file would not be, in a build without whole-module optimisation).
    @inline(__always)
    private func energies<Sample: FilterInput>(_ x: UnsafeBufferPointer<Sample>, weighted: KWeighted?) -> [Double] {
        let segments = x.count / segment
        guard segments > 0 else { return [] }
        let perLane = (segments + Self.lanes - 1) / Self.lanes
        var energies = [Double](repeating: 0, count: perLane * Self.lanes)
        var starts = SIMD4<Int>()
        for lane in 0..<Self.lanes { starts[lane] = lane * perLane * segment }
        // Two biquads in transposed direct form II, in single precision: the cascade keeps the
        // high-pass's poles near 1 where they belong, which a 4th-order direct form in floats
        // would not; against libebur128's double-precision filter it differs by far less than
        // a hundredth of a LU.
        // The samples' scale (1/32768 for 16-bit ones) is folded into the first stage's numerator.
        let scale = Sample.scale
        let (p0, p1, p2, q1, q2) = (Lane(repeating: stages[0][0] * scale), Lane(repeating: stages[0][1] * scale),
                                    Lane(repeating: stages[0][2] * scale), Lane(repeating: stages[0][3]), Lane(repeating: stages[0][4]))
        let (r0, r1, r2, u1, u2) = (Lane(repeating: stages[1][0]), Lane(repeating: stages[1][1]), Lane(repeating: stages[1][2]),
                                    Lane(repeating: stages[1][3]), Lane(repeating: stages[1][4]))
        // Each state's update written from the state before, not from the stage's output
        // (s1' = (b1 − a1·b0)·x + s2 − a1·s1): the same filter, with a multiply and an add on
        // the path from one sample to the next instead of two adds and a multiply.
        let (c1, c2) = (p1 - q1 * p0, p2 - q2 * p0), (d1, d2) = (r1 - u1 * r0, r2 - u2 * r0)
        var s11 = Lane(), s12 = Lane(), s21 = Lane(), s22 = Lane()
        let n = x.count
        // Lane l's K-weighted samples are those of x[l × laneLength ..< (l + 1) × laneLength]:
        // kept as they are computed, one vector per step.
        let store = weighted?.prepare(laneLength: perLane * segment)
        var input = Lane()
        for s in -4..<perLane {
            var sum = Lane()
            let base = s * segment
            for t in 0..<segment {
                let offset = base + t
                // Every lane in range but the first's warm-up and the last's end (zeros there).
                if offset >= 0, starts[Self.lanes - 1] + offset < n {
                    for lane in 0..<Self.lanes { input[lane] = x[starts[lane] + offset].filterValue }
                } else {
                    for lane in 0..<Self.lanes {
                        let i = starts[lane] + offset
                        input[lane] = i >= 0 && i < n ? x[i].filterValue : 0
                    }
                }
                let y1 = p0 * input + s11
                (s11, s12) = (c1 * input + s12 - q1 * s11, c2 * input - q2 * s11)
                let y = r0 * y1 + s21
                (s21, s22) = (d1 * y1 + s22 - u1 * s21, d2 * y1 - u2 * s21)
                sum += y * y
                if let store, offset >= 0 { store[offset] = y }
            }
            guard s >= 0 else { continue }
            for lane in 0..<Self.lanes { energies[lane * perLane + s] = Double(sum[lane]) }
        }
        return Array(energies[..<segments])
    }
}

/// A sample the K-weighting filter reads: a float (full scale 1) or a 16-bit sample, read as
/// its value times ``scale``.
protocol FilterInput {
    var filterValue: Float { get }
    static var scale: Float { get }
}

extension Float: FilterInput {
    @inline(__always) var filterValue: Float { self }
    static var scale: Float { 1 }
}

extension Int16: FilterInput {
    @inline(__always) var filterValue: Float { Float(self) }
    static var scale: Float { 1 / 32768 }
}

/// The K-weighted samples of a pass of ``IntegratedLoudness/segmentEnergies(_:weighted:)``, as
/// the pass computes them: step t's vector holds, in lane l, the sample at l × ``laneLength`` + t.
/// Its storage is kept from one chunk to the next.
final class KWeighted {
    private(set) var storage: UnsafeMutablePointer<IntegratedLoudness.Lane>?
    private var capacity = 0
    private(set) var laneLength = 0

    init() {}
    deinit { storage?.deallocate() }

    /// Storage for `laneLength` steps (its values left to the pass).
    func prepare(laneLength: Int) -> UnsafeMutablePointer<IntegratedLoudness.Lane> {
        if laneLength > capacity {
            storage?.deallocate()
            storage = .allocate(capacity: laneLength)
            capacity = laneLength
        }
        self.laneLength = laneLength
        return storage!
    }
}
