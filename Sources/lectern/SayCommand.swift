import ArgumentParser
import Foundation
import LecternCore
import LecternSpeech
import LecternAudio

/// `lectern say TEXT -o FILE.mp3`: one utterance, AVSpeechUtterance-style.
struct SayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak one utterance into an MP3 (or WAV) file.",
        discussion: "Example: lectern say \"Hello, world.\" -o hello.mp3 --voice en-gb --rate 0.6"
    )

    @Argument(help: "The text to speak.")
    var text: String

    @Option(name: .shortAndLong, help: "Output file (.mp3 or .wav).")
    var output: String

    @Option(help: "An espeak-ng voice or language code.")
    var voice = "en"

    @Option(help: "Rate, 0…1 (0.5 is normal).")
    var rate = 0.5

    @Option(help: "Pitch multiplier, 0.5…2.0.")
    var pitch = 1.0

    @Option(help: "Volume, 0…1.")
    var volume = 1.0

    @Option(help: "MP3 bitrate in kbit/s.")
    var bitrate = 64

    func validate() throws {
        guard (0...1).contains(rate) else { throw ValidationError("--rate must be from 0 to 1") }
        guard (0.5...2).contains(pitch) else { throw ValidationError("--pitch must be from 0.5 to 2.0") }
        guard (0...1).contains(volume) else { throw ValidationError("--volume must be from 0 to 1") }
        guard AudioSettings.validBitrates.contains(bitrate) else { throw ValidationError("--bitrate \(bitrate) is not an MP3 bitrate") }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("nothing to say") }
    }

    func run() throws {
        reportingErrors {
            let engine = try EspeakEngine.shared()
            let settings = VoiceSettings(name: voice, rate: rate, pitch: pitch, volume: volume).resolved()
            let synthesis = try engine.synthesize(text, voice: settings)
            let samples = Array(synthesis.samples[SilenceTrimmer.speechRange(synthesis.samples)])
            let url = URL(fileURLWithPath: output)
            if url.pathExtension.lowercased() == "wav" {
                try WAVWriter.write(samples, sampleRate: engine.sampleRate, to: url)
                return
            }
            let stream = AtomicFile.temporaryURL(for: url.deletingPathExtension().appendingPathExtension("stream"))
            defer { try? FileManager.default.removeItem(at: stream) }
            let writer = try MP3StreamWriter(url: stream, sampleRate: engine.sampleRate, settings: AudioSettings(bitrate: bitrate))
            try writer.write(samples)
            try writer.finish()
            try MP3BookAssembler.assemble(tag: ID3Tag(title: String(text.prefix(60))), stream: stream, output: url)
        }
    }
}
