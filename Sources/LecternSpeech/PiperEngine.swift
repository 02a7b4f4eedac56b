import Foundation
import LecternCore
import LecternText
internal import COnnxRuntime

/// A neural Piper voice run through onnxruntime's C API, phonemized in process by libespeak-ng.
///
/// Each sentence of an utterance is phonemized clause by clause (``EspeakEngine/phonemeClauses(_:voice:pronunciations:)``,
/// the voice's espeak-ng language, IPA, so lexicon hints apply), turned into the model's phoneme
/// ids as Piper does (start symbol, each phoneme followed by the pad, end symbol) and synthesized
/// on its own; the pieces are joined, so a sentence starts exactly where its piece does.
///
/// Word times: a voice prepared with its duration predictor's output (`durations`, frames per
/// phoneme id; Scripts/prepare-piper-voice.py adds it) gives every phoneme's place in the audio
/// exactly (frames × the hop, the audio's samples per frame); each text word starts at its first
/// phoneme, found by ``PhonemeWordAlignment`` from espeak-ng's phoneme events for the same sentence.
/// A voice without that output has its word times estimated by warping espeak-ng's marks onto the
/// audio (``WordTimeWarp``), flagged ``WordMark/estimated``. Rate maps to the model's length scale
/// and volume scales the samples; pitch is not supported and is ignored here (manifests say so).
/// One caller at a time (a lock); parallel synthesis uses several processes, as with espeak-ng.
public final class PiperEngine: SpeechEngine, @unchecked Sendable {
    // @unchecked Sendable is safe: `session` is used only while `lock` is held.
    public var engineName: VoiceEngine { .piper }
    public let sampleRate: Int
    public let identity: String
    /// The prepared model file (`NAME.onnx`, beside `NAME.onnx.json`).
    public let model: URL
    public let config: PiperVoiceConfig
    /// onnxruntime's threads for this engine.
    public let threads: Int
    /// Whether the model's sampling noise is off (`noise_scale` and `noise_w` 0), which makes the
    /// same phonemes give the same samples whatever was synthesized before; with it on, the
    /// samples depend on the session's seeded noise generator.
    public let deterministic: Bool
    /// Whether the model outputs its phonemes' durations, so that word times are exact.
    public let hasDurations: Bool
    private let installation: PiperInstallation
    private let espeak: EspeakEngine
    private let lock = NSLock()
    private let session: OpaquePointer
    private let takesSpeaker: Bool

    /// Loads the prepared voice `model` with `threads` onnxruntime threads; `deterministic` turns
    /// the model's sampling noise off (the voice's own noise settings otherwise).
    ///
    /// - throws: ``SpeechError`` when the engine is not installed (`make piper`), a voice file is
    ///   missing or onnxruntime cannot load it.
    /// - parameter identity: The engine's ``identity`` when the caller already knows it (the same
    ///   model loaded again), so that the model file is not read and hashed once more.
    public init(model: URL, threads: Int = 1, deterministic: Bool = true, installation: PiperInstallation = .default,
                identity known: String? = nil) throws {
        if let problem = installation.problem { throw SpeechError(problem) }
        let configFile = URL(fileURLWithPath: model.path + ".json")
        for file in [model, configFile] where !FileManager.default.fileExists(atPath: file.path) {
            throw SpeechError("no Piper voice file \(file.path) (run `make piper`, or prepare your voice with Scripts/prepare-piper-voice.py)")
        }
        config = try PiperVoiceConfig(contentsOf: configFile)
        espeak = try EspeakEngine.shared()
        try espeak.validate(voice: config.espeakVoice)
        var error = [CChar](repeating: 0, count: 1024)
        guard let session = lectern_piper_open(installation.library.path, model.path, Int32(max(threads, 1)), 1,
                                               &error, Int32(error.count)) else {
            throw SpeechError(Self.message(error))
        }
        self.session = session
        takesSpeaker = lectern_piper_takes_speaker(session) != 0
        hasDurations = lectern_piper_has_durations(session) != 0
        self.model = model
        self.threads = max(threads, 1)
        self.deterministic = deterministic
        self.installation = installation
        sampleRate = config.sampleRate
        identity = try known ?? Self.identity(model: model, config: config, deterministic: deterministic, espeak: espeak)
    }

