import LecternCore
import LecternText

/// Splits a ``NarrationPlan`` into ``RenderChunk``s at utterance boundaries (never inside a
/// sentence), each holding at most about ``maximumSeconds`` of audio, so that one huge chapter
/// still spreads over every core and a book with few chapters uses them all.
///
/// Chunk boundaries are content-defined, so that an edit changes only the chunks around it: after
/// at least ``minimumSeconds``, a chunk ends before an utterance whose text hashes to a boundary
/// (one in four), and it always ends before exceeding ``maximumSeconds``. Boundaries after an
/// edit fall on the same utterances as before it, so the chunks there keep their cache keys.
///
/// An utterance longer than ``maximumUtteranceWords`` or ``maximumLength`` is split at sentence
/// boundaries into parts (separated by ``sentencePause`` of silence), so that no worker ever holds
/// a long paragraph's audio at once. A sentence longer than ``maximumSentenceWords`` or
/// ``maximumLength`` (text without full stops, or with lower-case words after them, a line
/// without spaces) is cut further by ``PhraseSplitter`` at the best boundary it has, down to a
/// fixed length, so that what one worker synthesizes at once, and so its memory, is bounded
/// whatever the text. Parts cut inside a sentence are separated by a shorter pause (after a
/// clause or comma) or none (between words, inside a word). Every part keeps its offset in the
/// utterance's text, so word timings still point at the written text.
///
/// A chapter's own pauses go before its first item and after its last.
public struct ChunkPlanner: Sendable {
    public var sampleRate: Int
    public var maximumSeconds: Double
    public var minimumSeconds: Double
    /// The most words one part of an utterance has, unless it is one sentence.
    public var maximumUtteranceWords: Int
    /// The most words one sentence may have and still be spoken as one part.
    public var maximumSentenceWords: Int
    /// The most UTF-16 code units one part has.
    public var maximumLength: Int
    public var sentencePause: Double
    /// Silence added where the voice changes inside an utterance, on top of the punctuation's own:
    /// espeak-ng itself pauses about this long more at a closing quotation mark, where speech
    /// usually ends.
    public var voiceChangePause: Double = 0.12

    /// - parameters:
    ///     - maximumSentenceWords: Above the usual sentence's length (0 for ``maximumUtteranceWords``),
    ///       so that ordinary books are not cut inside sentences.
    ///     - maximumLength: Far above the length of ``maximumUtteranceWords`` words of any spaced
    ///       script, so that only text with few spaces is cut by it.
    public init(sampleRate: Int, maximumSeconds: Double = 150, maximumUtteranceWords: Int = 300, maximumSentenceWords: Int = 600,
                maximumLength: Int = 8000, sentencePause: Double = 0.3) {
        self.sampleRate = sampleRate
        self.maximumSeconds = maximumSeconds
        self.minimumSeconds = maximumSeconds * 0.4
        self.maximumUtteranceWords = maximumUtteranceWords
        self.maximumSentenceWords = max(maximumSentenceWords, maximumUtteranceWords)
        self.maximumLength = maximumLength
        self.sentencePause = sentencePause
    }

    /// Text with fewer words than this many code units per word (a long run without spaces) is
    /// estimated by its length instead.
    static let unitsPerWordEstimate = 12

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
    /// language and quoted speech have their own, after the pause the punctuation where the voice
    /// changes asks for — a sentence's, a clause's, a comma's, none inside a sentence — and
    /// ``voiceChangePause``), and runs
    /// longer than the limits cut into whole sentences (and an over-long sentence into pieces).
    func parts(of utterance: Utterance, index: Int) -> [RenderChunk.Item] {
        let pre = samples(utterance.preDelay), post = samples(utterance.postDelay)
        if utterance.segments.isEmpty, utterance.wordCount <= maximumUtteranceWords, utterance.text.utf16.count <= maximumLength {
            return [.init(utterance: index, textOffset: 0, text: utterance.text, voice: utterance.voice,
                          silenceBefore: pre, silenceAfter: post, wordCount: utterance.wordCount, pronunciations: utterance.pronunciations)]
        }
        let units = Array(utterance.text.utf16)
        // Words are counted where they start, so a word cut at a fixed length counts once.
        let wordStarts = WordTokenizer.tokens(in: utterance.text).map(\.start)
        var nextWord = 0
        func wordsStarting(in range: Range<Int>) -> Int {
            while nextWord < wordStarts.count, wordStarts[nextWord] < range.lowerBound { nextWord += 1 }
            var n = 0
            while nextWord + n < wordStarts.count, wordStarts[nextWord + n] < range.upperBound { n += 1 }
            return n
        }
        let sorted = utterance.pronunciations.sorted { $0.offset < $1.offset }
        let unbreakable = sorted.map { $0.offset..<$0.end }
        // The hints wholly inside each part (parts come in order), relative to its start.
        var nextHint = 0
        func hints(in range: Range<Int>) -> [Pronunciation] {
            while nextHint < sorted.count, sorted[nextHint].offset < range.lowerBound { nextHint += 1 }
            var result: [Pronunciation] = []
            var i = nextHint
            while i < sorted.count, sorted[i].offset < range.upperBound {
                if sorted[i].end <= range.upperBound {
                    result.append(Pronunciation(offset: sorted[i].offset - range.lowerBound, length: sorted[i].length, spoken: sorted[i].spoken))
                }
                i += 1
            }
            return result
        }
        var items: [RenderChunk.Item] = []
        let voiceRuns = runs(of: utterance, units: units)
        for (r, run) in voiceRuns.enumerated() {
            let groups = sentenceGroups(units, in: run.range, unbreakable: unbreakable)
            // Where the voice changes, the pause the punctuation there asks for (none inside a sentence).
            let change = r == voiceRuns.count - 1 ? 0
                : pause(after: PhraseSplitter.boundary(ending: run.range, in: units)) + samples(voiceChangePause)
            for (g, group) in groups.enumerated() {
                let range = group.range
                let text = String(decoding: units[range], as: UTF16.self)
                items.append(.init(utterance: index, textOffset: range.lowerBound, text: text, voice: run.voice,
                                   silenceBefore: 0, silenceAfter: g == groups.count - 1 ? change : pause(after: group.boundary),
                                   wordCount: wordsStarting(in: range),
                                   pronunciations: hints(in: range)))
            }
        }
        // Text between the parts (spaces) is not spoken; the parts cover every word.
        items[0].silenceBefore = pre
        items[items.count - 1].silenceAfter = post
        return items
    }

