import Foundation
import Testing
import LecternCore
import LecternSpeech

/// Synthesis with pronunciation hints, on the real libespeak-ng: the hinted stretch sounds as the
/// hint says, and the word marks still point at the written text.
@Suite struct PronunciationSynthesisTests {
    static let voice = ResolvedVoice(name: "en-us", wordsPerMinute: 175, pitch: 1, volume: 1)

    static func written(_ text: String, _ marks: [WordMark]) -> [String] {
        marks.map { String(decoding: Array(text.utf16)[$0.textOffset..<($0.textOffset + $0.textLength)], as: UTF16.self) }
    }

    @Test func phonemesChangeTheAudioAndMarksStayOnTheWrittenWords() throws {
        let engine = try EspeakEngine.shared()
        let text = "Then Macon grew, and Macon's mills ran."
        let plain = try engine.synthesize(text, voice: Self.voice)
        // "Macon" is /ˈmeɪkən/, which espeak-ng by default says as m'ak@n.
        let hinted = try engine.synthesize(text, voice: Self.voice, pronunciations: [Pronunciation(offset: 5, length: 5, spoken: "[[m'eIk@n]]")])
        #expect(plain.samples != hinted.samples)
        #expect(Self.written(text, hinted.words) == Self.written(text, plain.words))
        #expect(Self.written(text, hinted.words).prefix(3) == ["Then", "Macon", "grew"])
        #expect(hinted.words.map(\.textOffset) == plain.words.map(\.textOffset))
        for (a, b) in zip(hinted.words, hinted.words.dropFirst()) { #expect(a.sample <= b.sample) }
    }

    @Test func aRespellingOfSeveralWordsGivesOneMarkPerWrittenWordOrOneForTheStretch() throws {
        let engine = try EspeakEngine.shared()
        // Two written words, two spoken: a mark each.
        let text = "Ask Dr Who now."
        let two = try engine.synthesize(text, voice: Self.voice, pronunciations: [Pronunciation(offset: 4, length: 6, spoken: "Doctor Who")])
        #expect(Self.written(text, two.words) == ["Ask", "Dr", "Who", "now"])
        // One written word, four spoken: one mark for it.
        let name = "Hermione smiled."
        let one = try engine.synthesize(name, voice: Self.voice, pronunciations: [Pronunciation(offset: 0, length: 8, spoken: "her my oh nee")])
        #expect(Self.written(name, one.words) == ["Hermione", "smiled"])
        #expect(one.words[1].sample > one.words[0].sample)
    }

    @Test func doubleBracketsInTheTextAreNotReadAsPhonemes() throws {
        let engine = try EspeakEngine.shared()
        let text = "See [[note]] and Macon."
        let hinted = try engine.synthesize(text, voice: Self.voice, pronunciations: [Pronunciation(offset: 17, length: 5, spoken: "[[m'eIk@n]]")])
        // The engine's marks cover words without their punctuation.
        #expect(Self.written(text, hinted.words) == ["See", "note", "and", "Macon"])
        // "[[note]]" sounds as it does without any hint (the word "note", not phonemes n-o-t-e).
        let plain = try engine.synthesize(text, voice: Self.voice)
        let span = { (s: Synthesis) in s.words[2].sample - s.words[1].sample }
        #expect(abs(span(hinted) - span(plain)) < 100, "\(span(hinted)) samples vs \(span(plain)) samples")
    }
}
