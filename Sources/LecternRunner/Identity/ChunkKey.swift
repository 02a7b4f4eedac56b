import Foundation
import LecternCore
import LecternSpeech

/// The cache key of a chunk: a SHA-256 of its ``ChunkRequest`` — everything that changes its
/// audio: each item's text, pronunciations, resolved voice and surrounding silences, the engine
/// and its data (for a Piper voice, its model file's hash and settings), the sample rate, the MP3
/// settings, the loudness target, whether the PCM is kept, and the renderer's versions.
///
/// Derived, not listed: the request is encoded whole (JSON, keys sorted) after the fields that
/// never change the audio are blanked — where its stream is written, and where the chunk lies in
/// the book (its index, chapter, and the utterances its items belong to: ``RenderChunk/unplaced``),
/// which only decide where its audio and word marks are placed. A field added to the request, the
/// chunk or an item is in the key unless it is blanked there.
public enum ChunkKey {
    /// The key of the chunk `request` renders.
    public static func of(_ request: ChunkRequest) throws -> String {
        var sound = request
        sound.output = ""
        sound.chunk = request.chunk.unplaced
        var hasher = SHA256()
        hasher.update(try encoded(sound))
        return hasher.hexDigest()
    }

    /// What every chunk of a run shares — the request's settings without a chunk — as text, for the
    /// chapters' fingerprints (``ChapterFingerprint``): a change here re-renders every chapter.
    public static func settings(of request: ChunkRequest) throws -> String {
        var settings = request
        settings.output = ""
        settings.chunk = RenderChunk(index: 0, chapter: 0, items: [])
        settings.voiceIdentities = [:]
        return String(decoding: try encoded(settings), as: UTF8.self)
    }

    /// The canonical encoding: JSON with its keys sorted, so equal requests give equal bytes. (It
    /// fails only on a number that is not finite, which no valid manifest gives.)
    private static func encoded(_ request: ChunkRequest) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(request)
    }

    /// The identities of the Piper voices `plan` uses, by model path: each model file is read once
    /// (hashed), not loaded. Each request carries those its chunk uses (``identities(for:among:)``).
    public static func voiceIdentities(of plan: NarrationPlan, installation: PiperInstallation = .default) throws -> [String: String] {
        var identities: [String: String] = [:]
        for voice in plan.voices where voice.isPiper {
            let model = SpeechEngines.model(of: voice, in: installation)
            if identities[model.path] == nil { identities[model.path] = try PiperEngine.identity(model: model) }
        }
        return identities
    }

    /// The identities among `all` of the Piper models `chunk`'s items speak with; a model whose
    /// identity is unknown is named by its path alone.
    public static func identities(for chunk: RenderChunk, among all: [String: String],
                                  installation: PiperInstallation = .default) -> [String: String] {
        var used: [String: String] = [:]
        for item in chunk.items where item.voice.isPiper {
            let model = SpeechEngines.model(of: item.voice, in: installation).path
            used[model] = all[model] ?? "piper \(model) (identity unknown)"
        }
        return used
    }
}