    /// What a rendering with the prepared voice `model` depends on besides its input — the model
    /// file's SHA-256, its settings, how it is run and the phonemizer's identity — without loading
    /// the model (a run computes it for chunk keys; the workers load the model). The speaker is
    /// part of each voice, not of the engine.
    public static func identity(model: URL, deterministic: Bool = true, espeak: EspeakEngine? = nil) throws -> String {
        let config = try PiperVoiceConfig(contentsOf: URL(fileURLWithPath: model.path + ".json"))
        return try identity(model: model, config: config, deterministic: deterministic, espeak: espeak ?? EspeakEngine.shared())
    }

    /// How the engine runs a model and times its words; changed whenever that changes what it renders.
    static let method = "onnxruntime C API, Piper phoneme ids, word times from durations by phoneme alignment (1)"

    private static func identity(model: URL, config: PiperVoiceConfig, deterministic: Bool, espeak: EspeakEngine) throws -> String {
        let hash = try fileHash(model)
        let noise = deterministic ? "noise off" : "noise \(config.noiseScale) noise_w \(config.noiseWidth)"
        return "piper \(model.lastPathComponent) sha256 \(hash) \(noise) "
            + "length \(config.lengthScale); \(method); phonemes \(espeak.identity)"
    }

    deinit { lectern_piper_close(session) }

