import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// An utterance too long to synthesize at once is cut into parts bounded in words and length,
/// each keeping its offset in the utterance's text, so word timings still point at what is written.
struct LongUtteranceChunkTests {
    static let voice = ResolvedVoice(name: "en-us", wordsPerMinute: 450, pitch: 1, volume: 1)
    static let planner = ChunkPlanner(sampleRate: 22050)

    static func items(_ text: String, pronunciations: [Pronunciation] = []) -> (Utterance, [RenderChunk]) {
        var utterance = Utterance(kind: .paragraph, text: text, voice: voice, preDelay: 0.2, postDelay: 0.5)
        utterance.pronunciations = pronunciations
        let plan = NarrationPlan(chapters: [PlannedChapter(number: 1, title: "One", pause: Pause(before: 0.5, after: 1), utterances: [utterance])],
                                 skipped: [])
        return (utterance, planner.chunks(for: plan))
    }

    /// Every part is its stretch of the utterance's text, within the limits; together the parts
    /// hold every non-space character once, in order, and count every word once.
    static func checkParts(_ utterance: Utterance, _ chunks: [RenderChunk]) {
        let units = Array(utterance.text.utf16)
        var position = 0
        var covered: [UInt16] = []
        let items = chunks.flatMap(\.items)
        for item in items {
            let length = item.text.utf16.count
            #expect(item.textOffset >= position)
            #expect(Array(units[item.textOffset..<(item.textOffset + length)]) == Array(item.text.utf16), "the part is not its stretch of the text")
            #expect(length <= planner.maximumLength)
            #expect(item.wordCount <= planner.maximumUtteranceWords)
            covered += item.text.utf16
            position = item.textOffset + length
        }
        #expect(covered.filter { $0 != 32 } == units.filter { $0 != 32 })
        #expect(items.reduce(0) { $0 + $1.wordCount } == utterance.wordCount)
        for chunk in chunks where chunk.items.count > 1 {
            #expect(chunk.items.reduce(0) { $0 + planner.estimatedSeconds($1) } <= planner.maximumSeconds)
        }
    }

    @Test func textWithoutPunctuationIsCutBetweenWordsWithoutPauses() {
        let text = (0..<20_000).map { "word\($0 % 97)" }.joined(separator: " ")
        let (utterance, chunks) = Self.items(text)
        Self.checkParts(utterance, chunks)
        let items = chunks.flatMap(\.items)
        #expect(items.count == 20_000 / 300 + 1)
        #expect(items.dropLast().allSatisfy { $0.wordCount == 300 })
        #expect(items.dropFirst().dropLast().allSatisfy { $0.silenceBefore == 0 && $0.silenceAfter == 0 }, "no pause inside a sentence")
        #expect(chunks.count > 10, "parts spread over chunks")
    }

    @Test func lowerCaseSentenceStartsAreCutAtFullStopsWithTheSentencePause() {
        let text = (0..<20_000).map { "word\($0 % 89)" + ($0 % 10 == 9 ? "." : "") }.joined(separator: " ")
        #expect(SentenceSplitter.sentences(in: text).count == 1, "no sentence ends before a lower-case word")
        let (utterance, chunks) = Self.items(text)
        Self.checkParts(utterance, chunks)
        let items = chunks.flatMap(\.items)
        #expect(items.allSatisfy { $0.text.hasSuffix(".") })
        #expect(items.dropLast().allSatisfy { $0.silenceAfter == Self.planner.samples(Self.planner.sentencePause) })
    }

    @Test func aLineWithoutSpacesIsCutAtAFixedLengthAndCountsAsOneWord() {
        let text = String(repeating: "abcdefghij", count: 100_000)
        let (utterance, chunks) = Self.items(text)
        Self.checkParts(utterance, chunks)
        let items = chunks.flatMap(\.items)
        #expect(items.count == 1_000_000 / Self.planner.maximumLength + (1_000_000 % Self.planner.maximumLength == 0 ? 0 : 1))
        #expect(items.map(\.wordCount) == [1] + Array(repeating: 0, count: items.count - 1))
        #expect(items.map(\.text).joined() == text)
        // Estimated by its length, so chunks stay bounded although it is one word.
        #expect(chunks.count > 10)
    }

    @Test func ordinaryParagraphsAreCutOnlyBetweenSentences() {
        // 60 sentences of 8 to 27 words: parts end at sentence ends, as before over-long sentences were cut.
        let sentences = (0..<60).map { i in "Sentence \(i) " + (0..<(6 + i * 7 % 20)).map { "w\($0 + i)" }.joined(separator: " ") + "." }
        let text = sentences.joined(separator: " ")
        let (utterance, chunks) = Self.items(text)
        Self.checkParts(utterance, chunks)
        let items = chunks.flatMap(\.items)
        #expect(items.count > 1)
        for item in items { #expect(sentences.contains { item.text.hasPrefix($0) } && item.text.hasSuffix(".")) }
        // A sentence of 500 words (long, not over-long) stays one part.
        let long = "It was " + (0..<498).map { "w\($0)" }.joined(separator: " ") + "."
        let (_, longChunks) = Self.items(long)
        #expect(longChunks.flatMap(\.items).map(\.text) == [long])
    }

    @Test func pronunciationsStayWithTheirPartAndAreNeverCut() {
        let words = (0..<2_000).map { "word\($0)" }
        let text = words.joined(separator: " ")
        let units = Array(text.utf16)
        // A hint over the words around each place a cut without hints would fall (after 300, 600 … words).
        var hints: [Pronunciation] = []
        var offset = 0
        for (i, word) in words.enumerated() {
            if i % 300 == 299 {
                let length = word.utf16.count + 1 + words[i + 1].utf16.count
                hints.append(Pronunciation(offset: offset, length: length, spoken: "[[h'EloU]]"))
            }
            offset += word.utf16.count + 1
        }
        let (utterance, chunks) = Self.items(text, pronunciations: hints)
        Self.checkParts(utterance, chunks)
        let items = chunks.flatMap(\.items)
        #expect(items.reduce(0) { $0 + $1.pronunciations.count } == hints.count, "a hint was cut")
        for item in items {
            for hint in item.pronunciations {
                let written = String(decoding: units[(item.textOffset + hint.offset)..<(item.textOffset + hint.end)], as: UTF16.self)
                #expect(hints.contains { String(decoding: units[$0.offset..<$0.end], as: UTF16.self) == written })
            }
        }
    }
}
