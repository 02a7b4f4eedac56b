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

    static let lanes = 8
    typealias Lane = SIMD8<Double>

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
    }

    /// The integrated loudness in LUFS of `samples` (full scale 1) scaled by `gain` (linear);
    /// −∞ when no 400 ms block passes the gates.
    public func loudness(of samples: UnsafeBufferPointer<Float>, gain: Double = 1) -> Double {
        let energies = segmentEnergies(samples)
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

    /// The integrated loudness of `samples`; see ``loudness(of:gain:)-(UnsafeBufferPointer<Float>,_)``.
    public func loudness(of samples: [Float], gain: Double = 1) -> Double {
        samples.withUnsafeBufferPointer { loudness(of: $0, gain: gain) }
    }

    /// The sum of the K-weighted samples' squares in each whole 100 ms segment.
    func segmentEnergies(_ x: UnsafeBufferPointer<Float>) -> [Double] {
        let segments = x.count / segment
        guard segments > 0 else { return [] }
        let perLane = (segments + Self.lanes - 1) / Self.lanes
        var energies = [Double](repeating: 0, count: perLane * Self.lanes)
        var starts = SIMD8<Int>()
        for lane in 0..<Self.lanes { starts[lane] = lane * perLane * segment }
        let b0 = Lane(repeating: b[0]), b1 = Lane(repeating: b[1]), b2 = Lane(repeating: b[2]),
            b3 = Lane(repeating: b[3]), b4 = Lane(repeating: b[4])
        let a1 = Lane(repeating: a[1]), a2 = Lane(repeating: a[2]), a3 = Lane(repeating: a[3]), a4 = Lane(repeating: a[4])
        var v1 = Lane(), v2 = Lane(), v3 = Lane(), v4 = Lane()
        let n = x.count
        var input = Lane()
        for s in -4..<perLane {
            var sum = Lane()
            let base = s * segment
            for t in 0..<segment {
                let offset = base + t
                // Every lane in range but the first's warm-up and the last's end (zeros there).
                if offset >= 0, starts[Self.lanes - 1] + offset < n {
                    for lane in 0..<Self.lanes { input[lane] = Double(x[starts[lane] + offset]) }
                } else {
                    for lane in 0..<Self.lanes {
                        let i = starts[lane] + offset
                        input[lane] = i >= 0 && i < n ? Double(x[i]) : 0
                    }
                }
                let v0 = input - a1 * v1 - a2 * v2 - a3 * v3 - a4 * v4
                let y = b0 * v0 + b1 * v1 + b2 * v2 + b3 * v3 + b4 * v4
                v4 = v3; v3 = v2; v2 = v1; v1 = v0
                sum += y * y
            }
            guard s >= 0 else { continue }
            for lane in 0..<Self.lanes { energies[lane * perLane + s] = sum[lane] }
        }
        return Array(energies[..<segments])
    }
}
