import ArgumentParser
import Foundation
import LecternSpeech

/// `lectern voices [--language CODE]`: the installed voices of both engines — espeak-ng's and the
/// prepared Piper voices (`make piper`, or `$LECTERN_PIPER_HOME`), with the speakers of a
/// multi-speaker Piper voice as `VOICE#SPEAKER`.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the espeak-ng and Piper voices (names usable as voice.name in a manifest, with engine: piper for a Piper voice).",
        discussion: "Example: lectern voices --language en"
    )

    @Option(help: "Only voices for this language (e.g. en, en-gb, de).")
    var language: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        reportingErrors {
            let piper = PiperInstallation.default.problem == nil ? PiperEngine.installedVoices(language: language) : []
            let voices = try EspeakEngine.shared().voices(language: language).map { voice -> VoiceInfo in
                var voice = voice
                voice.engine = .espeak
                return voice
            } + piper
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(voices), as: UTF8.self))
                return
            }
            guard !voices.isEmpty else { throw ValidationError("no voices for language \(language ?? "")") }
            for v in voices {
                let language = v.languages.first ?? ""
                let engine = (v.engine ?? .espeak).rawValue
                print(language.padding(toLength: max(12, language.count), withPad: " ", startingAt: 0)
                      + "  " + engine.padding(toLength: 9, withPad: " ", startingAt: 0)
                      + "  \(v.name)  (\(v.identifier); \(v.gender); languages: \(v.languages.joined(separator: ", "))"
                      + (v.speakers.map { "; \($0.count) speakers" } ?? "") + ")")
                // A multi-speaker Piper voice's speakers, one a line: `voice: { name: VOICE, speaker: SPEAKER }`.
                for speaker in v.speakers ?? [] {
                    print(String(repeating: " ", count: max(12, language.count)) + "  " + engine.padding(toLength: 9, withPad: " ", startingAt: 0)
                          + "  \(v.name)#\(speaker)")
                }
            }
        }
    }
}
