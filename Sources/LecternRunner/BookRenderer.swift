import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternTiming

/// Renders a narration plan on a pool of worker processes, one chunk per stream, and lays the
/// chunks out on the book's timeline from the frames each one actually produced.
///
/// Decoders play every frame of every chunk, except what the book's LAME tag trims: the first
/// chunk's encoder delay (plus the decoder's own 529-sample delay) at the start and the last
/// chunk's padding at the end. So chunk k starts in the decoded book at
/// `Σ(frames of chunks before k) × samplesPerFrame`, and a sample s of its input plays at that
/// start plus s. Every time in the sidecar and every chapter mark comes from these counts.
///
/// Chunks finish in any order; they are laid out in book order as soon as all earlier ones are
/// done, and each paragraph's timing goes straight to the sidecar, so memory stays flat however
/// long the book is.
struct BookRenderer {
    let manifest: Manifest
    let sampleRate: Int
    let engineVersion: String
    let pool: WorkerPool
    /// Folder for the chunk streams (removed by the caller).
    let chunkDirectory: URL

    struct Progress {
        var wordsDone: Int
        var samplesDone: Int
        var chunksDone: Int
        var chunkCount: Int
    }

    struct ChapterSpan {
        var number: Int
        var title: String
        var hash: String
        var startSample: Int
        var sampleCount: Int
    }

    struct Result {
        var chapters: [ChapterSpan]
        var sampleCount: Int
        var parts: [MP3BookAssembler.Part]
        /// Samples after the last chunk's audio that decoders must drop.
        var endPadding: Int
    }

    /// - parameters:
    ///     - sidecar: Receives every chapter and paragraph in order (nil: no JSON timings).
    func render(_ plan: NarrationPlan, sidecar: TimingSidecarWriter?, progress: @escaping (Progress) throws -> Void) throws -> Result {
        let chunks = ChunkPlanner(sampleRate: sampleRate).chunks(for: plan)
        guard !chunks.isEmpty else { throw RunError("nothing to render") }
        let files = chunks.map { chunkDirectory.appendingPathComponent(String(format: "chunk-%06d.mp3", $0.index)) }
        let requests = chunks.map { chunk in
            ChunkRequest(chunk: chunk, output: files[chunk.index].path, bitrate: manifest.audio.bitrate,
                         quality: manifest.audio.quality, writesTag: chunk.index == 0, compensatesSeam: chunk.index != chunks.count - 1)
        }
        var timeline = Timeline(plan: plan, chunks: chunks, sampleRate: sampleRate, sidecar: sidecar, hash: contentHash)
        var done = Progress(wordsDone: 0, samplesDone: 0, chunksDone: 0, chunkCount: chunks.count)
        var parts = [MP3BookAssembler.Part?](repeating: nil, count: chunks.count)
        try pool.run(requests) { result in
            parts[result.index] = MP3BookAssembler.Part(url: files[result.index], audioFrames: result.audioFrames, bytes: result.byteCount)
            try timeline.add(result)
            done.chunksDone += 1
            done.wordsDone += chunks[result.index].wordCount
            done.samplesDone += result.audioFrames * result.samplesPerFrame
            try progress(done)
        }
        guard let last = timeline.last, parts.allSatisfy({ $0 != nil }) else {
            throw RunError("\(parts.filter { $0 == nil }.count) chunks were not rendered")
        }
        let total = try timeline.finish()
        return Result(chapters: timeline.spans, sampleCount: total, parts: parts.compactMap { $0 },
                      endPadding: last.audioFrames * last.samplesPerFrame - last.encoderDelay - last.sampleCount)
    }

    /// A hash of everything that determines a chapter's audio.
    func contentHash(_ chapter: PlannedChapter) -> String {
        var hasher = SHA256()
        hasher.update("espeak-ng \(engineVersion) \(sampleRate)\n")
        hasher.update("mp3 \(manifest.audio.bitrate) q\(manifest.audio.quality)\n")
        hasher.update("chapter \(chapter.title)\n\(chapter.pause.before) \(chapter.pause.after)\n")
        for u in chapter.utterances {
            hasher.update("\(u.kind.rawValue) \(u.voice.name) \(u.voice.wordsPerMinute) \(u.voice.pitch) \(u.voice.volume) \(u.preDelay) \(u.postDelay)\n")
            hasher.update(u.text)
            hasher.update("\n")
        }
        return hasher.hexDigest()
    }
}
