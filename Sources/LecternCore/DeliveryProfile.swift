/// A set of defaults that makes a run's outputs meet a store's delivery rules (`profile:`).
public enum DeliveryProfile: String, Sendable, CaseIterable, Equatable {
    /// ACX (Audible, Amazon, Apple through ACX): one MP3 per chapter at 44.1 kHz and 192 kbit/s
    /// CBR, RMS −23 to −18 dB, peaks at or under −3 dB, room tone (never digital silence) of
    /// 0.75 s at the head and 2.5 s at the tail, opening and closing credits as files of their own.
    case acx

    /// The loudness the profile levels to, when the manifest names none: ACX's RMS window is
    /// −23 to −18 dB and its peak limit −3 dB, so −20 LUFS (speech with its pauses measures
    /// about −21 dB RMS) and −3.5 dBTP leave room on every side.
    public var loudness: LoudnessTarget {
        switch self {
        case .acx: LoudnessTarget(integrated: -20, truePeakLimit: -3.5)
        }
    }
}
