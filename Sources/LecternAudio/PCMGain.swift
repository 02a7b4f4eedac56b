import Foundation

/// A fixed gain applied to 16-bit PCM: each sample scaled, rounded to the nearest value (halves
/// away from zero) and held inside −32768…32767.
public struct PCMGain: Sendable, Equatable {
    /// The gain in dB.
    public let decibels: Double
    /// The factor each sample is multiplied by, 10^(dB/20).
    public let factor: Double

    public init(decibels: Double) {
        self.decibels = decibels
        self.factor = pow(10, decibels / 20)
    }

    /// Scales `samples` in place and returns how many had to be held at full scale (0 when the
    /// gain came from ``LoudnessTarget/gain(for:)`` with a ceiling under 0 dBTP, since the
    /// true peak bounds every sample).
    @discardableResult
    public func apply(to samples: UnsafeMutableBufferPointer<Int16>) -> Int {
        guard decibels != 0 else { return 0 }
        var clipped = 0
        for index in samples.indices {
            let scaled = (Double(samples[index]) * factor).rounded()
            if scaled > 32767 {
                samples[index] = .max
                clipped += 1
            } else if scaled < -32768 {
                samples[index] = .min
                clipped += 1
            } else {
                samples[index] = Int16(scaled)
            }
        }
        return clipped
    }

    /// Scales `samples` in place; see ``apply(to:)-(UnsafeMutableBufferPointer<Int16>)``.
    @discardableResult
    public func apply(to samples: inout [Int16]) -> Int {
        samples.withUnsafeMutableBufferPointer { apply(to: $0) }
    }
}
