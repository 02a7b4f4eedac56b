import LecternCore
import LecternSpeech

/// The cache key of a chunk: a SHA-256 of everything that changes its audio — each item's text
/// and pronunciations (together: what the engine reads), resolved voice and surrounding silences, the engine and its data
/// (for a Piper voice, its model file's hash and settings),
/// the sample rate, the MP3 settings, whether the PCM is kept (a chunk with it has two files), and ``ChunkRenderer/formatVersion``.
///
/// Not part of the key: where the chunk lies in the book (its index, chapter, the utterances its
/// items belong to), which only decides where its audio and word marks are placed.
public struct ChunkKey: Sendable {
    /// What every chunk of a run shares: engine and audio settings.
    public let settings: String
    /// The identity of each Piper voice's engine (model file hash and settings), by model path;
    /// an item with a Piper voice adds its engine's to the key.
    public let voiceIdentities: [String: String]

    public init(engineIdentity: String, sampleRate: Int, audio: AudioSettings, voiceIdentities: [String: String] = [:]) {
        settings = "lectern-chunk \(ChunkRenderer.formatVersion)\n\(engineIdentity)\nrate \(sampleRate)\nmp3 \(audio.bitrate) q\(audio.quality)\n"
            + (audio.loudness.map { "loudness \($0.integrated) \($0.truePeakLimit) leveler \(ChunkRenderer.levelerVersion)\n" } ?? "")
            + (audio.keepsPCM ? "pcm flac\n" : "")
        self.voiceIdentities = voiceIdentities
    }

    /// The identities of the Piper voices `plan` uses, by model path, for ``init(engineIdentity:sampleRate:audio:voiceIdentities:)``:
    /// each model file is read once (hashed), not loaded.
    public static func voiceIdentities(of plan: NarrationPlan, installation: PiperInstallation = .default) throws -> [String: String] {
        var identities: [String: String] = [:]
        for voice in plan.voices where voice.isPiper {
            let model = SpeechEngines.model(of: voice, in: installation)
            if identities[model.path] == nil { identities[model.path] = try PiperEngine.identity(model: model) }
        }
        return identities
    }

    public func key(for chunk: RenderChunk) -> String {
        var hasher = SHA256()
        hasher.update(settings)
        for item in chunk.items {
            let v = item.voice
            if v.isPiper {
                let model = SpeechEngines.model(of: v).path
                hasher.update("engine \(voiceIdentities[model] ?? "piper \(model) (identity unknown)")\n")
            }
            if let speaker = v.speaker { hasher.update("speaker \(speaker.utf8.count) \(speaker)\n") }
            hasher.update("item \(item.silenceBefore) \(item.silenceAfter) \(v.name) \(v.wordsPerMinute) \(v.pitch) \(v.volume) \(item.text.utf8.count)\n")
            hasher.update(item.text)
            for p in item.pronunciations {
                hasher.update("say \(p.offset) \(p.length) \(p.spoken.utf8.count)\n")
                hasher.update(p.spoken)
            }
        }
        return hasher.hexDigest()
    }
}
