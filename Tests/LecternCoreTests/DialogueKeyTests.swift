import Foundation
import Testing
import LecternCore

/// The manifest's `dialogue:` key: the voice settings of quoted speech, checked and merged like
/// every voice.
@Suite struct DialogueKeyTests {
    func load(_ yaml: String, defaults: String? = nil) throws -> Manifest {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        var config: URL?
        if let defaults {
            try dir.write("Config/defaults.yml", defaults)
            config = dir.url.appendingPathComponent("Config")
        }
        return try ManifestLoader(configDirectory: config).load(try dir.write("book.yml", "title: T\nsources: [a.txt]\n" + yaml))
    }

    func error(_ yaml: String) throws -> ManifestError {
        do {
            _ = try load(yaml)
        } catch let error as ManifestError {
            return error
        }
        Issue.record("expected a ManifestError for:\n\(yaml)")
        throw CancellationError()
    }

    @Test func absentMeansTheNarratorReadsSpeech() throws {
        #expect(try load("voice: { name: en }\n").dialogue == nil)
    }

    @Test func itsSettingsAreAVoicesKeys() throws {
        #expect(try load("dialogue: { pitch: 1.15 }\n").dialogue == VoiceSettings(pitch: 1.15))
        #expect(try load("dialogue: { name: en+f3, rate: 0.55 }\n").dialogue == VoiceSettings(name: "en+f3", rate: 0.55))
    }

    @Test func theDefaultsAndTheManifestMergeFieldByField() throws {
        let m = try load("dialogue: { pitch: 1.2 }\n", defaults: "dialogue: { name: en+f3, pitch: 1.1 }\n")
        #expect(m.dialogue == VoiceSettings(name: "en+f3", pitch: 1.2))
        #expect(try load("voice: { name: en }\n", defaults: "dialogue: { rate: 0.6 }\n").dialogue == VoiceSettings(rate: 0.6))
    }

    @Test func aBadValueNamesItsLineAndKey() throws {
        let misspelt = try error("voice: { name: en }\ndialogue: { pich: 1.1 }\n")
        #expect(misspelt.line == 4 && misspelt.key == "dialogue.pich" && misspelt.message.contains("did you mean pitch"), "\(misspelt)")
        let high = try error("dialogue:\n  pitch: 3\n")
        #expect(high.line == 4 && high.key == "dialogue.pitch" && high.message.contains("0.5"), "\(high)")
        let both = try error("dialogue: { rate: 0.5, wpm: 200 }\n")
        #expect(both.line == 3 && both.key == "dialogue" && both.message.contains("rate or wpm"), "\(both)")
        let shape = try error("dialogue: loud\n")
        #expect(shape.line == 3 && shape.key == "dialogue" && shape.message.contains("mapping"), "\(shape)")
    }

    @Test func aPiperVoiceHasNoPitchForSpeechEither() throws {
        let piper = try error("voice: { engine: piper }\ndialogue: { pitch: 1.2 }\n")
        #expect(piper.line == 4 && piper.key == "dialogue.pitch" && piper.message.contains("Piper"), "\(piper)")
        #expect(try load("voice: { engine: piper }\ndialogue: { engine: espeak-ng, pitch: 1.2 }\n").dialogue?.pitch == 1.2)
    }
}
