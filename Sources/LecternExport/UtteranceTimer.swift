import LecternCore
import LecternText

/// Turns the engine's word marks for one utterance into timed words and sentences.
///
/// Every word of the text (as ``WordTokenizer`` defines words) gets a time: the first engine
/// mark that falls inside it, or, when the engine reported none (it merges some words), a time
/// interpolated between its neighbours by text position. Each word ends where the next begins;
/// the last ends with the speech.
public struct UtteranceTimer: Sendable {
    public let sampleRate: Int

    public init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// - parameters:
    ///     - text: The utterance's text.
    ///     - marks: (UTF-16 offset, sample) of each word the engine reported, relative to the speech start.
    ///     - speechStart: The absolute sample at which the speech starts in the book.
    ///     - speechLength: The speech's length in samples.
    ///     - engine: The engine of `voice`, named in the paragraph.
    ///     - estimatedMarks: The offsets of the marks whose times the engine estimated; their words are flagged.
    public func paragraph(kind: BlockKind, text: String, voice: String, marks: [(offset: Int, sample: Int)],
                          speechStart: Int, speechLength: Int, spans: [VoiceSpan] = [],
                          pronounced: [Pronunciation] = [], engine: VoiceEngine? = nil, estimatedMarks: Set<Int> = []) -> ParagraphTiming {
        let tokens = WordTokenizer.tokens(in: text)
        var starts = [Int?](repeating: nil, count: tokens.count)
        var estimated = [Bool](repeating: false, count: tokens.count)
        var m = 0
        for (i, token) in tokens.enumerated() {
            while m < marks.count, marks[m].offset < token.start { m += 1 }
            if m < marks.count, marks[m].offset < token.end {
                starts[i] = min(max(marks[m].sample, 0), speechLength)
                estimated[i] = estimatedMarks.contains(marks[m].offset)
            }
        }
        // Times never go backwards.
        var latest = 0
        for i in starts.indices { if let s = starts[i] { latest = max(latest, s); starts[i] = latest } }
        var resolved = [Int](repeating: 0, count: tokens.count)
        var i = 0
        while i < tokens.count {
            if let s = starts[i] { resolved[i] = s; i += 1; continue }
            // A run of words without marks: spread them between the known neighbours.
            var j = i
            while j < tokens.count, starts[j] == nil { j += 1 }
            let (t0, o0) = i > 0 ? (resolved[i - 1], tokens[i - 1].start) : (0, tokens[i].start)
            let (t1, o1) = j < tokens.count ? (starts[j]!, tokens[j].start) : (speechLength, tokens[j - 1].end)
            for k in i..<j {
                let fraction = o1 > o0 ? Double(tokens[k].start - o0) / Double(o1 - o0) : 0
                resolved[k] = t0 + Int((Double(t1 - t0) * fraction).rounded())
                estimated[k] = true
            }
            i = j
        }
        var words: [WordTiming] = []
        for (k, token) in tokens.enumerated() {
            let end = k + 1 < tokens.count ? resolved[k + 1] : speechLength
            words.append(WordTiming(offset: token.start, length: token.end - token.start,
                                    start: ms(speechStart + resolved[k]), end: ms(speechStart + max(end, resolved[k])),
                                    estimated: estimated[k] ? true : nil))
        }
        var sentences: [SentenceTiming] = []
        var w = 0
        let ranges = SentenceSplitter.sentences(in: text)
        for (n, range) in ranges.enumerated() {
            let isLast = n == ranges.count - 1
            var members: [WordTiming] = []
            while w < words.count, isLast || words[w].offset < range.upperBound {
                members.append(words[w])
                w += 1
            }
            guard let first = members.first, let last = members.last else { continue }
            let lo = min(range.lowerBound, first.offset), hi = max(range.upperBound, last.offset + last.length)
            sentences.append(SentenceTiming(offset: lo, length: hi - lo, start: first.start, end: last.end, words: members))
        }
        return ParagraphTiming(kind: kind, text: text, voice: voice, engine: engine, start: ms(speechStart), end: ms(speechStart + speechLength),
                               sentences: sentences, spans: spans.isEmpty ? nil : spans,
                               pronounced: pronounced.isEmpty ? nil : pronounced)
    }

    /// Milliseconds for a sample position, rounded to the nearest.
    public func ms(_ sample: Int) -> Int {
        Int((Double(sample) * 1000 / Double(sampleRate)).rounded())
    }
}
