import Foundation
import LecternCore
import LecternText
internal import CSherpaOnnx

/// A neural Piper voice through sherpa-onnx's C API, phonemized in process by libespeak-ng.
///
/// Each sentence of an utterance is phonemized clause by clause (``EspeakEngine/phonemeClauses(_:voice:pronunciations:)``,
/// the voice's espeak-ng language, IPA, so lexicon hints apply) and synthesized on its own; the
/// pieces are joined, so a sentence starts exactly where its piece does. Inside a sentence, word
/// times are espeak-ng's exact marks for the same sentence warped onto the neural audio
/// (``WordTimeWarp``), flagged ``WordMark/estimated``. Rate maps to the model's length scale and
/// volume scales the samples; pitch is not supported and is ignored here (manifests say so).
/// One caller at a time (a lock); parallel synthesis uses several processes, as with espeak-ng.
public final class PiperEngine: SpeechEngine, @unchecked Sendable {
    // @unchecked Sendable is safe: `tts` is used only while `lock` is held.
    public var engineName: String { "piper" }
    public let sampleRate: Int
    public let identity: String
    /// The prepared model file (`NAME.onnx`, beside `NAME.onnx.json` and `NAME.tokens.txt`).
    public let model: URL
    public let config: PiperVoiceConfig
    /// onnxruntime's threads for this engine.
    public let threads: Int
    /// Whether the model's sampling noise is off (`noise_scale` and `noise_w` 0), which makes the
    /// same phonemes give the same samples; with it on, every synthesis differs (measured).
    public let deterministic: Bool
    private let installation: PiperInstallation
    private let espeak: EspeakEngine
    private let lock = NSLock()
    private let tts: OpaquePointer

