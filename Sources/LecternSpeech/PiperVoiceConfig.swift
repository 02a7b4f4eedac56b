import Foundation

/// What Lectern reads from a Piper voice's `NAME.onnx.json`: its espeak-ng voice, sample rate and
/// inference settings.
public struct PiperVoiceConfig: Sendable, Equatable {
    /// The espeak-ng voice the model was trained on (phonemes come from it), e.g. `en-us`.
    public var espeakVoice: String
    public var sampleRate: Int
    public var noiseScale: Double
    public var noiseWidth: Double
    public var lengthScale: Double

    /// Reads `file`.
    /// - throws: ``SpeechError`` naming the file and the key that is missing or wrong.
    public init(contentsOf file: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw SpeechError("cannot read \(file.path): \((error as NSError).localizedDescription)")
        }
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SpeechError("\(file.path): not a JSON object (a Piper voice's .onnx.json is expected)")
        }
        guard let voice = (json["espeak"] as? [String: Any])?["voice"] as? String, !voice.isEmpty else {
            throw SpeechError("\(file.path): no espeak.voice (Lectern phonemizes Piper voices with espeak-ng)")
        }
        guard let rate = (json["audio"] as? [String: Any])?["sample_rate"] as? Int, rate > 0 else {
            throw SpeechError("\(file.path): no audio.sample_rate")
        }
        let inference = json["inference"] as? [String: Any] ?? [:]
        espeakVoice = voice
        sampleRate = rate
        noiseScale = inference["noise_scale"] as? Double ?? 0.667
        noiseWidth = inference["noise_w"] as? Double ?? 0.8
        lengthScale = inference["length_scale"] as? Double ?? 1
    }
}