    /// The silence between two parts of an utterance cut at `boundary`.
    func pause(after boundary: PhraseSplitter.Boundary) -> Int {
        switch boundary {
        case .sentence, .clause: samples(sentencePause)
        case .comma: samples(sentencePause / 2)
        case .word, .length: 0
        }
    }

    /// The utterance's text as consecutive runs of one voice; a stretch without words (spaces,
    /// punctuation) joins the run before it, so no part is silent.
    func runs(of utterance: Utterance, units: [UInt16]) -> [(range: Range<Int>, voice: ResolvedVoice)] {
        // Each run with whether it has a word, so that no run is tokenized again as it grows.
        var runs: [(range: Range<Int>, voice: ResolvedVoice, hasWords: Bool)] = []
        var position = 0
        let hasWords = { (range: Range<Int>) in WordTokenizer.count(in: String(decoding: units[range], as: UTF16.self)) > 0 }
        func add(_ range: Range<Int>, _ voice: ResolvedVoice) {
            guard !range.isEmpty else { return }
            let words = hasWords(range)
            if let last = runs.last {
                if last.voice == voice || !words {
                    runs[runs.count - 1] = (last.range.lowerBound..<range.upperBound, last.voice, last.hasWords || words)
                    return
                }
                if !last.hasWords {
                    runs[runs.count - 1] = (last.range.lowerBound..<range.upperBound, voice, words)
                    return
                }
            }
            runs.append((range, voice, words))
        }
        for segment in utterance.segments.sorted(by: { $0.offset < $1.offset }) {
            let start = max(position, min(segment.offset, units.count)), end = min(units.count, segment.offset + segment.length)
            guard start < end else { continue }
            add(position..<start, utterance.voice)
            add(start..<end, segment.voice)
            position = end
        }
        add(position..<units.count, utterance.voice)
        return runs.map { ($0.range, $0.voice) }
    }

    /// `range` as one group, or as groups of whole sentences of at most the word limit and the
    /// length limit; a sentence over ``maximumSentenceWords`` or the length limit is cut into
    /// pieces by ``PhraseSplitter`` first. Each group with what ends it.
    func sentenceGroups(_ units: [UInt16], in range: Range<Int>,
                        unbreakable: [Range<Int>] = []) -> [(range: Range<Int>, boundary: PhraseSplitter.Boundary)] {
        let text = String(decoding: units[range], as: UTF16.self)
        let words = WordTokenizer.tokens(in: text).map { $0.start + range.lowerBound }
        guard words.count > maximumUtteranceWords || range.count > maximumLength else { return [(range, .sentence)] }
        var w = 0
        func wordsStarting(in r: Range<Int>) -> Int {
            while w < words.count, words[w] < r.lowerBound { w += 1 }
            var n = 0
            while w + n < words.count, words[w + n] < r.upperBound { n += 1 }
            return n
        }
        var groups: [(range: Range<Int>, boundary: PhraseSplitter.Boundary)] = []
        var count = 0
        for sentence in SentenceSplitter.sentences(in: text) {
            let shifted = (sentence.lowerBound + range.lowerBound)..<(sentence.upperBound + range.lowerBound)
            var pieces = [PhraseSplitter.Piece(range: shifted, boundary: .sentence)]
            let sentenceWords = wordsStarting(in: shifted)
            if sentenceWords > maximumSentenceWords || shifted.count > maximumLength {
                pieces = PhraseSplitter.pieces(units, in: shifted, maximumWords: maximumUtteranceWords, maximumLength: maximumLength,
                                               unbreakable: unbreakable)
            }
            for piece in pieces {
                let n = pieces.count == 1 ? sentenceWords : wordsStarting(in: piece.range)
                if let last = groups.last, count + n <= maximumUtteranceWords,
                   piece.range.upperBound - last.range.lowerBound <= maximumLength {
                    groups[groups.count - 1] = (last.range.lowerBound..<piece.range.upperBound, piece.boundary)
                    count += n
                } else {
                    groups.append((piece.range, piece.boundary))
                    count = n
                }
            }
        }
        return groups.isEmpty ? [(range, .sentence)] : groups
    }

    /// Whether a chunk may end before `item`, decided by its text alone (FNV-1a, one in four).
    static func isBoundary(_ item: RenderChunk.Item) -> Bool {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in item.text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash >> 60 & 3 == 0
    }

    func estimatedSeconds(_ item: RenderChunk.Item) -> Double {
        Double(item.silenceBefore + item.silenceAfter) / Double(sampleRate)
            + Double(max(item.wordCount, item.text.utf16.count / Self.unitsPerWordEstimate)) * 60 / Double(item.voice.wordsPerMinute)
    }

    func samples(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
}
