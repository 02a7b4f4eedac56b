import Foundation
internal import CEbur128

/// Measures loudness as EBU R128 and ITU-R BS.1770 define it: integrated loudness (gated), true
/// peak, sample peak and loudness range, from PCM fed in blocks of any size.
///
/// Every call into libebur128 passes through this type. The audio is never kept: by default the
/// meter keeps one number per 400 ms gating block (every 100 ms) and per 3 s short-term block
/// (every second), a few hundred bytes per minute of audio, a chunk's worth per chunk. With
/// `boundedMemory`, it keeps a fixed histogram instead (libebur128's `EBUR128_MODE_HISTOGRAM`,
/// bins of 0.1 LU), which can move a reading by about a tenth of a LU.
///
/// A chapter rendered as several chunks is measured chunk by chunk, one meter each, and the
/// meters combined (``combined(_:)``): the chapter's reading then depends only on its own chunks.
/// One meter belongs to one thread at a time; separate meters may run on separate threads.
public final class LoudnessMeter {
    private let state: UnsafeMutablePointer<ebur128_state>
    /// Samples per second of the audio measured.
    public let sampleRate: Int
    /// Interleaved channels of the audio measured (1 for Lectern's mono speech).
    public let channels: Int
    /// Whether the gating blocks are kept as a fixed-size histogram.
    public let boundedMemory: Bool
    /// Whether only the integrated loudness is measured.
    public let integratedOnly: Bool
    /// Frames (samples per channel) measured so far.
    public private(set) var frameCount = 0

    /// Calls `ebur128_init` for integrated loudness, loudness range and true peak.
    ///
    /// - parameters:
    ///     - sampleRate: Samples per second, any rate libebur128 accepts (8000 to 2 822 400 Hz).
    ///     - channels: Interleaved channels; the first is measured as left, the second as right.
    ///     - boundedMemory: Keep a fixed histogram rather than every block (for audio of
    ///       unknown length), at about 0.1 LU of precision.
    /// - throws: ``AudioError`` when libebur128 rejects the rate or channel count.
    ///     - integratedOnly: Measure the integrated loudness alone (no range, no peaks: the
    ///       reading's peaks and range are 0), several times cheaper than the true peak's
    ///       oversampling.
    public init(sampleRate: Int, channels: Int = 1, boundedMemory: Bool = false, integratedOnly: Bool = false) throws {
        guard (1...64).contains(channels), (8000...2_822_400).contains(sampleRate) else {
            throw AudioError("a loudness meter cannot measure \(channels) channel(s) at \(sampleRate) Hz")
        }
        let mode = Int32(EBUR128_MODE_I.rawValue | (integratedOnly ? 0 : EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
                         | (boundedMemory ? EBUR128_MODE_HISTOGRAM.rawValue : 0))
        self.integratedOnly = integratedOnly
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw AudioError("libebur128 could not be initialised for \(channels) channel(s) at \(sampleRate) Hz (out of memory)")
        }
        self.state = state
        self.sampleRate = sampleRate
        self.channels = channels
        self.boundedMemory = boundedMemory
    }

