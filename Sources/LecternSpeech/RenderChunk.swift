import LecternCore

/// A unit of parallel work: consecutive utterances (or parts of one long utterance) of one
/// chapter, bounded in audio length, rendered by one worker into one independent MP3 stream.
public struct RenderChunk: Sendable, Codable, Equatable {
    /// 0-based position in the book.
    public var index: Int
    /// 0-based index of the chapter in the plan.
    public var chapter: Int
    public var items: [Item]

    public init(index: Int, chapter: Int, items: [Item]) {
        self.index = index
        self.chapter = chapter
        self.items = items
    }

    /// One utterance, or one part of an utterance split at sentence boundaries.
    public struct Item: Sendable, Codable, Equatable {
        /// 0-based index of the utterance in its chapter.
        public var utterance: Int
        /// UTF-16 offset of `text` within the utterance's text (0 unless the utterance was split).
        public var textOffset: Int
        public var text: String
        public var voice: ResolvedVoice
        /// Samples of silence before and after the speech.
        public var silenceBefore: Int
        public var silenceAfter: Int
        public var wordCount: Int
        /// Parts of `text` the engine reads otherwise (UTF-16 ranges in `text`).
        public var pronunciations: [Pronunciation]

        public init(utterance: Int, textOffset: Int, text: String, voice: ResolvedVoice, silenceBefore: Int, silenceAfter: Int, wordCount: Int,
                    pronunciations: [Pronunciation] = []) {
            self.utterance = utterance
            self.textOffset = textOffset
            self.text = text
            self.voice = voice
            self.silenceBefore = silenceBefore
            self.silenceAfter = silenceAfter
            self.wordCount = wordCount
            self.pronunciations = pronunciations
        }
    }

    public var wordCount: Int { items.reduce(0) { $0 + $1.wordCount } }

    /// The chunk with every field that only places it in the book, and never changes its audio,
    /// set to 0 — its index and chapter, and each item's utterance, text offset and word count —
    /// so that two chunks with the same sound are equal wherever they lie (the runner's `ChunkKey` hashes
    /// this). Every other field, and any added later, is kept.
    public var unplaced: RenderChunk {
        var chunk = self
        chunk.index = 0
        chunk.chapter = 0
        for i in chunk.items.indices {
            chunk.items[i].utterance = 0
            chunk.items[i].textOffset = 0
            chunk.items[i].wordCount = 0
        }
        return chunk
    }
}
