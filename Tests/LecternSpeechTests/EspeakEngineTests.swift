import Foundation
import Testing
import LecternCore
import LecternText
import LecternSpeech

private func voice(_ name: String = "en", wpm: Int = 175, pitch: Double = 1, volume: Double = 1) -> ResolvedVoice {
    ResolvedVoice(name: name, wordsPerMinute: wpm, pitch: pitch, volume: volume)
}

private func peak(_ samples: [Int16]) -> Int { samples.map { abs(Int($0)) }.max() ?? 0 }

/// Real libespeak-ng in this process (no mocks).
@Suite struct EspeakEngineTests {
    @Test func synthesisProducesAudibleSamplesAt22050Hz() throws {
        let engine = try EspeakEngine.shared()
        #expect(engine.sampleRate == 22050)
        let result = try engine.synthesize("Hello world, this is a test.", voice: voice())
        let seconds = Double(result.samples.count) / Double(engine.sampleRate)
        // Six words at 175 words per minute take about two seconds; allow a wide margin.
        #expect(seconds > 0.8 && seconds < 6, "duration \(seconds) s")
        #expect(peak(result.samples) > 1000)
    }

    @Test func wordMarksIncreaseAndStartAtWordsOfTheText() throws {
        let engine = try EspeakEngine.shared()
        let text = "Alice was beginning to get very tired of sitting by her sister."
        let result = try engine.synthesize(text, voice: voice())
        let starts = Set(WordTokenizer.tokens(in: text).map(\.start))
        #expect(result.words.count >= 8, "only \(result.words.count) marks")
        for mark in result.words {
            #expect(starts.contains(mark.textOffset), "mark at \(mark.textOffset) is not the start of a word")
            #expect(mark.textLength > 0)
            #expect(mark.textOffset + mark.textLength <= text.utf16.count)
            #expect(mark.sample >= 0 && mark.sample <= result.samples.count)
        }
        for (a, b) in zip(result.words, result.words.dropFirst()) {
            #expect(a.textOffset < b.textOffset)
            #expect(a.sample <= b.sample)
        }
        // The last word starts well after the first.
        if let first = result.words.first, let last = result.words.last {
            #expect(first.textOffset == 0)
            #expect(last.sample - first.sample > engine.sampleRate)
        }
    }

    /// At 450 words per minute and up espeak-ng speeds speech up with libsonic and reports many
    /// words at the position of the one before; the engine stays just below that speed.
    @Test(arguments: [300, 449, 450])
    func atTheFastestRateEveryWordHasATimeOfItsOwn(wpm: Int) throws {
        let engine = try EspeakEngine.shared()
        let text = "Some years ago, never mind how long precisely, having little or no money in my purse, and nothing particular "
            + "to interest me on shore, I thought I would sail about a little and see the watery part of the world."
        let result = try engine.synthesize(text, voice: voice("en-us", wpm: wpm))
        #expect(result.words.count >= 38)
        // A mark or two may share a position (the engine's own merging); libsonic's runs share a quarter.
        let shared = zip(result.words, result.words.dropFirst()).filter { $0.sample >= $1.sample }.count
        #expect(shared <= 2, "\(shared) of \(result.words.count) marks start where the one before them does")
    }

    @Test func wordMarksAreUTF16OffsetsAfterAstralCharacters() throws {
        let engine = try EspeakEngine.shared()
        // Each emoji is one scalar but two UTF-16 units: "hello" starts at 5, "world" at 15.
        let text = "\u{1F600}\u{1F600} hello big world"
        let result = try engine.synthesize(text, voice: voice())
        let offsets = result.words.map(\.textOffset)
        #expect(offsets.contains(5), "marks: \(offsets)")
        #expect(offsets.contains(15), "marks: \(offsets)")
        #expect(result.words.allSatisfy { $0.textOffset + $0.textLength <= text.utf16.count })
    }

    /// `en-gb+f5` (a cast's voice) is a voice: the variant on the language's voice (`gmw/en`, which
    /// speaks en-gb; `CastEndToEndTests` measures its pitch with aubiopitch); a variant espeak-ng
    /// does not have (or not in that case) is refused, not read as the plain voice.
    @Test func aLanguageCodeTakesAVariant() throws {
        let engine = try EspeakEngine.shared()
        let text = "How are you, Roper?"
        let plain = try engine.synthesize(text, voice: voice("en-gb")).samples
        let variant = try engine.synthesize(text, voice: voice("en-gb+f5")).samples
        #expect(variant != plain && !variant.isEmpty)
        #expect(throws: SpeechError.self) { try engine.validate(voice: "en-gb+nosuch") }
        #expect(throws: SpeechError.self) { try engine.validate(voice: "en+annie") }
        try engine.validate(voice: "en-gb+Annie")
        try engine.validate(voice: "en-us+m3")
    }

    @Test func unknownVoiceThrowsSpeechError() throws {
        let engine = try EspeakEngine.shared()
        let error = try #require(throws: SpeechError.self) {
            try engine.synthesize("Hello.", voice: voice("no-such-voice-xyz"))
        }
        #expect(error.message.contains("no-such-voice-xyz"))
        #expect(throws: SpeechError.self) { try engine.validate(voice: "zz-nowhere") }
        // A failed selection does not break the next synthesis.
        #expect(try !engine.synthesize("Hello.", voice: voice()).samples.isEmpty)
    }

    @Test(arguments: ["en-us", "en-gb", "en"])
    func languageCodesAndVoiceNamesBothSelectAVoice(name: String) throws {
        let engine = try EspeakEngine.shared()
        try engine.validate(voice: name)
        let result = try engine.synthesize("Good morning.", voice: voice(name))
        #expect(peak(result.samples) > 1000)
        #expect(!result.words.isEmpty)
    }

    @Test func voiceListIncludesEnglishAndFiltersByLanguage() throws {
        let engine = try EspeakEngine.shared()
        let english = engine.voices(language: "en")
        #expect(!english.isEmpty)
        #expect(english.allSatisfy { $0.languages.contains { $0.lowercased() == "en" || $0.lowercased().hasPrefix("en-") } })
        #expect(engine.voices().count > english.count)
    }

    @Test func slowerRateGivesLongerSpeech() throws {
        let engine = try EspeakEngine.shared()
        let text = "The quick brown fox jumps over the lazy dog."
        let slow = try engine.synthesize(text, voice: voice(wpm: 80)).samples.count
        let fast = try engine.synthesize(text, voice: voice(wpm: 450)).samples.count
        #expect(slow > fast * 2, "80 wpm: \(slow) samples, 450 wpm: \(fast) samples")
    }

    @Test func lowerVolumeGivesQuieterSpeech() throws {
        let engine = try EspeakEngine.shared()
        let loud = peak(try engine.synthesize("Volume check.", voice: voice(volume: 1)).samples)
        let quiet = peak(try engine.synthesize("Volume check.", voice: voice(volume: 0.2)).samples)
        #expect(quiet * 2 < loud, "peaks: \(quiet) vs \(loud)")
    }
}
