/// One of ACX's audio submission requirements, as `lectern check --acx` measures it.
///
/// The limits are ACX's published ones (each file 192 kbit/s or higher CBR MP3 at 44.1 kHz,
/// −23 to −18 dB RMS, peaks at or below −3 dB, a noise floor at or below −60 dB RMS, 0.5–1 s of
/// room tone at the head and 1–5 s at the tail, at most 120 minutes, all files mono or all
/// stereo). ``noDigitalSilence`` is ACX's warning made a rule: ACX Check, the Audacity plug-in,
/// passes a noise floor of digital silence (−∞ dB), but ACX's reviewers reject gated or inserted
/// silence, so room tone must be recorded noise, not zeros.
public enum ACXRule: String, CaseIterable, Sendable, Codable {
    case sampleRate = "sample-rate"
    case bitrate
    case constantBitrate = "cbr"
    case duration
    case rms
    case peak
    case noiseFloor = "noise-floor"
    case noDigitalSilence = "no-digital-silence"
    case headRoomTone = "head-room-tone"
    case tailRoomTone = "tail-room-tone"
    case channels

    /// What the rule checks, in a few words.
    public var summary: String {
        switch self {
        case .sampleRate: "sample rate of every MP3 frame"
        case .bitrate: "bit rate of every MP3 frame"
        case .constantBitrate: "one bit rate in every frame, no VBR (Xing) tag"
        case .duration: "length of the file"
        case .rms: "RMS of the whole file (dBFS)"
        case .peak: "largest sample (dBFS)"
        case .noiseFloor: "RMS of the quietest 0.5 s (dBFS)"
        case .noDigitalSilence: "longest run of all-zero samples"
        case .headRoomTone: "room tone before the first sound"
        case .tailRoomTone: "room tone after the last sound"
        case .channels: "all files mono or all stereo"
        }
    }

    /// ACX's limit, as the report shows it.
    public var limit: String {
        switch self {
        case .sampleRate: "44100 Hz"
        case .bitrate: "≥ 192 kbit/s"
        case .constantBitrate: "CBR"
        case .duration: "≤ 120 min"
        case .rms: "−23 … −18 dB"
        case .peak: "≤ −3 dB"
        case .noiseFloor: "≤ −60 dB"
        case .noDigitalSilence: "< 0.25 s"
        case .headRoomTone: "0.5 … 1 s"
        case .tailRoomTone: "1 … 5 s"
        case .channels: "one channel count"
        }
    }

    /// One rule measured on one file (or on the folder).
    public struct Result: Sendable, Codable, Equatable {
        /// The rule's id (``ACXRule/rawValue``).
        public var rule: ACXRule
        public var check: String
        /// The measured value as shown (`-inf dB` for digital silence).
        public var measured: String
        /// The measured value as a number, when it is one and finite.
        public var value: Double?
        public var limit: String
        public var passed: Bool

        public init(_ rule: ACXRule, measured: String, value: Double?, passed: Bool) {
            self.rule = rule
            check = rule.summary
            self.measured = measured
            self.value = value.flatMap { $0.isFinite ? $0 : nil }
            limit = rule.limit
            self.passed = passed
        }
    }
}