    private static func message(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

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
            return VoiceInfo(name: name, identifier: file.path, languages: [config.espeakVoice], gender: "unspecified", engine: .piper,
                             speakers: config.speakerCount > 1 ? config.speakerNames : nil)
        }
    }

    /// The phonemes the model is given for each sentence of `text` (UTF-16 range and IPA).
    public func sentencePhonemes(_ text: String, pronunciations: [Pronunciation] = []) throws -> [(range: Range<Int>, phonemes: String)] {
        try sentenceClauses(text, pronunciations: pronunciations).map { ($0.range, $0.clauses.joined(separator: " ")) }
    }

    /// Each sentence's clauses' phonemes.
    private func sentenceClauses(_ text: String, pronunciations: [Pronunciation]) throws -> [(range: Range<Int>, clauses: [String])] {
        try sentences(of: text).map { range in
            let piece = String(decoding: Array(text.utf16)[range], as: UTF16.self)
            let clauses = try espeak.phonemeClauses(piece, voice: espeakVoice, pronunciations: Pronunciation.slice(pronunciations, to: range))
            return (range, clauses.map(\.phonemes))
        }
    }

    /// The most phoneme ids the model is given at once. The decoder's memory grows with the audio
    /// it makes in one run (measured with onnxruntime 1.28: 262 MB for 400 ids, 560 MB for 1,600, a
    /// 23 s sentence), so a longer sentence is synthesized in parts cut between its clauses (or,
    /// for a clause longer than this alone, between its words), joined with their times.
    static let maximumIds = 200

    /// `clauses` (one sentence's) grouped into the parts the model is given: each a run of whole
    /// clauses of at most ``maximumIds`` ids (about two a phoneme), a clause longer than that cut
    /// between words.
    static func parts(of clauses: [String], maximumIds: Int = maximumIds) -> [String] {
        let limit = max(maximumIds / 2 - 2, 1)
        var units: [String] = []
        for clause in clauses {
            guard clause.unicodeScalars.count > limit else { units.append(clause); continue }
            var current = ""
            for word in clause.split(separator: " ", omittingEmptySubsequences: true) {
                if !current.isEmpty, current.unicodeScalars.count + 1 + word.unicodeScalars.count > limit {
                    units.append(current)
                    current = ""
                }
                current += (current.isEmpty ? "" : " ") + word
            }
            if !current.isEmpty { units.append(current) }
        }
        var parts: [String] = []
        for unit in units {
            if let last = parts.last, last.unicodeScalars.count + 1 + unit.unicodeScalars.count <= limit {
                parts[parts.count - 1] = last + " " + unit
            } else {
                parts.append(unit)
            }
        }
        return parts
    }

    /// Speaks `text` sentence by sentence; see the type's description. `voice.name` is not used
    /// (the engine is one model); its rate, volume and speaker are.
    ///
    /// - throws: ``SpeechError`` for a speaker the model does not have, or a failed synthesis.
    public func synthesize(_ text: String, voice: ResolvedVoice, pronunciations: [Pronunciation] = []) throws -> Synthesis {
        lock.lock()
        defer { lock.unlock() }
        let speaker = try speakerId(of: voice)
        // What espeak-ng phonemizes must not depend on what it did before (see EspeakLibrary).
        try espeak.reset()
        let speed = Float(voice.wordsPerMinute) / Float(ResolvedVoice.normalWPM)
        var samples: [Int16] = []
        var words: [WordMark] = []
        for (range, clauses) in try sentenceClauses(text, pronunciations: pronunciations) {
            let piece = String(decoding: Array(text.utf16)[range], as: UTF16.self)
            // The sentence's parts, each run on its own and joined: the input, ids, durations and
            // audio of the whole, a joining space taking the place of the next part's first phoneme.
            var input: [Unicode.Scalar] = [], positions: [Int] = [], idCount = 0
            var audio: [Float] = [], durations: [Float]? = []
            for part in Self.parts(of: clauses) {
                let scalars = Array(part.unicodeScalars)
                let (ids, partPositions) = phonemeIds(scalars)
                let run = try generate(ids, speed: speed, speaker: speaker)
                if !input.isEmpty { input.append(" "); positions.append(idCount + (partPositions.first ?? 0)) }
                input += scalars
                positions += partPositions.map { $0 + idCount }
                if let d = run.durations, d.count == ids.count, durations != nil { durations! += d } else { durations = nil }
                idCount += ids.count
                audio += run.audio
            }
            let neural = pcm(audio, volume: voice.volume)
            let (reference, spoken) = try espeak.synthesizeWithPhonemes(piece, voice: espeakVoice,
                                                                        pronunciations: Pronunciation.slice(pronunciations, to: range))
            // espeak-ng now and then repeats an earlier word's event later on (after a colon): keep
            // the marks in text order, each after the one before.
            var marks: [WordMark] = []
            for mark in reference.words where mark.textOffset > (marks.last?.textOffset ?? -1) { marks.append(mark) }
            let sentence: [WordMark]
            if let durations, durations.count == idCount, durations.reduce(0, +) > 0 {
                var exact = exactMarks(marks, in: piece, phonemes: spoken, input: input, positions: positions, durations: durations,
                                       samples: neural.count)
                // The sentence's speech starts where its audio does (the first loud sample): the
                // decoder's sound of a phoneme begins a little before its frames do.
                if !exact.isEmpty {
                    let next = exact.count > 1 ? exact[1].sample - 1 : Int.max
                    exact[0].sample = min(WordTimeWarp.speechSpan(neural).lowerBound, next)
                }
                // Nor does a word start inside a pause: the model now and then gives a pause's
                // frames to the first phoneme after it.
                for i in exact.indices.dropFirst() {
                    exact[i].sample = Self.speechResumes(in: neural, at: exact[i].sample, sampleRate: sampleRate) ?? exact[i].sample
                }
                sentence = exact
            } else {
                sentence = estimatedMarks(marks, reference: reference.samples, neural: neural)
            }
            for mark in sentence {
                var sample = samples.count + mark.sample
                if let previous = words.last?.sample { sample = max(sample, previous + 1) }
                words.append(WordMark(textOffset: range.lowerBound + mark.textOffset, textLength: mark.textLength,
                                      sample: min(sample, samples.count + max(neural.count - 1, 0)), estimated: mark.estimated))
            }
            samples += neural
        }
        return Synthesis(samples: samples, words: words)
    }

    /// The speaker id `voice` asks for (0 when it names none).
    private func speakerId(of voice: ResolvedVoice) throws -> Int64 {
        guard let speaker = voice.speaker else { return 0 }
        do { return Int64(try config.speakerId(speaker)) } catch {
            throw SpeechError("Piper voice \(model.lastPathComponent): \(error)")
        }
    }

    /// Exact word times from the model's durations: each word starts where the frames of its first
    /// phoneme (found by ``PhonemeWordAlignment``) start, in samples from the piece's start.
    private func exactMarks(_ espeakMarks: [WordMark], in text: String, phonemes: [EspeakEngine.SpokenPhoneme], input: [Unicode.Scalar],
                            positions: [Int], durations: [Float], samples: Int) -> [WordMark] {
        // Where each id's frames start, and the samples per frame (256 for Piper's VITS voices).
        var frames: [Double] = [0]
        for d in durations { frames.append(frames.last! + Double(d)) }
        let hop = Double(samples) / frames.last!
        // espeak-ng's phonemes, each given to the last word that starts at or before it.
        var wordPhonemes = [String](repeating: "", count: espeakMarks.count)
        var w = -1
        for phoneme in phonemes {
            while w + 1 < espeakMarks.count, espeakMarks[w + 1].sample <= phoneme.sample { w += 1 }
            if w >= 0 { wordPhonemes[w] += phoneme.ipa }
        }
        let (marks, words) = joinedWordsSplit(espeakMarks, phonemes: wordPhonemes, in: text)
        let starts = PhonemeWordAlignment(input: input, words: words).starts
        var result: [WordMark] = []
        for (i, mark) in marks.enumerated() {
            // A word none of whose phonemes was found starts where the next found word does (bumped after the previous).
            let scalar = starts[i...].lazy.compactMap { $0 }.first
            let id = scalar.map { positions[$0] } ?? (durations.count - 1)
            let sample = Int((frames[id] * hop).rounded())
            result.append(WordMark(textOffset: mark.textOffset, textLength: mark.textLength, sample: sample, estimated: false))
        }
        return result
    }

    /// The words of `text` with their phonemes: espeak-ng's marks, and the text words it spoke
    /// inside the word before them with no event of their own (en-us joins "on the" into one
    /// phoneme word, `ɔnðə`). Such a word takes the end of that word's phonemes, as many as it has
    /// spoken alone (each later one after it), so that its time comes from the model's durations too.
    private func joinedWordsSplit(_ marks: [WordMark], phonemes: [String], in text: String) -> ([WordMark], [String]) {
        let units = Array(text.utf16)
        var missing = [[Range<Int>]](repeating: [], count: marks.count)
        for token in WordTokenizer.tokens(in: text) {
            let word = String(decoding: units[token.start..<token.end], as: UTF16.self)
            // A word none of whose characters a mark covers ("(she" is marked at "she"), after a mark.
            guard word.contains(where: { $0.isLetter || $0.isNumber }),
                  !marks.contains(where: { $0.textOffset < token.end && $0.textOffset + max($0.textLength, 1) > token.start }),
                  let owner = marks.lastIndex(where: { $0.textOffset < token.start }) else { continue }
            missing[owner].append(token.start..<token.end)
        }
        var resultMarks: [WordMark] = [], resultPhonemes: [String] = []
        for (i, mark) in marks.enumerated() {
            let own = Array(phonemes[i].unicodeScalars.filter { !PhonemeWordAlignment.ignored($0) })
            let joined = missing[i]
            guard !joined.isEmpty, own.count > joined.count else {
                resultMarks.append(mark)
                resultPhonemes.append(phonemes[i])
                continue
            }
            // Each joined word's share, from the end, as long as its phonemes alone (at least one).
            let lengths = joined.map { range -> Int in
                let word = String(decoding: units[range], as: UTF16.self)
                let alone = (try? espeak.phonemeClauses(word, voice: espeakVoice).map(\.phonemes).joined()) ?? ""
                return max(alone.unicodeScalars.filter { !PhonemeWordAlignment.ignored($0) }.count, 1)
            }
            var cuts = [Int](repeating: 0, count: joined.count), end = own.count
            for k in joined.indices.reversed() {
                cuts[k] = max(min(end - lengths[k], end - 1), k + 1)
                end = cuts[k]
            }
            var pieces: [String] = [], from = 0
            for cut in cuts + [own.count] {
                pieces.append(String(String.UnicodeScalarView(own[from..<cut])))
                from = cut
            }
            resultMarks.append(mark)
            resultPhonemes.append(pieces[0])
            for (k, range) in joined.enumerated() {
                resultMarks.append(WordMark(textOffset: range.lowerBound, textLength: range.count, sample: mark.sample))
                resultPhonemes.append(pieces[k + 1])
            }
        }
        return (resultMarks, resultPhonemes)
    }

    /// Where speech resumes when `sample` is in a pause — at least 0.1 s below −40 dBFS from it (a
    /// stop consonant's closure is shorter), speech within 0.6 s — else nil.
    static func speechResumes(in samples: [Int16], at sample: Int, sampleRate: Int) -> Int? {
        guard sample >= 0, sample < samples.count else { return nil }
        let end = min(samples.count, sample + sampleRate * 6 / 10), threshold = Int32(WordTimeWarp.threshold)
        guard let loud = samples[sample..<end].firstIndex(where: { abs(Int32($0)) > threshold }) else { return nil }
        return loud - sample >= sampleRate / 10 ? loud : nil
    }

    /// Word times estimated by warping espeak-ng's marks onto the neural audio; a sentence's first
    /// word starts where its piece's speech does (measured on the audio), the others are flagged.
    private func estimatedMarks(_ marks: [WordMark], reference: [Int16], neural: [Int16]) -> [WordMark] {
        let warp = WordTimeWarp(reference: reference, target: neural, sampleRate: sampleRate)
        return marks.enumerated().map { i, mark in
            WordMark(textOffset: mark.textOffset, textLength: mark.textLength,
                     sample: i == 0 ? warp.target.lowerBound : warp.map(mark.sample), estimated: i > 0)
        }
    }

    private var espeakVoice: ResolvedVoice {
        ResolvedVoice(name: config.espeakVoice, wordsPerMinute: ResolvedVoice.normalWPM, pitch: 1, volume: 1)
    }

    /// The sentences of `text`, or the whole text when the splitter finds none.
    private func sentences(of text: String) -> [Range<Int>] {
        let ranges = SentenceSplitter.sentences(in: text)
        return ranges.isEmpty && !text.isEmpty ? [0..<text.utf16.count] : ranges
    }

    /// The model's input for `phonemes`, as Piper makes it: the start symbol and a pad, then each
    /// phoneme the model knows followed by a pad, then the end symbol; and for each phoneme, the
    /// place of its first id (of the next known phoneme's for one the model does not know).
    func phonemeIds(_ phonemes: [Unicode.Scalar]) -> (ids: [Int64], positions: [Int]) {
        let map = config.phonemeIds, pad = map[PiperVoiceConfig.pad]!
        var ids = map[PiperVoiceConfig.bos]! + pad
        var positions: [Int] = []
        positions.reserveCapacity(phonemes.count)
        for phoneme in phonemes {
            positions.append(ids.count)
            if let known = map[phoneme] { ids += known + pad }
        }
        return (ids + map[PiperVoiceConfig.eos]!, positions)
    }

    /// One sentence's audio (−1…1) and, when the model gives them, its ids' durations in frames.
    func generate(_ ids: [Int64], speed: Float, speaker: Int64 = 0) throws -> (audio: [Float], durations: [Float]?) {
        guard ids.count > 3 else { return ([], [Float](repeating: 0, count: ids.count)) }  // no phoneme: no sound
        let noise: Float = deterministic ? 0 : Float(config.noiseScale), noiseWidth: Float = deterministic ? 0 : Float(config.noiseWidth)
        let length = Float(config.lengthScale) / max(speed, 0.1)
        var audio: UnsafeMutablePointer<Float>?, durations: UnsafeMutablePointer<Float>?
        var audioCount: Int64 = 0, durationCount: Int64 = 0
        var error = [CChar](repeating: 0, count: 1024)
        guard lectern_piper_run(session, ids, Int64(ids.count), noise, length, noiseWidth, speaker, &audio, &audioCount,
                                &durations, &durationCount, &error, Int32(error.count)) != 0 else {
            throw SpeechError("Piper voice \(model.lastPathComponent): \(Self.message(error))")
        }
        defer { lectern_piper_free(audio); lectern_piper_free(durations) }
        let samples = Array(UnsafeBufferPointer(start: audio, count: Int(audioCount)))
        return (samples, durations.map { Array(UnsafeBufferPointer(start: $0, count: Int(durationCount))) })
    }

    /// 16-bit samples at `volume`.
    private func pcm(_ audio: [Float], volume: Double) -> [Int16] {
        let gain = Float(min(max(volume, 0), 1)) * 32767
        return audio.map { Int16((min(max($0, -1), 1) * gain).rounded()) }
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
