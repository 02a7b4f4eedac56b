import LecternCore

/// What every speech engine offers the pipeline: its voices, its sample rate, an identity that a
/// cached rendering depends on, and the synthesis of one utterance into PCM and word marks (each
/// mark exact or estimated, ``WordMark/estimated``).
///
/// ``EspeakEngine`` (espeak-ng, exact word events) and ``PiperEngine`` (a neural Piper voice
/// through sherpa-onnx, words estimated inside each sentence) conform.
public protocol SpeechEngine: AnyObject, Sendable {
    /// The engine, named as manifests and sidecars name it.
    var engineName: VoiceEngine { get }
    /// Samples per second of ``synthesize(_:voice:pronunciations:)``'s audio.
    var sampleRate: Int { get }
    /// Everything besides the input that the audio depends on (library version, data, model file
    /// hash, settings), for chunk cache keys.
    var identity: String { get }
    /// The engine's voices, optionally only those for a language (prefix match, e.g. "en").
    func voices(language: String?) -> [VoiceInfo]
    /// Speaks `text` and returns its 16-bit mono audio and a mark for each word (UTF-16 offsets in
    /// `text`). Stretches covered by `pronunciations` are read as they say.
    func synthesize(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation]) throws -> Synthesis
}

extension EspeakEngine: SpeechEngine {
    public var engineName: VoiceEngine { .espeak }
}
