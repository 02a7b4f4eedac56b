import Foundation
import LecternCore

/// The engines one process speaks with: espeak-ng, and one ``PiperEngine`` per Piper model,
/// created the first time a voice needs it — so a process that renders only espeak-ng voices
/// never loads onnxruntime.
///
/// A worker process renders one chunk at a time, so each model's engine runs with one
/// onnxruntime thread (``piperThreads``): workers are the parallelism, as with espeak-ng, and one
/// thread per synthesis keeps its samples the same on every run.
public final class SpeechEngines: @unchecked Sendable {
    // @unchecked Sendable is safe: `piper` and `identities` are used only while `lock` is held.
    public let espeak: EspeakEngine
    public let installation: PiperInstallation
    /// onnxruntime threads of each Piper engine.
    public let piperThreads: Int
    private var piper: [String: PiperEngine] = [:]
    /// Each model's identity, kept across ``reset()``: a model reopened for every chunk is not
    /// hashed again.
    private var identities: [String: String] = [:]
    private let lock = NSLock()

    public init(espeak: EspeakEngine, installation: PiperInstallation = .default, piperThreads: Int = 1) {
        self.espeak = espeak
        self.installation = installation
        self.piperThreads = piperThreads
    }

    /// The engine that speaks `voice`, loading its Piper model on first use.
    ///
    /// - throws: ``SpeechError`` when the voice is a Piper voice that cannot be loaded (not
    ///   installed, files missing).
    public func engine(for voice: ResolvedVoice) throws -> any SpeechEngine {
        guard voice.isPiper else { return espeak }
        let model = Self.model(of: voice, in: installation)
        lock.lock()
        defer { lock.unlock() }
        if let loaded = piper[model.path] { return loaded }
        let engine = try PiperEngine(model: model, threads: piperThreads, installation: installation, identity: identities[model.path])
        piper[model.path] = engine
        identities[model.path] = engine.identity
        return engine
    }

    /// Closes every Piper model session whose noise is on, so that the next synthesis starts from
    /// a fresh one: the prepared models' noise comes from a seeded generator whose state a session
    /// carries from one synthesis to the next, and a chunk's audio must not depend on the chunks its
    /// worker rendered before (``ChunkRenderer`` calls this per chunk, as it reloads espeak-ng).
    /// Sessions with the noise off (the default) are kept: their noise is multiplied by 0, so what
    /// they synthesized before cannot change what they synthesize next, and loading a model again
    /// for every chunk would cost a second each time.
    public func reset() {
        lock.lock()
        piper = piper.filter { $0.value.deterministic }
        lock.unlock()
    }

    /// The model file of a Piper voice: the one given by path, else the installed voice of its name.
    public static func model(of voice: ResolvedVoice, in installation: PiperInstallation = .default) -> URL {
        voice.model.map { URL(fileURLWithPath: $0) } ?? installation.model(named: voice.name)
    }

    /// Why `voice` cannot be spoken here, or nil: for a Piper voice, the engine is not installed,
    /// no voice of its name is, its files are unreadable, or its sample rate is not `sampleRate`
    /// (the book's; Lectern does not resample). Nothing is loaded.
    public static func problem(with voice: ResolvedVoice, sampleRate: Int, installation: PiperInstallation = .default) -> String? {
        guard voice.isPiper else { return nil }
        if let problem = installation.problem { return problem }
        let model = model(of: voice, in: installation)
        guard FileManager.default.fileExists(atPath: model.path) else {
            if voice.model != nil { return "no Piper voice file \(model.path)" }
            let installed = installation.voiceNames()
            return "no Piper voice \"\(voice.name)\" is installed in \(installation.voicesFolder.path) (installed: "
                + (installed.isEmpty ? "none; run `make piper`" : installed.joined(separator: ", "))
                + "; or give your own voice as model: path/to/voice.onnx)"
        }
        let config: PiperVoiceConfig
        do { config = try PiperVoiceConfig(contentsOf: URL(fileURLWithPath: model.path + ".json")) } catch {
            return "\(error)"
        }
        if let speaker = voice.speaker {
            do { _ = try config.speakerId(speaker) } catch { return "Piper voice \(voice.name): \(error)" }
        }
        guard config.sampleRate == sampleRate else {
            return "the Piper voice \(voice.name) speaks at \(config.sampleRate) Hz and the book is rendered at \(sampleRate) Hz "
                + "(Lectern does not resample; choose a \(sampleRate) Hz voice, such as a `medium` Piper voice)"
        }
        return nil
    }
}
