import LecternCore

/// The audio and word marks of one synthesized utterance.
public struct Synthesis: Sendable {
    /// 16-bit mono PCM at ``EspeakEngine/sampleRate``.
    public var samples: [Int16]
    /// Where each word starts, in the order spoken; the engine's repeated events for one word
    /// (a number read as several words) are merged into the first.
    public var words: [WordMark]

    public init(samples: [Int16], words: [WordMark]) {
        self.samples = samples
        self.words = words
    }
}

/// The engine's report that a word starts: its place in the text and in the audio.
public struct WordMark: Sendable, Equatable {
    /// Offset of the word in the utterance text, in UTF-16 code units.
    public var textOffset: Int
    /// Length of the word as the engine saw it, in UTF-16 code units.
    public var textLength: Int
    /// The sample index in the utterance's audio at which the word starts.
    public var sample: Int
    /// Whether `sample` is an estimate (the Piper engine's words inside a sentence) rather than
    /// where the engine itself put the word (espeak-ng's word events).
    public var estimated: Bool

    public init(textOffset: Int, textLength: Int, sample: Int, estimated: Bool = false) {
        self.textOffset = textOffset
        self.textLength = textLength
        self.sample = sample
        self.estimated = estimated
    }
}

/// An installed voice of a speech engine (espeak-ng's, or a prepared Piper voice).
public struct VoiceInfo: Sendable, Codable, Equatable {
    public var name: String
    public var identifier: String
    public var languages: [String]
    public var gender: String
    /// The engine that speaks it: `espeak-ng` (when absent) or `piper`.
    public var engine: VoiceEngine?
    /// A multi-speaker Piper voice's speakers (names, or ids when the model names none), as
    /// `voice.speaker` takes them; nil for a voice with one speaker.
    public var speakers: [String]?

    public init(name: String, identifier: String, languages: [String], gender: String, engine: VoiceEngine? = nil,
                speakers: [String]? = nil) {
        self.name = name
        self.identifier = identifier
        self.languages = languages
        self.gender = gender
        self.engine = engine
        self.speakers = speakers
    }
}
