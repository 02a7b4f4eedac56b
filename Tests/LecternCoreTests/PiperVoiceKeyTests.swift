import Foundation
import Testing
import LecternCore

/// The manifest keys of a Piper voice (`engine`, `model`, `speaker`) and their errors: each names the file,
/// the line and the dotted key, wherever a voice is given.
@Suite struct PiperVoiceKeyTests {
    /// Loads `yaml` as book.yml beside a.txt (and `files`); returns the manifest or the error.
    private func load(_ yaml: String, files: [String] = []) throws -> Result<Manifest, ManifestError> {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        for f in files { try dir.write(f) }
        let url = try dir.write("book.yml", yaml)
        do { return .success(try ManifestLoader(configDirectory: nil).load(url)) } catch let error as ManifestError {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("voice: { engine: piper, name: en_US-joe-medium, pitch: 1.2 }", 3, "voice.pitch", "no pitch setting"),
        ("voice: { engine: festival }", 3, "voice.engine", "unknown engine \"festival\""),
        ("voice: { engine: piper, model: voices/missing.onnx }", 3, "voice.model", "no such file"),
        ("voice: { engine: espeak-ng, model: v.onnx }", 3, "voice.model", "a Piper voice's"),
        ("styles:\n  heading: { engine: piper, name: en_US-joe-medium, pitch: 0.8 }", 4, "styles.heading.pitch", "no pitch setting"),
        ("languages:\n  fr: { engine: nope }", 4, "languages.fr.engine", "unknown engine"),
        ("voice: { engine: espeak-ng, name: en, speaker: 3 }", 3, "voice.speaker", "multi-speaker Piper voice's"),
        ("voice: { engine: piper, speaker: '' }", 3, "voice.speaker", "an empty speaker"),
    ])
    func aBadPiperVoiceNamesFileLineAndKey(_ voice: String, _ line: Int, _ key: String, _ message: String) throws {
        guard case .failure(let error) = try load("title: T\nsources: [a.txt]\n\(voice)\n", files: ["v.onnx"]) else {
            Issue.record("expected an error for \(voice)")
            return
        }
        #expect(error.line == line && error.key == key, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasSuffix(error.message) && error.description.contains(":\(line): \(key): "))
    }

    @Test func aPiperModelIsReadFromTheManifestsFolder() throws {
        guard case .success(let manifest) = try load("title: T\nsources: [a.txt]\nvoice: { engine: piper, model: voices/v.onnx }\n",
                                                      files: ["voices/v.onnx"]) else {
            Issue.record("the manifest did not load")
            return
        }
        let voice = manifest.voice.resolved()
        #expect(voice.isPiper && voice.model?.hasSuffix("/voices/v.onnx") == true, "\(voice)")
    }

    @Test func aSpeakerIsAPiperVoicesAndGoesWithItsModel() throws {
        guard case .success(let manifest) = try load("""
            title: T
            sources: [a.txt]
            voice: { model: voices/v.onnx, speaker: 12 }
            styles:
              heading: { speaker: narrator }
              quote: { name: en_US-joe-medium }
              list_item: { engine: espeak-ng, name: en }
            """, files: ["voices/v.onnx"]) else {
            Issue.record("the manifest did not load")
            return
        }
        let voice = manifest.voice.resolved()
        #expect(voice.isPiper && voice.speaker == "12" && voice.model?.hasSuffix("/voices/v.onnx") == true, "\(voice)")
        // A layer with a speaker alone keeps the model; another voice or engine drops the speaker.
        let heading = try #require(manifest.styles[.heading]).merged(over: manifest.voice).resolved()
        #expect(heading.speaker == "narrator" && heading.model == voice.model, "\(heading)")
        let quote = try #require(manifest.styles[.quote]).merged(over: manifest.voice).resolved()
        #expect(quote.speaker == nil && quote.name == "en_US-joe-medium" && quote.isPiper, "\(quote)")
        let item = try #require(manifest.styles[.listItem]).merged(over: manifest.voice).resolved()
        #expect(item.speaker == nil && !item.isPiper, "\(item)")
        // A speaker alone implies the Piper engine.
        #expect(VoiceSettings(speaker: "3").resolved().isPiper)
    }
}
