import LecternCore
import LecternText
import Testing
@testable import LecternExport

@Suite struct UtteranceTimerTests {
    let timer = UtteranceTimer(sampleRate: 1000)  // 1 sample = 1 ms keeps the arithmetic readable

    @Test func wordsTakeTheFirstMarkInsideThemAndEndWhereTheNextBegins() {
        // "One two three." — marks at each word; a repeated mark inside "two" is ignored.
        let p = timer.paragraph(kind: .paragraph, text: "One two three.", voice: "en",
                                marks: [(0, 0), (4, 300), (5, 350), (8, 600)], speechStart: 2000, speechLength: 1000)
        let words = p.sentences.flatMap(\.words)
        #expect(words.map(\.offset) == [0, 4, 8])
        #expect(words.map(\.length) == [3, 3, 6])
        #expect(words.map(\.start) == [2000, 2300, 2600])
        #expect(words.map(\.end) == [2300, 2600, 3000])
        #expect(words.allSatisfy { $0.estimated == nil })
        #expect(p.start == 2000 && p.end == 3000)
    }

    @Test func wordsWithoutMarksAreInterpolatedByTextPositionAndFlagged() {
        // The engine reported nothing for "shall" (as espeak-ng does for some words).
        let text = "I shall be late."
        let p = timer.paragraph(kind: .paragraph, text: text, voice: "en",
                                marks: [(0, 0), (8, 500), (11, 700)], speechStart: 0, speechLength: 1000)
        let words = p.sentences.flatMap(\.words)
        #expect(words.count == 4)
        // "shall" starts at offset 2, between "I" (0, t=0) and "be" (8, t=500): 2/8 of the way.
        #expect(words[1].start == 125)
        #expect(words[1].estimated == true)
        #expect(words[0].estimated == nil && words[2].estimated == nil)
    }

    @Test func timesNeverGoBackwards() {
        let p = timer.paragraph(kind: .paragraph, text: "a b c", voice: "en",
                                marks: [(0, 400), (2, 100), (4, 500)], speechStart: 0, speechLength: 600)
        let starts = p.sentences.flatMap(\.words).map(\.start)
        #expect(starts == starts.sorted())
    }

    @Test func sentencesSpanTheirWordsAndCoverEveryWord() {
        let text = "Mr. Smith went home. He slept! Then “what?” he asked."
        let marks = WordTokenizer.tokens(in: text).enumerated().map { (offset: $0.element.start, sample: $0.offset * 100) }
        let p = timer.paragraph(kind: .paragraph, text: text, voice: "en", marks: marks, speechStart: 0, speechLength: 2000)
        #expect(p.sentences.count == 3)
        #expect(p.sentences.flatMap(\.words).count == WordTokenizer.count(in: text))
        for s in p.sentences {
            #expect(s.start == s.words.first?.start)
            #expect(s.end == s.words.last?.end)
        }
        let units = Array(text.utf16)
        let first = p.sentences[0]
        #expect(String(decoding: units[first.offset..<first.offset + first.length], as: UTF16.self) == "Mr. Smith went home.")
    }

    @Test func millisecondsAreRoundedFromSamples() {
        let t = UtteranceTimer(sampleRate: 22050)
        #expect(t.ms(22050) == 1000)
        #expect(t.ms(11) == 0)
        #expect(t.ms(12) == 1)
    }
}
