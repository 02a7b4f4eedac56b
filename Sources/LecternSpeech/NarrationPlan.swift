import LecternCore

/// What will be spoken, in order: chapters of utterances with resolved voices and delays.
public struct NarrationPlan: Sendable {
    public var chapters: [PlannedChapter]
    /// Everything in the input that is not spoken, with reasons.
    public var skipped: [SkippedText]

    public var utteranceCount: Int { chapters.reduce(0) { $0 + $1.utterances.count } }
    public var wordCount: Int { chapters.reduce(0) { $0 + $1.wordCount } }
    /// The distinct voices the plan uses.
    public var voiceNames: Set<String> { Set(chapters.flatMap { $0.utterances.map(\.voice.name) }) }
}

/// A chapter of the plan.
public struct PlannedChapter: Sendable {
    /// 1-based position in the book.
    public var number: Int
    public var title: String
    /// Silence at the chapter's start and end, in seconds.
    public var pause: Pause
    public var utterances: [Utterance]

    public var wordCount: Int { utterances.reduce(0) { $0 + WordTokenizer.count(in: $1.text) } }
}

/// One utterance, in AVSpeechUtterance's terms: text, voice, pre- and post-utterance delay.
public struct Utterance: Sendable {
    public var kind: BlockKind
    public var text: String
    public var voice: ResolvedVoice
    /// Seconds of silence before the speech.
    public var preDelay: Double
    /// Seconds of silence after the speech.
    public var postDelay: Double
}
