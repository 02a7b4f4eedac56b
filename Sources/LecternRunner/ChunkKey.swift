import LecternCore
import LecternSpeech

/// The cache key of a chunk: a SHA-256 of everything that changes its audio — each item's text
/// and pronunciations (together: what the engine reads), resolved voice and surrounding silences, the engine and its data,
/// the sample rate, the MP3 settings, and ``ChunkRenderer/formatVersion``.
///
/// Not part of the key: where the chunk lies in the book (its index, chapter, the utterances its
/// items belong to), which only decides where its audio and word marks are placed.
public struct ChunkKey: Sendable {
    /// What every chunk of a run shares: engine and audio settings.
    public let settings: String

    public init(engineIdentity: String, sampleRate: Int, audio: AudioSettings) {
        settings = "lectern-chunk \(ChunkRenderer.formatVersion)\n\(engineIdentity)\nrate \(sampleRate)\nmp3 \(audio.bitrate) q\(audio.quality)\n"
    }

    public func key(for chunk: RenderChunk) -> String {
        var hasher = SHA256()
        hasher.update(settings)
        for item in chunk.items {
            let v = item.voice
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