    deinit {
        var pointer: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&pointer)
    }

    /// Measures 16-bit samples (full scale 32768), interleaved if there are several channels.
    ///
    /// Calls `ebur128_add_frames_short`.
    /// - throws: ``AudioError`` when the samples are not whole frames or libebur128 fails.
    public func add(_ samples: UnsafeBufferPointer<Int16>) throws {
        try add(count: samples.count) { ebur128_add_frames_short(state, samples.baseAddress! + $0, $1) }
    }

    /// Measures floating-point samples (full scale 1.0), interleaved if there are several channels.
    ///
    /// Calls `ebur128_add_frames_float`.
    /// - throws: ``AudioError`` when the samples are not whole frames or libebur128 fails.
    public func add(_ samples: UnsafeBufferPointer<Float>) throws {
        try add(count: samples.count) { ebur128_add_frames_float(state, samples.baseAddress! + $0, $1) }
    }

    /// Measures 16-bit samples; see ``add(_:)-(UnsafeBufferPointer<Int16>)``.
    public func add(_ samples: [Int16]) throws { try samples.withUnsafeBufferPointer { try add($0) } }

    /// Measures floating-point samples; see ``add(_:)-(UnsafeBufferPointer<Float>)``.
    public func add(_ samples: [Float]) throws { try samples.withUnsafeBufferPointer { try add($0) } }

    /// Feeds `count` samples as whole frames through `feed(sampleOffset, frames)`, a million
    /// frames at a time (libebur128 handles any count; this only bounds each call). `feed` is
    /// never called for no samples, so a buffer's base address is there when it is.
    private func add(count: Int, _ feed: (Int, Int) -> Int32) throws {
        guard count % channels == 0 else {
            throw AudioError("\(count) samples are not whole frames of \(channels) channels")
        }
        let frames = count / channels
        var done = 0
        while done < frames {
            let step = min(frames - done, 1 << 20)
            let status = feed(done * channels, step)
            guard status == Int32(EBUR128_SUCCESS.rawValue) else {
                throw AudioError("libebur128 could not measure \(step) frames (error \(status))")
            }
            done += step
        }
        frameCount += frames
    }

    /// What has been measured so far.
    ///
    /// Calls `ebur128_loudness_global`, `ebur128_loudness_range`, `ebur128_true_peak` and
    /// `ebur128_sample_peak`.
    /// - throws: ``AudioError`` when libebur128 fails.
    public func loudness() throws -> Loudness {
        try Self.combined([self])
    }

    /// The loudness of several meters' audio taken as one programme: the gating blocks of all
    /// are gated together, the peaks are the highest of any.
    ///
    /// This is how a chapter is measured from its chunks, each measured separately (and possibly
    /// in parallel). Its integrated loudness equals measuring the chunks concatenated except for
    /// the few gating blocks (400 ms) that would straddle a seam: across the pause that ends a
    /// chunk, well under a hundredth of a LU. Its loudness range is only an estimate: each chunk
    /// loses the 3 s short-term blocks across its seams, which weighs on short chunks.
    ///
    /// Calls `ebur128_loudness_global_multiple` and `ebur128_loudness_range_multiple`.
    /// - throws: ``AudioError`` when the meters measure different sample rates or channel
    ///   counts, or libebur128 fails.
    public static func combined(_ meters: [LoudnessMeter]) throws -> Loudness {
        guard let first = meters.first else { return Loudness.silence }
        guard meters.allSatisfy({ $0.sampleRate == first.sampleRate && $0.channels == first.channels && $0.boundedMemory == first.boundedMemory
                                  && $0.integratedOnly == first.integratedOnly }) else {
            throw AudioError("loudness meters of different sample rates, channel counts or memory modes cannot be combined")
        }
        var states: [UnsafeMutablePointer<ebur128_state>?] = meters.map(\.state)
        var integrated = -Double.infinity, range = 0.0
        try check(ebur128_loudness_global_multiple(&states, states.count, &integrated), "integrated loudness")
        var truePeak = 0.0, samplePeak = 0.0
        if first.integratedOnly {
            return Loudness(integrated: integrated.isFinite ? integrated : -.infinity, truePeak: 0, samplePeak: 0, range: 0,
                            frameCount: meters.reduce(0) { $0 + $1.frameCount }, sampleRate: first.sampleRate)
        }
        try check(ebur128_loudness_range_multiple(&states, states.count, &range), "loudness range")
        for meter in meters {
            for channel in 0..<UInt32(meter.channels) {
                var value = 0.0
                try check(ebur128_true_peak(meter.state, channel, &value), "true peak")
                truePeak = max(truePeak, value)
                try check(ebur128_sample_peak(meter.state, channel, &value), "sample peak")
                samplePeak = max(samplePeak, value)
            }
        }
        return Loudness(integrated: integrated.isFinite ? integrated : -.infinity,
                        truePeak: 20 * log10(truePeak), samplePeak: 20 * log10(samplePeak),
                        range: range.isFinite ? range : 0, frameCount: meters.reduce(0) { $0 + $1.frameCount },
                        sampleRate: first.sampleRate)
    }

    private static func check(_ status: Int32, _ what: String) throws {
        guard status == Int32(EBUR128_SUCCESS.rawValue) else {
            throw AudioError("libebur128 could not compute the \(what) (error \(status))")
        }
    }
}
