/// A speech engine: espeak-ng (the default) or Piper.
///
/// The raw values (`espeak-ng`, `piper`) are the names manifests, sidecars, `lectern voices` and
/// the API give; the description is the raw value, so an engine reads the same in any text.
public enum VoiceEngine: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case espeak = "espeak-ng"
    case piper

    public var description: String { rawValue }
}
