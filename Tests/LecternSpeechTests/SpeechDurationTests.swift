import Testing
import LecternCore
@testable import LecternSpeech

/// What ``SpeechDuration`` counts in a spoken text, and how the rate scales it (#24, item 8).
struct SpeechDurationTests {
    static let voice = ResolvedVoice(name: "en", wordsPerMinute: 175, pitch: 1, volume: 1)

    @Test func countsLettersWordsDigitsAndInnerPauses() {
        let c = SpeechDuration.Counts("“Don’t,” said Alice; “it’s 12 o’clock. Is it—really?”")
        #expect(c.letters == 32)
        #expect(c.words == 8)
        #expect(c.digits == 2)
        #expect(c.commas == 1)
        #expect(c.clauses == 2)  // the semicolon and the dash
        #expect(c.sentenceEnds == 1)  // the final "?" is trimmed with the silence after it
    }

    @Test func punctuationAtTheEndMakesNoPause() {
        #expect(SpeechDuration.Counts("The end.") == SpeechDuration.Counts("The end"))
        #expect(SpeechDuration.Counts("Wait -- what?!”  ").clauses == 1)
        #expect(SpeechDuration.Counts("Wait -- what?!”  ").sentenceEnds == 0)
    }

    @Test func spokenFormsAreCountedAsSpoken() {
        var u = Utterance(kind: .paragraph, text: "Dr. Smith paid £70.", voice: Self.voice, preDelay: 0, postDelay: 0)
        let written = SpeechDuration.seconds(u)
        u.pronunciations = [Pronunciation(offset: 0, length: 3, spoken: "Doctor"), Pronunciation(offset: 15, length: 3, spoken: "seventy pounds")]
        #expect(u.spokenText == "Doctor Smith paid seventy pounds.")
        #expect(SpeechDuration.seconds(u) == SpeechDuration.seconds(of: "Doctor Smith paid seventy pounds.", voice: Self.voice))
        #expect(SpeechDuration.seconds(u) != written)
    }

    @Test func slowerRatesTakeLonger() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)
        var previous = Double.infinity
        for wpm in [80, 99, 120, 175, 200, 300, 449, 450] {
            var voice = Self.voice
            voice.wordsPerMinute = wpm
            let seconds = SpeechDuration.seconds(of: text, voice: voice)
            #expect(seconds <= previous, "\(wpm) wpm")
            previous = seconds
        }
        // At 175 wpm: 180 words of about 3.9 letters at espeak-ng's pace, about 205 words a minute.
        let normal = SpeechDuration.seconds(of: text, voice: Self.voice)
        #expect(normal > 40 && normal < 60)
    }

    @Test func aPiperVoiceHasItsOwnPace() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 20)
        var piper = ResolvedVoice(name: "en_US-joe-medium", wordsPerMinute: 175, pitch: 1, volume: 1, engine: .piper)
        let espeak = SpeechDuration.seconds(of: text, voice: Self.voice)
        #expect(abs(SpeechDuration.seconds(of: text, voice: piper) / espeak - 0.852) < 0.001)
        // Slower and faster, but by less than the rate says.
        piper.wordsPerMinute = 147
        let slow = SpeechDuration.seconds(of: text, voice: piper)
        piper.wordsPerMinute = 258
        let fast = SpeechDuration.seconds(of: text, voice: piper)
        #expect(slow > espeak * 0.852 && slow < espeak * 0.852 * 175 / 147)
        #expect(fast < espeak * 0.852 && fast > espeak * 0.852 * 175 / 258)
    }
}
