import Foundation

/// What Lectern reads from a Piper voice's `NAME.onnx.json`: its espeak-ng voice, sample rate,
/// inference settings, phoneme ids and speakers.
public struct PiperVoiceConfig: Sendable, Equatable {
    /// The espeak-ng voice the model was trained on (phonemes come from it), e.g. `en-us`.
    public var espeakVoice: String
    public var sampleRate: Int
    public var noiseScale: Double
    public var noiseWidth: Double
    public var lengthScale: Double
    /// The model's input id(s) of each phoneme symbol (one Unicode scalar each), as trained.
    public var phonemeIds: [Unicode.Scalar: [Int64]]
    /// How many speakers the model has (1 for a single-speaker voice).
    public var speakerCount: Int
    /// A multi-speaker model's speakers by name (`speaker_id_map`), each with its id (0…count−1);
    /// empty for a single-speaker model, or a multi-speaker model that names none.
    public var speakers: [String: Int]

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
        guard let map = json["phoneme_id_map"] as? [String: Any] else {
            throw SpeechError("\(file.path): no phoneme_id_map")
        }
        var ids: [Unicode.Scalar: [Int64]] = [:]
        for (symbol, value) in map {
            let scalars = Array(symbol.unicodeScalars)
            guard scalars.count == 1, let list = value as? [Int], !list.isEmpty else {
                throw SpeechError("\(file.path): phoneme_id_map entry \"\(symbol)\": one symbol with a list of ids expected")
            }
            ids[scalars[0]] = list.map(Int64.init)
        }
        for symbol in [Self.pad, Self.bos, Self.eos] where ids[symbol] == nil {
            throw SpeechError("\(file.path): phoneme_id_map has no \"\(symbol)\" (Piper's pad, start and end symbols)")
        }
        phonemeIds = ids
        speakerCount = max(json["num_speakers"] as? Int ?? 1, 1)
        var named: [String: Int] = [:]
        for (name, id) in json["speaker_id_map"] as? [String: Any] ?? [:] {
            guard let id = id as? Int, id >= 0, id < speakerCount else {
                throw SpeechError("\(file.path): speaker_id_map entry \"\(name)\": an id from 0 to \(speakerCount - 1) expected")
            }
            named[name] = id
        }
        speakers = speakerCount > 1 ? named : [:]
    }

    /// Piper's pad (after every phoneme), beginning and end symbols.
    static let pad: Unicode.Scalar = "_", bos: Unicode.Scalar = "^", eos: Unicode.Scalar = "$"

    /// The speaker id that `speaker` (a name of ``speakers``, or an id) stands for.
    ///
    /// - throws: ``SpeechError`` naming the speakers there are, when the model has none of that
    ///   name or id, or has one speaker only.
    public func speakerId(_ speaker: String) throws -> Int {
        guard speakerCount > 1 else {
            throw SpeechError("speaker \"\(speaker)\": this Piper voice has one speaker (leave speaker out)")
        }
        if let id = speakers[speaker] { return id }
        if let id = Int(speaker), id >= 0, id < speakerCount { return id }
        let names = speakers.keys.sorted()
        throw SpeechError("speaker \"\(speaker)\": no such speaker in this Piper voice (speakers 0 to \(speakerCount - 1)"
            + (names.isEmpty ? ")" : "; names: \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", …" : ""))"))
    }

    /// The speakers as `lectern voices` lists them: by name when the model names them, else by id.
    public var speakerNames: [String] {
        guard speakerCount > 1 else { return [] }
        if !speakers.isEmpty { return speakers.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key) }
        return (0..<speakerCount).map(String.init)
    }
}
