import ArgumentParser
import Foundation
import LecternSpeech

/// `lectern voices [--language CODE]`: the installed espeak-ng voices.
struct VoicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voices",
        abstract: "List the espeak-ng voices (names usable as voice.name in a manifest).",
        discussion: "Example: lectern voices --language en"
    )

    @Option(help: "Only voices for this language (e.g. en, en-gb, de).")
    var language: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        reportingErrors {
            let voices = try EspeakEngine.shared().voices(language: language)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(voices), as: UTF8.self))
                return
            }
            guard !voices.isEmpty else { throw ValidationError("no voices for language \(language ?? "")") }
            for v in voices {
                let language = v.languages.first ?? ""
                print(language.padding(toLength: max(12, language.count), withPad: " ", startingAt: 0)
                      + "  \(v.name)  (\(v.identifier); \(v.gender); languages: \(v.languages.joined(separator: ", ")))")
            }
        }
    }
}
