import LecternCore
import LecternText

/// What will be spoken, in order: chapters of utterances with resolved voices and delays.
public struct NarrationPlan: Sendable {
    public var chapters: [PlannedChapter]
    /// Everything in the input that is not spoken, with reasons.
    public var skipped: [SkippedText]
    /// Pronunciation hints espeak-ng cannot express (the text is read as written).
    public var pronunciationNotes: [PronunciationNote] = []
    /// What a listener should know before rendering: text in a language no installed voice
    /// speaks, read with the voice around it.
    public var warnings: [String] = []

    /// How many stretches of text are spoken through a pronunciation hint.
    public var pronunciationCount: Int { chapters.reduce(0) { $0 + $1.utterances.reduce(0) { $0 + $1.pronunciations.count } } }

    public var utteranceCount: Int { chapters.reduce(0) { $0 + $1.utterances.count } }
    public var wordCount: Int { chapters.reduce(0) { $0 + $1.wordCount } }

    public init(chapters: [PlannedChapter], skipped: [SkippedText]) {
        self.chapters = chapters
        self.skipped = skipped
    }
    /// For each language identified by `language_switching: detect`, sorted by tag: how many whole
    /// paragraphs and how many passages inside paragraphs (quotations, runs of sentences or lines) are read in it.
    public var detectedLanguages: [(language: String, paragraphs: Int, quotations: Int)] {
        var counts: [String: (paragraphs: Int, quotations: Int)] = [:]
        for u in chapters.flatMap(\.utterances) {
            if u.languageDetected, let language = u.language { counts[language, default: (0, 0)].paragraphs += 1 }
            for s in u.segments where s.detected { if let language = s.language { counts[language, default: (0, 0)].quotations += 1 } }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value.paragraphs, $0.value.quotations) }
    }

    /// Quoted speech read with the `dialogue:` voice: its stretches, the paragraphs that have
    /// some, and the words in it.
    public var speech: (passages: Int, paragraphs: Int, words: Int) {
        var result = (passages: 0, paragraphs: 0, words: 0)
        for u in chapters.flatMap(\.utterances) {
            let ranges = u.speechRanges
            guard !ranges.isEmpty else { continue }
            result.passages += ranges.count
            result.paragraphs += 1
            result.words += WordTokenizer.tokens(in: u.text).filter { t in ranges.contains { $0.contains(t.start) } }.count
        }
        return result
    }

    /// A play's personae, most paragraphs first (ties by name): each with the voice it speaks most
    /// paragraphs in and how many it speaks.
    public var personae: [(name: String, voice: String, paragraphs: Int)] {
        var voices: [String: [String: Int]] = [:]
        for u in chapters.flatMap(\.utterances) {
            if let persona = u.persona { voices[persona.name, default: [:]][u.voice.name, default: 0] += 1 }
        }
        return voices.map { name, counts in
            (name, counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key, counts.values.reduce(0, +))
        }.sorted { ($0.paragraphs, $1.name) > ($1.paragraphs, $0.name) }
    }

    /// The distinct voices the plan uses.
    public var voiceNames: Set<String> {
        Set(chapters.flatMap { $0.utterances.flatMap { [$0.voice.name] + $0.segments.map(\.voice.name) } })
    }

    /// Every distinct voice the plan speaks with (utterances and their segments).
    public var voices: Set<ResolvedVoice> {
        Set(chapters.flatMap { $0.utterances.flatMap { [$0.voice] + $0.segments.map(\.voice) } })
    }
}

/// A chapter of the plan.
public struct PlannedChapter: Sendable {
    /// 1-based position in the book.
    public var number: Int
    public var title: String
    /// Silence at the chapter's start and end, in seconds.
    public var pause: Pause
    public var utterances: [Utterance]
    /// The part (book, volume, epoch …) the chapter belongs to, or nil; consecutive chapters with
    /// the same part form that part.
    public var part: String?

    public var wordCount: Int { utterances.reduce(0) { $0 + $1.wordCount } }

    public init(number: Int, title: String, pause: Pause, utterances: [Utterance], part: String? = nil) {
        self.number = number
        self.title = title
        self.pause = pause
        self.utterances = utterances
        self.part = part
    }
}

/// A part of an utterance spoken with a voice of its own: text in another language, quoted
/// speech (`dialogue:`), or both (a French quotation inside speech).
public struct VoiceSegment: Sendable, Equatable {
    /// UTF-16 range in the utterance's text.
    public var offset: Int
    public var length: Int
    public var voice: ResolvedVoice
    /// The language it is marked as (BCP 47), or nil: the utterance's own (speech, `dialogue`).
    public var language: String?
    /// True when `language` was identified from the text (`language_switching: detect`).
    public var detected = false
    /// True when it is quoted speech, spoken with the `dialogue:` voice (``DialogueQuotes``).
    public var dialogue = false

    public init(offset: Int, length: Int, voice: ResolvedVoice, language: String?, dialogue: Bool = false) {
        self.offset = offset
        self.length = length
        self.voice = voice
        self.language = language
        self.dialogue = dialogue
    }
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
    /// The number of words in `text` (counted once, by ``WordTokenizer``).
    public var wordCount: Int
    /// Parts of the text spoken with another voice (text in another language, quoted speech), in
    /// order, not overlapping.
    public var segments: [VoiceSegment] = []
    /// Parts of the text spoken as a lexicon or the document says, in order, not overlapping.
    public var pronunciations: [Pronunciation] = []
    /// The index of the block it reads in its chapter of the book (nil: the chapter's title).
    public var blockIndex: Int?
    /// The language the whole text is in when it is not the book's: as the document says (`lang`)
    /// or as identification found it (BCP 47; nil: the book's).
    public var language: String?
    /// True when `language` was identified from the text (`language_switching: detect`).
    public var languageDetected = false
    /// Who speaks it: a play's persona (the speech after a speaker label), nil for the narrator
    /// (headings, stage directions, speaker labels read aloud, prose).
    public var persona: Persona?
    /// The speaker label before it that is not spoken (`speaker_labels: silent`), as written
    /// (`ROPER.`): shown where it stands (the sidecar, the read-along page, the EPUB), not heard.
    public var speakerLabel: String?
    /// True for a heading that opens a section of its chapter (``Chapter/opensSection(at:)``).
    public var opensSection = false

    /// What the engine is given for it: the text with each pronunciation's stretch replaced.
    public var spokenText: String { SpokenText(text, pronunciations: pronunciations).text }

    public init(kind: BlockKind, text: String, voice: ResolvedVoice, preDelay: Double, postDelay: Double) {
        self.kind = kind
        self.text = text
        self.voice = voice
        self.preDelay = preDelay
        self.postDelay = postDelay
        self.wordCount = WordTokenizer.count(in: text)
    }
}
