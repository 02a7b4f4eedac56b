import Testing
import LecternCore

@Suite struct VoiceSettingsTests {
    @Test func mergedTakesThisLayersValuesAndFallsBackToTheBase() {
        let base = VoiceSettings(name: "en", rate: 0.5, pitch: 1.0, volume: 0.8)
        let layer = VoiceSettings(name: "en-gb", pitch: 1.5)
        #expect(layer.merged(over: base) == VoiceSettings(name: "en-gb", rate: 0.5, pitch: 1.5, volume: 0.8))
        #expect(VoiceSettings().merged(over: base) == base)
        #expect(base.merged(over: VoiceSettings()) == base)
    }

    @Test func aRateInTheLayerReplacesAWordsPerMinuteInTheBase() {
        let merged = VoiceSettings(rate: 0.7).merged(over: VoiceSettings(wpm: 300))
        #expect(merged.rate == 0.7)
        #expect(merged.wpm == nil)
        // 0.7 → 175 + 0.4 × 275 = 285 words per minute.
        #expect(merged.resolved().wordsPerMinute == 285)
    }

    @Test func wordsPerMinuteInTheLayerReplacesARateInTheBase() {
        let merged = VoiceSettings(wpm: 200).merged(over: VoiceSettings(rate: 0.2))
        #expect(merged.wpm == 200)
        #expect(merged.rate == nil)
        #expect(merged.resolved().wordsPerMinute == 200)
    }

    @Test func resolvedUsesAVSpeechDefaultsForUnsetValues() {
        #expect(VoiceSettings().resolved() == ResolvedVoice(name: "en", wordsPerMinute: 175, pitch: 1.0, volume: 1.0))
        #expect(VoiceSettings(name: "en-us", rate: 1, pitch: 2, volume: 0.25).resolved()
                == ResolvedVoice(name: "en-us", wordsPerMinute: 450, pitch: 2, volume: 0.25))
    }

    @Test func wordsPerMinuteWinsOverRateWhenBothAreSet() {
        #expect(VoiceSettings(rate: 0.1, wpm: 222).resolved().wordsPerMinute == 222)
    }

    @Test(arguments: [
        (0.0, 80), (0.5, 175), (1.0, 450),
        (0.25, 128),   // 80 + 0.5 × 95 = 127.5, rounded half away from zero
        (0.75, 313),   // 175 + 0.5 × 275 = 312.5
        (0.1, 99),     // 80 + 0.2 × 95 = 99
        (0.9, 395),    // 175 + 0.8 × 275 = 395
        (-1.0, 80), (2.0, 450),  // clamped to 0…1
    ])
    func rateMapsPiecewiseLinearlyOntoWordsPerMinute(rate: Double, wpm: Int) {
        #expect(ResolvedVoice.wordsPerMinute(forRate: rate) == wpm)
    }

    @Test func rateMappingIsMonotonic() {
        var previous = Int.min
        for step in 0...100 {
            let wpm = ResolvedVoice.wordsPerMinute(forRate: Double(step) / 100)
            #expect(wpm >= previous)
            previous = wpm
        }
    }

    @Test(arguments: [
        (0.5, 0), (1.0, 50), (2.0, 100),
        (2.0.squareRoot(), 75),          // half an octave up: 50 + 50 × 0.5
        (0.5.squareRoot(), 25),          // half an octave down
        (0.25, 0), (4.0, 100),           // clamped to 0.5…2
    ])
    func pitchMultiplierMapsOntoEspeakPitchByOctaves(pitch: Double, espeak: Int) {
        #expect(ResolvedVoice(name: "en", wordsPerMinute: 175, pitch: pitch, volume: 1).espeakPitch == espeak)
    }

    @Test(arguments: [(1.0, 100), (0.0, 0), (0.5, 50), (0.333, 33), (1.5, 100), (-0.2, 0)])
    func volumeMapsOntoEspeakVolumeWithHundredAsNormal(volume: Double, espeak: Int) {
        #expect(ResolvedVoice(name: "en", wordsPerMinute: 175, pitch: 1, volume: volume).espeakVolume == espeak)
    }
}
