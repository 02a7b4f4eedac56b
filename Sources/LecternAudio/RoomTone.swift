import Foundation

/// The noise of a quiet room, made up: the same samples on every run and every machine, for a
/// bed under an ACX master so that no stretch of it is digital silence.
///
/// White noise from a xorshift generator with a fixed seed, made pink (−3 dB per octave, Paul
/// Kellet's three-pole filter) and gently low-passed (one pole at 6 kHz), so it sounds like the
/// hush of a room rather than hiss; scaled to ``level`` dB RMS, far under ACX's −60 dB noise
/// floor. At 16 bits it is about 10 steps RMS, so it survives quantisation and encoding.
struct RoomTone {
    /// The bed's RMS level in dBFS.
    static let level = -70.0
    static let seed: UInt32 = 0x2545_F491

    private var state = RoomTone.seed
    private var b0: Float = 0, b1: Float = 0, b2: Float = 0
    private var low: Float = 0
    private let smoothing: Float
    private let scale: Float

    /// - parameter sampleRate: The rate of the samples ``next()`` makes (the filters' poles are
    ///   Kellet's for 44100 Hz).
    init(sampleRate: Int) {
        let smoothing = Float(1 - exp(-2 * Double.pi * 6000 / Double(sampleRate)))
        // The unscaled bed's RMS, measured on its own first five seconds, sets the scale.
        var probe = RoomTone(smoothing: smoothing, scale: 1)
        var sum = 0.0
        let count = 5 * sampleRate
        for _ in 0..<count { let s = Double(probe.next()); sum += s * s }
        let rms = (sum / Double(count)).squareRoot()
        self.init(smoothing: smoothing, scale: Float(pow(10, Self.level / 20) / rms))
    }

    private init(smoothing: Float, scale: Float) {
        self.smoothing = smoothing
        self.scale = scale
    }

    /// The next sample (full scale 1).
    mutating func next() -> Float {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let white = Float(Int32(bitPattern: state)) / 2_147_483_648
        b0 = 0.99765 * b0 + white * 0.0990460
        b1 = 0.96300 * b1 + white * 0.2965164
        b2 = 0.57000 * b2 + white * 1.0526913
        let pink = (b0 + b1 + b2 + white * 0.1848) * 0.2
        low += smoothing * (pink - low)
        return low * scale
    }

    /// Adds the next `samples.count` samples of the bed to `samples`.
    mutating func add(to samples: inout [Float], from start: Int = 0) {
        guard start < samples.count else { return }
        for i in start..<samples.count { samples[i] += next() }
    }
}
