/// A loudness reading: what `LoudnessMeter` (LecternAudio) measured of a programme (a chapter, a file).
public struct Loudness: Sendable, Equatable, Codable {
    /// Integrated loudness in LUFS, gated as BS.1770-4 says (absolute gate −70 LUFS, relative
    /// gate 10 LU below); −∞ when nothing passes the gates (silence, or under 400 ms of audio).
    public var integrated: Double
    /// The highest true (inter-sample) peak in dBTP, from libebur128's 4× oversampling below
    /// 96 kHz; −∞ for digital silence.
    public var truePeak: Double
    /// The highest sample's level in dBFS; −∞ for digital silence.
    public var samplePeak: Double
    /// Loudness range in LU (EBU Tech 3342), 0 when too short to have one.
    public var range: Double
    /// Frames measured.
    public var frameCount: Int
    /// Samples per second of the audio measured.
    public var sampleRate: Int

    public init(integrated: Double, truePeak: Double, samplePeak: Double, range: Double, frameCount: Int, sampleRate: Int) {
        self.integrated = integrated
        self.truePeak = truePeak
        self.samplePeak = samplePeak
        self.range = range
        self.frameCount = frameCount
        self.sampleRate = sampleRate
    }

    /// The reading of no audio at all.
    public static let silence = Loudness(integrated: -.infinity, truePeak: -.infinity, samplePeak: -.infinity,
                                         range: 0, frameCount: 0, sampleRate: 0)

    /// The length measured, in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }
}
