import LecternCore

/// The JSON word-timing sidecar (`NAME.timings.json`): chapters, paragraphs with their text,
/// sentences and words, each with start and end times, for synced highlighting.
///
/// ``TimingSidecarWriter`` writes it while a book renders; this type is the schema to read it.
///
/// Times are milliseconds from the start of the decoded audio (what a player's `currentTime`
/// reports); text offsets and lengths are UTF-16 code units into the paragraph's `text`, the
/// unit of JavaScript strings and NSRange.
public struct TimingDocument: Codable, Sendable, Equatable {
    public var format = "lectern-timings"
    /// 1; 2 adds a paragraph's `persona` (who speaks it in a play). A reader of version 1 reads
    /// version 2: fields are only ever added.
    public var version = TimingDocument.currentVersion
    public var units = Units()
    public var title: String
    public var author: String?
    /// The audio file these times refer to, relative to the sidecar.
    public var audio: String
    public var sampleRate: Int
    public var durationMs: Int
    /// Exact length of the decoded audio in samples.
    public var sampleCount: Int
    public var wordCount: Int
    public var chapters: [ChapterTiming]
    /// The book's parts (books, volumes, epochs …) in order, each a run of consecutive chapters;
    /// absent when the book has none.
    public var parts: [PartTiming]?
    /// Input text that is not narrated, with the reason (code blocks, front matter, …).
    public var skipped: [SkippedText]
    /// Pronunciation hints (lexicon entries, `ssml:ph`) espeak-ng cannot express; their text is
    /// read as written.
    public var unpronounced: [PronunciationNote]?

    /// The version this Lectern writes.
    public static let currentVersion = 2

    /// What the numbers mean, written into every file.
    public struct Units: Codable, Sendable, Equatable {
        public var time = "milliseconds from the start of the decoded audio"
        public var textOffset = "UTF-16 code units into the paragraph's text"
        public init() {}
    }
}

/// A chapter's span of the audio and its paragraphs.
public struct ChapterTiming: Codable, Sendable, Equatable {
    public var number: Int
    public var title: String
    /// The title of the part the chapter belongs to (absent when it belongs to none).
    public var part: String?
    public var start: Int
    public var end: Int
    public var paragraphs: [ParagraphTiming]
}

/// A part of the book: its title, its chapters' numbers in order, and its span of the audio,
/// from its first chapter's start to its last chapter's end.
public struct PartTiming: Codable, Sendable, Equatable {
    public var title: String
    public var start: Int
    public var end: Int
    public var chapters: [Int]

    public init(title: String, start: Int, end: Int, chapters: [Int]) {
        self.title = title
        self.start = start
        self.end = end
        self.chapters = chapters
    }
}

/// One spoken block (a heading, paragraph, quote or list item).
public struct ParagraphTiming: Codable, Sendable, Equatable {
    public var kind: BlockKind
    public var text: String
    public var voice: String
    /// The engine that speaks `voice` (absent in sidecars written before engines could be
    /// chosen: espeak-ng).
    public var engine: VoiceEngine?
    /// When speech starts (after the pre-utterance delay) and ends (before the post-utterance delay).
    public var start: Int
    public var end: Int
    public var sentences: [SentenceTiming]
    /// The language of the whole paragraph when it is not the book's: declared by the document
    /// (`lang`) or identified (`detected`); absent otherwise.
    public var language: String?
    /// True when `language` was identified from the text (`language_switching: detect`).
    public var detected: Bool?
    /// Who speaks the paragraph in a play: the persona's name as shown (`Lady Macbeth`), from
    /// the speaker label before the speech; absent for the narrator (version 2 on).
    public var persona: String?
    /// The speaker label before the paragraph that is not spoken (`speaker_labels: silent`), as
    /// written (`ROPER.`): where the book shows it; absent otherwise (version 2 on).
    public var speakerLabel: String?
    /// True for a heading that opens a section of its chapter (a diary entry, a letter, a
    /// heading below the chapter's): a level under the chapter; absent otherwise (version 2 on).
    public var section: Bool?
    /// Parts of the text spoken with another voice than `voice` (text in another language).
    public var spans: [VoiceSpan]?
    /// Parts of the text spoken otherwise than written: `spoken` is the engine's input for them
    /// (`[[espeak phonemes]]` or a respelling), from a lexicon or the document's `ssml:ph`.
    public var pronounced: [Pronunciation]?
}

/// A part of a paragraph spoken with its own voice, in UTF-16 code units of the paragraph's text.
public struct VoiceSpan: Codable, Sendable, Equatable {
    public var offset: Int
    public var length: Int
    public var voice: String
    /// The engine that speaks `voice` (see ``ParagraphTiming/engine``).
    public var engine: VoiceEngine?
    public var language: String
    /// True when `language` was identified from the text (`language_switching: detect`); absent otherwise.
    public var detected: Bool?

    public init(offset: Int, length: Int, voice: String, language: String, detected: Bool? = nil, engine: VoiceEngine? = nil) {
        self.offset = offset
        self.length = length
        self.voice = voice
        self.engine = engine
        self.language = language
        self.detected = detected
    }
}

/// A sentence: its range in the paragraph's text, its time, and its words.
public struct SentenceTiming: Codable, Sendable, Equatable {
    public var offset: Int
    public var length: Int
    public var start: Int
    public var end: Int
    public var words: [WordTiming]
}

/// A word: its range in the paragraph's text and when it is spoken.
public struct WordTiming: Codable, Sendable, Equatable {
    public var offset: Int
    public var length: Int
    public var start: Int
    public var end: Int
    /// True when the engine did not place this word itself (absent otherwise): it reported no
    /// event for it and its start was interpolated between its neighbours, or the engine's times
    /// inside a sentence are estimates (a Piper voice: espeak-ng's marks warped onto its audio).
    public var estimated: Bool?
}
