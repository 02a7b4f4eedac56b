/// A set of defaults that makes a run's outputs meet a store's delivery rules (`profile:`).
public enum DeliveryProfile: String, Sendable, CaseIterable, Equatable {
    /// ACX (Audible, Amazon, Apple through ACX): one MP3 per chapter at 44.1 kHz and 192 kbit/s
    /// CBR, RMS −23 to −18 dB, peaks at or under −3 dB, room tone (never digital silence) of
    /// 0.75 s at the head and 2.5 s at the tail, opening and closing credits as files of their own.
    case acx

    /// The loudness the profile levels to, when the manifest names none: ACX's RMS window is
    /// −23 to −18 dB over the whole file, room tone included, and its peak limit −3 dB. Speech
    /// with its pauses measures about 1 dB RMS under its loudness, and a file of a few sentences
    /// (credits) loses 2–3 dB more to its 3.25 s of room tone, so −19 LUFS and −3.5 dBTP keep
    /// long chapters and short credits inside the window.
    public var loudness: LoudnessTarget {
        switch self {
        case .acx: LoudnessTarget(integrated: -19, truePeakLimit: -3.5)
        }
    }
}