    /// Loads the prepared voice `model` with `threads` onnxruntime threads; `deterministic` turns
    /// the model's sampling noise off (the voice's own noise settings otherwise).
    ///
    /// - throws: ``SpeechError`` when the engine is not installed (`make piper`), a voice file is
    ///   missing or sherpa-onnx cannot load it.
    /// - parameter identity: The engine's ``identity`` when the caller already knows it (the same
    ///   model loaded again), so that the model file is not read and hashed once more.
    public init(model: URL, threads: Int = 1, deterministic: Bool = true, installation: PiperInstallation = .default,
                identity known: String? = nil) throws {
        if let problem = installation.problem { throw SpeechError(problem) }
        let base = model.path.hasSuffix(".onnx") ? String(model.path.dropLast(".onnx".count)) : model.path
        let configFile = URL(fileURLWithPath: model.path + ".json"), tokens = URL(fileURLWithPath: base + ".tokens.txt")
        for file in [model, configFile, tokens] where !FileManager.default.fileExists(atPath: file.path) {
            throw SpeechError("no Piper voice file \(file.path) (run `make piper`, or prepare your voice with Scripts/prepare-piper-voice.py)")
        }
        config = try PiperVoiceConfig(contentsOf: configFile)
        espeak = try EspeakEngine.shared()
        try espeak.validate(voice: config.espeakVoice)
        var error = [CChar](repeating: 0, count: 1024)
        guard let tts = lectern_sherpa_onnx_create(installation.library.path, model.path, tokens.path, Int32(max(threads, 1)),
                                                   deterministic ? 1e-6 : Float(config.noiseScale), deterministic ? 1e-6 : Float(config.noiseWidth),
                                                   Float(config.lengthScale),
                                                   &error, Int32(error.count)) else {
            throw SpeechError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.tts = tts
        self.model = model
        self.threads = max(threads, 1)
        self.deterministic = deterministic
        self.installation = installation
        sampleRate = Int(lectern_sherpa_onnx_sample_rate(tts))
        identity = try known ?? Self.identity(model: model, config: config, deterministic: deterministic, espeak: espeak)
    }

    /// What a rendering with the prepared voice `model` depends on besides its input — the model
    /// file's SHA-256, its settings and the phonemizer's identity — without loading the model (a
    /// run computes it for chunk keys; the workers load the model).
    public static func identity(model: URL, deterministic: Bool = true, espeak: EspeakEngine? = nil) throws -> String {
        let config = try PiperVoiceConfig(contentsOf: URL(fileURLWithPath: model.path + ".json"))
        return try identity(model: model, config: config, deterministic: deterministic, espeak: espeak ?? EspeakEngine.shared())
    }

    private static func identity(model: URL, config: PiperVoiceConfig, deterministic: Bool, espeak: EspeakEngine) throws -> String {
        let hash = try fileHash(model)
        let noise = deterministic ? "noise off" : "noise \(config.noiseScale) noise_w \(config.noiseWidth)"
        return "piper \(model.lastPathComponent) sha256 \(hash) \(noise) "
            + "length \(config.lengthScale); phonemes \(espeak.identity)"
    }

    deinit { lectern_sherpa_onnx_destroy(tts) }

    /// The prepared voices of the installation, optionally only those for a language (prefix match).
    public func voices(language: String? = nil) -> [VoiceInfo] {
        Self.installedVoices(language: language, installation: installation)
    }

    /// The prepared voices of `installation`, optionally only those for a language (prefix match),
    /// without loading any model.
    public static func installedVoices(language: String? = nil, installation: PiperInstallation = .default) -> [VoiceInfo] {
        installation.voiceNames().compactMap { name -> VoiceInfo? in
            let file = installation.model(named: name)
            guard let config = try? PiperVoiceConfig(contentsOf: URL(fileURLWithPath: file.path + ".json")) else { return nil }
            if let language {
                let l = language.lowercased(), v = config.espeakVoice.lowercased()
                guard v == l || v.hasPrefix(l + "-") else { return nil }
            }
            return VoiceInfo(name: name, identifier: file.path, languages: [config.espeakVoice], gender: "unspecified", engine: "piper")
        }
    }

    /// The phonemes the model is given for each sentence of `text` (UTF-16 range and IPA).
    public func sentencePhonemes(_ text: String, pronunciations: [Pronunciation] = []) throws -> [(range: Range<Int>, phonemes: String)] {
        try sentences(of: text).map { range in
            let piece = String(decoding: Array(text.utf16)[range], as: UTF16.self)
            let clauses = try espeak.phonemeClauses(piece, voice: espeakVoice, pronunciations: Pronunciation.slice(pronunciations, to: range))
            return (range, clauses.map(\.phonemes).joined(separator: " "))
        }
    }

    /// Speaks `text` sentence by sentence; see the type's description. `voice.name` is not used
    /// (the engine is one voice); its rate and volume are.
    public func synthesize(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation] = []) throws -> Synthesis {
        lock.lock()
        defer { lock.unlock() }
        // What espeak-ng phonemizes must not depend on what it did before (see EspeakLibrary).
        try espeak.reset()
        let speed = Float(voice.wordsPerMinute) / Float(ResolvedVoice.normalWPM)
        var samples: [Int16] = []
        var words: [WordMark] = []
        for (range, phonemes) in try sentencePhonemes(text, pronunciations: pronunciations) {
            let piece = String(decoding: Array(text.utf16)[range], as: UTF16.self)
            let neural = try generate(phonemes, speed: speed, volume: voice.volume)
            let reference = try espeak.synthesize(piece, voice: espeakVoice, pronunciations: Pronunciation.slice(pronunciations, to: range))
            let warp = WordTimeWarp(reference: reference.samples, target: neural, sampleRate: sampleRate)
            // espeak-ng now and then repeats an earlier word's event later on (after a colon): keep
            // the marks in text order, each after the one before.
            var last = -1
            for mark in reference.words where mark.textOffset > last {
                last = mark.textOffset
                let first = words.last.map { $0.textOffset < range.lowerBound } ?? true
                // A sentence's first word starts where its piece's speech does: exact, measured on the audio.
                var sample = samples.count + (first ? warp.target.lowerBound : warp.map(mark.sample))
                if let previous = words.last?.sample, !first { sample = max(sample, previous + 1) }
                words.append(WordMark(textOffset: range.lowerBound + mark.textOffset, textLength: mark.textLength,
                                      sample: min(sample, samples.count + max(neural.count - 1, 0)), estimated: !first))
            }
            samples += neural
        }
        return Synthesis(samples: samples, words: words)
    }

    private var espeakVoice: ResolvedVoice {
        ResolvedVoice(name: config.espeakVoice, wordsPerMinute: ResolvedVoice.normalWPM, pitch: 1, volume: 1)
    }

    /// The sentences of `text`, or the whole text when the splitter finds none.
    private func sentences(of text: String) -> [Range<Int>] {
        let ranges = SentenceSplitter.sentences(in: text)
        return ranges.isEmpty && !text.isEmpty ? [0..<text.utf16.count] : ranges
    }

    /// One sentence's audio from its phonemes, as 16-bit samples.
    private func generate(_ phonemes: String, speed: Float, volume: Double) throws -> [Int16] {
        let codepoints = phonemes.unicodeScalars.map { Int32(bitPattern: $0.value) }
        guard !codepoints.isEmpty else { return [] }
        var count: Int32 = 0
        var error = [CChar](repeating: 0, count: 1024)
        guard let audio = lectern_sherpa_onnx_generate(tts, codepoints, Int32(codepoints.count), speed, &count, &error, Int32(error.count)) else {
            throw SpeechError(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { lectern_sherpa_onnx_free_samples(audio) }
        let gain = Float(min(max(volume, 0), 1)) * 32767
        return UnsafeBufferPointer(start: audio, count: Int(count)).map { Int16((min(max($0, -1), 1) * gain).rounded()) }
    }

    /// The SHA-256 of a file, read in pieces.
    static func fileHash(_ file: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw SpeechError("cannot read \(file.path): no such file or no permission")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty { hasher.update(data) }
        return hasher.hexDigest()
    }
}
