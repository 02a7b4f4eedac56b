import Foundation

/// Level statistics of decoded audio, gathered a block at a time so a two-hour file needs no more
/// memory than a short one.
///
/// Levels are in dB relative to full scale (a sample of ±1.0 is 0 dBFS), over every sample of
/// every channel together, as ACX measures them:
/// - RMS: the root mean square of the whole file;
/// - peak: the largest absolute sample;
/// - noise floor: the RMS of the quietest half second (ACX Check's definition), searched in steps
///   of 10 ms;
/// - head and tail room tone: the time before the first and after the last 10 ms block louder
///   than ``soundThreshold``;
/// - digital silence: the longest run of samples that are exactly zero in every channel.
public struct PCMStatistics: Sendable {
    /// A 10 ms block whose RMS exceeds this level (−45 dBFS) is sound, not room tone.
    public static let soundThreshold = -45.0
    /// The stretch the noise floor is measured on, in seconds.
    public static let noiseWindow = 0.5

    public let sampleRate: Int
    public let channels: Int
    /// Frames (one sample per channel) seen so far.
    public private(set) var frames = 0

    private var sumOfSquares = 0.0
    private var peakSample: Float = 0
    private let blockFrames: Int
    private var blockSum = 0.0
    private var blockFill = 0
    private var blockCount = 0
    /// The last `windowBlocks` block sums, as a ring, and their total.
    private var window: [Double]
    private var windowSum = 0.0
    private var quietestWindow = Double.infinity
    private var firstSoundBlock: Int?
    private var lastSoundBlock: Int?
    private var zeroRun = 0
    private var longestZeroRun = 0

    /// - parameters:
    ///     - sampleRate: Frames per second.
    ///     - channels: Interleaved channels in what ``add(_:)`` is given.
    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = max(sampleRate, 1)
        self.channels = max(channels, 1)
        blockFrames = max(self.sampleRate / 100, 1)
        window = Array(repeating: 0, count: Int((Self.noiseWindow * 100).rounded()))
    }

    /// Adds interleaved samples (a whole number of frames, each sample in −1…1).
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        var i = 0
        while i + channels <= samples.count {
            var frameSquares = 0.0, silent = true
            for c in 0..<channels {
                let s = samples[i + c]
                frameSquares += Double(s) * Double(s)
                if s != 0 { silent = false }
                if abs(s) > peakSample { peakSample = abs(s) }
            }
            i += channels
            frames += 1
            sumOfSquares += frameSquares
            blockSum += frameSquares
            blockFill += 1
            if silent { zeroRun += 1; longestZeroRun = max(longestZeroRun, zeroRun) } else { zeroRun = 0 }
            if blockFill == blockFrames { closeBlock() }
        }
    }

    private mutating func closeBlock() {
        let samplesInBlock = Double(blockFill * channels)
        if Self.decibels(sqrt(blockSum / samplesInBlock)) > Self.soundThreshold {
            if firstSoundBlock == nil { firstSoundBlock = blockCount }
            lastSoundBlock = blockCount
        }
        let slot = blockCount % window.count
        windowSum += blockSum - window[slot]
        window[slot] = blockSum
        blockCount += 1
        if blockCount >= window.count { quietestWindow = min(quietestWindow, max(windowSum, 0)) }
        blockSum = 0
        blockFill = 0
    }

    /// The file's length in seconds.
    public var seconds: Double { Double(frames) / Double(sampleRate) }
    /// Whole-file RMS in dBFS (−∞ for silence or no samples).
    public var rms: Double { frames == 0 ? -.infinity : Self.decibels(sqrt(sumOfSquares / Double(frames * channels))) }
    /// Sample peak in dBFS.
    public var peak: Double { Self.decibels(Double(peakSample)) }
    /// RMS of the quietest half second in dBFS; the whole file's RMS when it is shorter.
    public var noiseFloor: Double {
        guard quietestWindow.isFinite else { return rms }
        return Self.decibels(sqrt(quietestWindow / Double(window.count * blockFrames * channels)))
    }
    /// Seconds of room tone before the first sound (the whole file when there is none).
    public var headRoomTone: Double {
        firstSoundBlock.map { Double($0 * blockFrames) / Double(sampleRate) } ?? seconds
    }
    /// Seconds of room tone after the last sound (the whole file when there is none).
    public var tailRoomTone: Double {
        lastSoundBlock.map { max(0, seconds - Double(($0 + 1) * blockFrames) / Double(sampleRate)) } ?? seconds
    }
    /// The longest run of all-zero frames, in seconds.
    public var longestDigitalSilence: Double { Double(longestZeroRun) / Double(sampleRate) }

    /// `20·log10(amplitude)`, −∞ for zero.
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }
}
