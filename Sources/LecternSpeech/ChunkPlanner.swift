import LecternCore

/// Splits a ``NarrationPlan`` into ``RenderChunk``s at utterance boundaries (never inside a
/// sentence), each holding at most about ``maximumSeconds`` of audio, so that one huge chapter
/// still spreads over every core and a book with few chapters uses them all.
///
/// Chunk boundaries are content-defined, so that an edit changes only the chunks around it: after
/// at least ``minimumSeconds``, a chunk ends before an utterance whose text hashes to a boundary
/// (one in four), and it always ends before exceeding ``maximumSeconds``. Boundaries after an
/// edit fall on the same utterances as before it, so the chunks there keep their cache keys.
///
/// An utterance longer than ``maximumUtteranceWords`` is split at sentence boundaries into parts
/// (separated by ``sentencePause`` of silence), so that no worker ever holds a long paragraph's
/// audio at once. A chapter's own pauses go before its first item and after its last.
public struct ChunkPlanner: Sendable {
    public var sampleRate: Int
    public var maximumSeconds: Double
    public var minimumSeconds: Double
    public var maximumUtteranceWords: Int
    public var sentencePause: Double

    public init(sampleRate: Int, maximumSeconds: Double = 150, maximumUtteranceWords: Int = 300, sentencePause: Double = 0.3) {
        self.sampleRate = sampleRate
        self.maximumSeconds = maximumSeconds
        self.minimumSeconds = maximumSeconds * 0.4
        self.maximumUtteranceWords = maximumUtteranceWords
        self.sentencePause = sentencePause
    }

    public func chunks(for plan: NarrationPlan) -> [RenderChunk] {
        var chunks: [RenderChunk] = []
        for (c, chapter) in plan.chapters.enumerated() {
            var items: [RenderChunk.Item] = []
            for (u, utterance) in chapter.utterances.enumerated() {
                items += parts(of: utterance, index: u)
            }
            guard !items.isEmpty else { continue }
            items[0].silenceBefore += samples(chapter.pause.before)
            items[items.count - 1].silenceAfter += samples(chapter.pause.after)
            var current: [RenderChunk.Item] = []
            var seconds = 0.0
            for item in items {
                let length = estimatedSeconds(item)
                if !current.isEmpty, seconds + length > maximumSeconds || (seconds >= minimumSeconds && Self.isBoundary(item)) {
                    chunks.append(RenderChunk(index: chunks.count, chapter: c, items: current))
                    current = []
                    seconds = 0
                }
                current.append(item)
                seconds += length
            }
            chunks.append(RenderChunk(index: chunks.count, chapter: c, items: current))
        }
        return chunks
    }

    /// The utterance as one item, or as parts: a part per run of one voice (text in another
    /// language has its own), and runs longer than the word limit cut into whole sentences.
    func parts(of utterance: Utterance, index: Int) -> [RenderChunk.Item] {
        let pre = samples(utterance.preDelay), post = samples(utterance.postDelay)
        if utterance.segments.isEmpty, utterance.wordCount <= maximumUtteranceWords {
            return [.init(utterance: index, textOffset: 0, text: utterance.text, voice: utterance.voice,
                          silenceBefore: pre, silenceAfter: post, wordCount: utterance.wordCount, pronunciations: utterance.pronunciations)]
        }
        let units = Array(utterance.text.utf16)
        let gap = samples(sentencePause)
        var items: [RenderChunk.Item] = []
        for run in runs(of: utterance, units: units) {
            let groups = sentenceGroups(units, in: run.range)
            for (g, range) in groups.enumerated() {
                let text = String(decoding: units[range], as: UTF16.self)
                items.append(.init(utterance: index, textOffset: range.lowerBound, text: text, voice: run.voice,
                                   silenceBefore: 0, silenceAfter: g == groups.count - 1 ? 0 : gap,
                                   wordCount: WordTokenizer.count(in: text),
                                   pronunciations: Pronunciation.slice(utterance.pronunciations, to: range)))
            }
        }
        // Text between the parts (spaces) is not spoken; the parts cover every word.
        items[0].silenceBefore = pre
        items[items.count - 1].silenceAfter = post
        return items
    }

    /// The utterance's text as consecutive runs of one voice; a stretch without words (spaces,
    /// punctuation) joins the run before it, so no part is silent.
    func runs(of utterance: Utterance, units: [UInt16]) -> [(range: Range<Int>, voice: ResolvedVoice)] {
        var runs: [(range: Range<Int>, voice: ResolvedVoice)] = []
        var position = 0
        let words = { (range: Range<Int>) in WordTokenizer.count(in: String(decoding: units[range], as: UTF16.self)) }
        func add(_ range: Range<Int>, _ voice: ResolvedVoice) {
            guard !range.isEmpty else { return }
            if let last = runs.last {
                if last.voice == voice || words(range) == 0 {
                    runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
                    return
                }
                if words(last.range) == 0 {
                    runs[runs.count - 1] = (last.range.lowerBound..<range.upperBound, voice)
                    return
                }
            }
            runs.append((range, voice))
        }
        for segment in utterance.segments.sorted(by: { $0.offset < $1.offset }) {
            let start = max(position, min(segment.offset, units.count)), end = min(units.count, segment.offset + segment.length)
            guard start < end else { continue }
            add(position..<start, utterance.voice)
            add(start..<end, segment.voice)
            position = end
        }
        add(position..<units.count, utterance.voice)
        return runs
    }

    /// `range` as one group, or as groups of whole sentences of at most the word limit.
    func sentenceGroups(_ units: [UInt16], in range: Range<Int>) -> [Range<Int>] {
        let text = String(decoding: units[range], as: UTF16.self)
        guard WordTokenizer.count(in: text) > maximumUtteranceWords else { return [range] }
        var groups: [Range<Int>] = []
        var count = 0
        for sentence in SentenceSplitter.sentences(in: text) {
            let shifted = (sentence.lowerBound + range.lowerBound)..<(sentence.upperBound + range.lowerBound)
            let n = WordTokenizer.count(in: String(decoding: units[shifted], as: UTF16.self))
            if let last = groups.last, count + n <= maximumUtteranceWords {
                groups[groups.count - 1] = last.lowerBound..<shifted.upperBound
                count += n
            } else {
                groups.append(shifted)
                count = n
            }
        }
        return groups.isEmpty ? [range] : groups
    }

    /// Whether a chunk may end before `item`, decided by its text alone (FNV-1a, one in four).
    static func isBoundary(_ item: RenderChunk.Item) -> Bool {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in item.text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash >> 60 & 3 == 0
    }

    func estimatedSeconds(_ item: RenderChunk.Item) -> Double {
        Double(item.silenceBefore + item.silenceAfter) / Double(sampleRate)
            + Double(item.wordCount) * 60 / Double(item.voice.wordsPerMinute)
    }

    func samples(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
}
