/// A play's cast (`cast:`, `cast_pool:`, `speaker_labels:`): which voice speaks each persona's
/// speeches. A persona the cast names gets its entry merged over the narrator's voice; one it
/// does not name gets a voice from the pool (``CastPool``); the narrator reads headings, stage
/// directions and everything outside a speech.
public struct Cast: Sendable, Equatable {
    /// One `cast:` entry: the persona as the manifest wrote it and its voice.
    public struct Entry: Sendable, Equatable {
        /// The key as written (for messages).
        public var written: String
        public var voice: VoiceSettings
        /// The entry's line in its file.
        public var line: Int?

        public init(written: String, voice: VoiceSettings, line: Int? = nil) {
            self.written = written
            self.voice = voice
            self.line = line
        }
    }

    /// Whether speaker labels (`HAMLET.`) are spoken.
    public enum SpeakerLabels: String, Sendable, CaseIterable {
        /// Read aloud by the narrator.
        case read
        /// Not spoken (the change of voice says who speaks); each is listed as skipped, in its place.
        case silent
    }

    /// The entries by persona key (``Persona/key(_:)``).
    public var entries: [String: Entry] = [:]
    /// The voices personae the cast does not name are given, in order; nil: the default pool
    /// (``CastPool/defaultPool(narrator:piperSpeakers:)``).
    public var pool: [VoiceSettings]?
    /// `speaker_labels:` as given; nil: silent with a cast, read without.
    public var speakerLabelsGiven: SpeakerLabels?
    /// Whether the manifest gives a cast (`cast:` or `cast_pool:`): personae get voices of their own.
    public var isOn = false

    public init() {}

    /// What is done with speaker labels.
    public var speakerLabels: SpeakerLabels { speakerLabelsGiven ?? (isOn ? .silent : .read) }

    /// The entry for a persona, if the cast names it.
    public func entry(for persona: Persona) -> Entry? { entries[persona.key] }
}
