/// Voice parameters in AVSpeechUtterance's terms; every field optional so that layers
/// (defaults → manifest → style → chapter override) can be merged.
public struct VoiceSettings: Sendable, Equatable, Codable {
    /// An espeak-ng voice name or language code, e.g. `en-gb`, or a Piper voice's name, e.g.
    /// `en_US-joe-medium` (see `lectern voices`).
    public var name: String?
    /// The speech engine: `espeak-ng` (the default) or `piper`.
    public var engine: String?
    /// A prepared Piper voice's model file (`NAME.onnx`), an absolute path; implies `piper`.
    public var model: String?
    /// A multi-speaker Piper model's speaker: a name of its `speaker_id_map` or an id (`12`).
    public var speaker: String?
    /// Speaking rate, 0…1, 0.5 is normal (AVSpeechUtteranceDefaultSpeechRate).
    public var rate: Double?
    /// Speaking rate in words per minute; overrides `rate` when both are set in the same layer.
    public var wpm: Int?
    /// Pitch multiplier, 0.5…2.0, 1.0 is the voice's own pitch.
    public var pitch: Double?
    /// Volume, 0…1.
    public var volume: Double?

    public init(name: String? = nil, rate: Double? = nil, wpm: Int? = nil, pitch: Double? = nil, volume: Double? = nil,
                engine: String? = nil, model: String? = nil, speaker: String? = nil) {
        self.name = name
        self.engine = engine
        self.model = model
        self.speaker = speaker
        self.rate = rate
        self.wpm = wpm
        self.pitch = pitch
        self.volume = volume
    }

    /// The engine names a manifest may give.
    public static let engines = VoiceEngine.allCases.map(\.rawValue)

    /// This layer's engine, or nil when it leaves the engine to the layers below.
    public var engineGiven: String? { engine ?? (model != nil || speaker != nil ? ResolvedVoice.piperEngine : nil) }

    /// This layer's values, falling back to `base` for those it leaves unset.
    public func merged(over base: VoiceSettings) -> VoiceSettings {
        var result = base
        // Another engine: the voice below (its name or model) belongs to the engine left.
        if let engine = engineGiven, engine != (base.engineGiven ?? ResolvedVoice.espeakEngine) {
            result.name = nil
            result.model = nil
            result.speaker = nil
        }
        if let engine = engineGiven { result.engine = engine }
        if let model { result.model = model; if name == nil { result.name = nil } }
        if let name { result.name = name; if model == nil { result.model = nil } }
        // A speaker is one of a model's: another voice below drops it, unless this layer gives one.
        if name != nil || model != nil { result.speaker = speaker }
        if let speaker { result.speaker = speaker }
        if let rate { result.rate = rate; result.wpm = wpm }
        if let wpm { result.wpm = wpm; if rate == nil { result.rate = nil } }
        if let pitch { result.pitch = pitch }
        if let volume { result.volume = volume }
        return result
    }

    /// Resolves to engine parameters; unset values take AVSpeechUtterance's defaults.
    public func resolved() -> ResolvedVoice {
        let rateValue = rate ?? 0.5
        let isPiper = engineGiven == ResolvedVoice.piperEngine
        let modelName = model.map { path -> String in
            let file = String(path.split(separator: "/").last ?? "")
            return file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
        }
        return ResolvedVoice(
            name: name ?? modelName ?? (isPiper ? ResolvedVoice.defaultPiperVoice : "en"),
            wordsPerMinute: wpm ?? ResolvedVoice.wordsPerMinute(forRate: rateValue),
            pitch: pitch ?? 1.0,
            volume: volume ?? 1.0,
            engine: isPiper ? .piper : nil,
            model: isPiper ? model : nil,
            speaker: isPiper ? speaker : nil
        )
    }
}

/// Fully resolved voice parameters for one utterance, with the mapping onto espeak-ng.
public struct ResolvedVoice: Sendable, Hashable, Codable {
    public var name: String
    public var wordsPerMinute: Int
    /// Pitch multiplier, 0.5…2.0.
    public var pitch: Double
    /// Volume, 0…1.
    public var volume: Double
    /// The speech engine, nil for espeak-ng (``engineName`` says which).
    public var engine: VoiceEngine?
    /// A Piper voice's model file given by path (absolute), or nil: a Piper voice named by `name`
    /// is found among the installed voices.
    public var model: String?
    /// A multi-speaker Piper model's speaker (a name or an id), or nil for its first (id 0).
    public var speaker: String?

    public init(name: String, wordsPerMinute: Int, pitch: Double, volume: Double, engine: VoiceEngine? = nil, model: String? = nil,
                speaker: String? = nil) {
        self.name = name
        self.wordsPerMinute = wordsPerMinute
        self.pitch = pitch
        self.volume = volume
        self.engine = engine == .espeak ? nil : engine
        self.model = model
        self.speaker = speaker
    }

    /// The engines' names, as a manifest's `engine:` gives them (``VoiceSettings/engine``).
    public static let espeakEngine = VoiceEngine.espeak.rawValue, piperEngine = VoiceEngine.piper.rawValue
    /// The Piper voice `make piper` installs, used when a manifest names the engine alone.
    public static let defaultPiperVoice = "en_US-joe-medium"

    /// The engine that speaks this voice.
    public var engineName: VoiceEngine { engine ?? .espeak }
    /// Whether the Piper engine speaks this voice.
    public var isPiper: Bool { engine == .piper }

    /// espeak-ng's slowest and fastest rates, and its default (AVSpeech's 0.5).
    public static let minimumWPM = 80, normalWPM = 175, maximumWPM = 450

    /// Maps an AVSpeechUtterance rate (0…1) onto words per minute: 0 → 80, 0.5 → 175, 1 → 450,
    /// linear on each side of 0.5, as AVSpeech's own scale is steeper above normal than below.
    public static func wordsPerMinute(forRate rate: Double) -> Int {
        let r = min(max(rate, 0), 1)
        let wpm = r <= 0.5
            ? Double(minimumWPM) + (r / 0.5) * Double(normalWPM - minimumWPM)
            : Double(normalWPM) + ((r - 0.5) / 0.5) * Double(maximumWPM - normalWPM)
        return Int(wpm.rounded())
    }

    /// espeak-ng's `espeakPITCH` (0…100, 50 = the voice's base pitch) for the multiplier:
    /// one octave (×2 or ×0.5) spans 50 steps, so 0.5 → 0, 1.0 → 50, 2.0 → 100.
    public var espeakPitch: Int {
        let p = 50 + 50 * log2(min(max(pitch, 0.5), 2.0))
        return Int(p.rounded())
    }

    /// espeak-ng's `espeakVOLUME` (0…200, 100 = normal) for the 0…1 volume: 1.0 → 100.
    public var espeakVolume: Int {
        Int((min(max(volume, 0), 1) * 100).rounded())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
