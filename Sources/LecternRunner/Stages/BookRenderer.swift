import Foundation
import LecternCore
import LecternSpeech
import LecternAudio
import LecternExport
import LecternStore

/// Renders a narration plan's chunks — taking each from the chunk cache when its key is there,
/// else on a pool of worker processes — and lays them out on the book's timeline from the frames
/// each one actually has.
///
/// Decoders play every frame of every chunk, except what the book's LAME tag trims: the first
/// chunk's encoder delay (plus the decoder's own 529-sample delay) at the start and the last
/// chunk's padding at the end. So chunk k starts in the decoded book at
/// `Σ(frames of chunks before k) × samplesPerFrame`, and a sample s of its input plays at that
/// start plus s. Every time in the sidecar and every chapter mark comes from these counts, for
/// reused chunks as for new ones.
///
/// A rendered chunk is moved into the cache (synced file, synced folder) and only then recorded
/// in the store, so a run killed at any moment leaves every recorded chunk usable by the next.
struct BookRenderer {
    let plan: NarrationPlan
    let chunks: [RenderChunk]
    /// What a worker is asked for each chunk (its `output` set when it is sent), and its key,
    /// derived from it (``ChunkKey/of(_:)``).
    let requests: [ChunkRequest]
    let keys: [String]
    let sampleRate: Int
    let audio: AudioSettings
    let settings: String
    let store: any JobStore
    let cache: ChunkCache
    /// The chunk store every host reaches, when chunks go through the queue.
    let shared: (any ChunkStore)?

    struct Progress {
        var wordsDone: Int
        var samplesDone: Int
        var chunksDone: Int
        var chunkCount: Int
        /// Samples of `samplesDone` that came from the cache.
        var samplesReused = 0
    }

    struct ChapterSpan {
        var number: Int
        var title: String
        var part: String?
        var fingerprint: ChapterFingerprint
        var startSample: Int
        var sampleCount: Int
    }

    struct Result {
        var chapters: [ChapterSpan]
        var sampleCount: Int
        var parts: [MP3BookAssembler.Part]
        /// Samples after the last chunk's audio that decoders must drop.
        var endPadding: Int
        /// Each chapter's chunk streams, which make an MP3 of the chapter alone.
        var chapterAudio: [ChapterAudio]
        /// Each chunk's PCM file and where its first sample lies in the decoded book, when the
        /// chunks keep their PCM (``AudioSettings/keepsPCM``).
        var pcm: [BookPCM.Chunk]
    }

    init(plan: NarrationPlan, sampleRate: Int, engineIdentity: String, audio: AudioSettings, store: any JobStore, cache: ChunkCache,
         shared: (any ChunkStore)? = nil, voiceIdentities: [String: String] = [:]) throws {
        self.plan = plan
        let chunks = ChunkPlanner(sampleRate: sampleRate).chunks(for: plan)
        self.chunks = chunks
        func request(_ chunk: RenderChunk) -> ChunkRequest {
            ChunkRequest(chunk: chunk, output: "", engine: engineIdentity, voiceIdentities: ChunkKey.identities(for: chunk, among: voiceIdentities),
                         sampleRate: sampleRate, audio: audio)
        }
        self.requests = chunks.map(request)
        self.keys = try requests.map(ChunkKey.of)
        self.sampleRate = sampleRate
        self.audio = audio
        self.settings = try ChunkKey.settings(of: request(RenderChunk(index: 0, chapter: 0, items: [])))
        self.store = store
        self.cache = cache
        self.shared = shared
    }

    /// The cache's results for this book's chunks, by chunk index; entries whose file is missing
    /// or has the wrong size are forgotten (and so rendered again).
    func cachedResults() async throws -> [Int: ChunkResult] {
        let entries = try await store.cachedChunks(keys: Set(keys))
        var results: [Int: ChunkResult] = [:]
        let decoder = JSONDecoder()
        for (index, key) in keys.enumerated() {
            guard let entry = entries[key] else { continue }
            guard var result = try? decoder.decode(ChunkResult.self, from: entry.result),
                  !audio.keepsPCM || result.pcmBytes != nil,
                  await isAvailable(entry, pcm: audio.keepsPCM ? result : nil) else {
                try await store.forgetChunk(key: key)
                continue
            }
            result.index = index
            results[index] = result
        }
        return results
    }

    /// Whether a cache entry's stream is in this host's cache: with a shared chunk store, fetched
    /// from it when missing here, its SHA-256 checked either way; else as recorded in size.
    /// With `pcm` (a chunk whose PCM the run needs), its PCM file too.
    private func isAvailable(_ entry: CachedChunkRecord, pcm: ChunkResult? = nil) async -> Bool {
        guard let shared, let sha256 = entry.sha256 else {
            return cache.isIntact(key: entry.key, bytes: entry.bytes, pcmBytes: pcm?.pcmBytes)
        }
        if let pcm, pcm.pcmSHA256 == nil { return false }  // rendered where the PCM was not shared
        // From the shared folder (a network file system that may hang): not on a task's thread.
        let (cache, key, expected) = (cache, entry.key, ChunkDigest(bytes: entry.bytes, sha256: sha256))
        let pcmExpected = pcm.flatMap { p in p.pcmSHA256.map { ChunkDigest(bytes: p.pcmBytes ?? 0, sha256: $0) } }
        return await OffPool.run {
            if let pcmExpected, (try? cache.fetchPCM(key: key, expected: pcmExpected, from: shared)) == nil { return false }
            return (try? cache.fetch(key: key, expected: expected, from: shared)) != nil
        }
    }

    /// A hash of everything that decides the book's outputs, given its chunk keys: equal hashes
    /// (and untouched output files) mean a run would write the same files again.
    func bookHash(manifest: Manifest, cover: ID3Tag.Picture?) -> String {
        var hasher = SHA256()
        hasher.update("lectern-book 1\n\(manifest.title)\n\(manifest.author ?? "")\n\(manifest.mp3URL.path)\n")
        hasher.update("timings \(manifest.timings.map(\.rawValue).sorted()) \(manifest.timingsURL.path)\n")
        if manifest.formats != [.mp3] || manifest.split != .none {
            hasher.update("formats \(manifest.formats.map(\.rawValue)) split \(manifest.split.rawValue)\n")
        }
        if manifest.vtt != .sentences { hasher.update("vtt \(manifest.vtt.rawValue)\n") }
        hasher.update("details \(manifest.language ?? "-")\n\(manifest.details.fingerprint)\n")
        if let cover {
            hasher.update("cover \(cover.mimeType) \(cover.data.count)\n")
            hasher.update(cover.data)
        }
        for (chunk, key) in zip(chunks, keys) {
            hasher.update("chunk \(key) \(chunk.chapter)")
            for item in chunk.items { hasher.update(" \(item.utterance) \(item.textOffset)") }
            hasher.update("\n")
        }
        for chapter in plan.chapters {
            hasher.update("chapter \(chapter.number) \(chapter.title.utf8.count) \(chapter.title)\n")
            if let part = chapter.part { hasher.update("part \(part.utf8.count) \(part)\n") }
            for u in chapter.utterances { hasher.update("\(u.kind.rawValue) \(u.voice.name)\n") }
        }
        for s in plan.skipped { hasher.update("skipped \(s.source) \(s.chapter ?? 0) \(s.reason)\n\(s.text)\n") }
        for n in plan.pronunciationNotes { hasher.update("unpronounced \(n.source)\n\(n.text)\n\(n.reason)\n") }
        return hasher.hexDigest()
    }

    /// Groups the laid-out chunks by chapter.
    private func chapterAudio(_ results: [ChunkResult], parts: [MP3BookAssembler.Part]) -> [ChapterAudio] {
        var chapters: [ChapterAudio] = []
        var position = 0
        var current = -1
        var frames = 0
        var delay = 0
        for (chunk, (result, part)) in zip(chunks, zip(results, parts)) {
            if chunk.chapter != current {
                current = chunk.chapter
                frames = 0
                delay = result.encoderDelay
                chapters.append(ChapterAudio(parts: [], startSample: position, endPadding: 0, sampleCount: 0))
            }
            let spf = result.samplesPerFrame
            frames += result.audioFrames
            chapters[chapters.count - 1].parts.append(part)
            let padding = result.audioFrames * spf - result.encoderDelay - result.sampleCount
            chapters[chapters.count - 1].endPadding = padding
            chapters[chapters.count - 1].sampleCount = frames * spf - delay - padding
            position += result.audioFrames * spf
        }
        return chapters
    }

    /// How the chunks a run lacks are rendered: on this host, by its worker pool or in this
    /// process (streams written into the run's temporary folder, then moved into the cache and
    /// recorded here), or through the store's chunk queue by workers on any host (see ``QueueRoute``).
    enum Route {
        case local(any LocalChunkRendering)
        case queue(QueueRoute)
    }

    /// Renders the chunks missing from `cached` by `route` and lays out the whole book.
    ///
    /// - parameters:
    ///     - sidecar: Receives every chapter and paragraph in order (nil: no JSON timings).
    ///     - progress: Called once the cached chunks are placed and after each rendered chunk is
    ///       in the cache and recorded.
    func render(cached: [Int: ChunkResult], route: Route, runId: Int64, temporaryDirectory: URL,
                sidecar: TimingSidecarWriter?, progress: (Progress) async throws -> Void) async throws -> Result {
        guard !chunks.isEmpty else { throw RunError("nothing to render") }
        var timeline = Timeline(plan: plan, chunks: chunks, sampleRate: sampleRate, sidecar: sidecar,
                                fingerprint: { ChapterFingerprint($0, settings: settings) })
        var done = Progress(wordsDone: 0, samplesDone: 0, chunksDone: 0, chunkCount: chunks.count)
        var parts = [MP3BookAssembler.Part?](repeating: nil, count: chunks.count)
        var results = [ChunkResult?](repeating: nil, count: chunks.count)
        func place(_ result: ChunkResult) throws {
            results[result.index] = result
            parts[result.index] = MP3BookAssembler.Part(url: cache.url(for: keys[result.index]), audioFrames: result.audioFrames,
                                                        bytes: result.byteCount, tagBytes: result.tagBytes)
            try timeline.add(result)
            done.chunksDone += 1
            done.wordsDone += chunks[result.index].wordCount
            done.samplesDone += result.audioFrames * result.samplesPerFrame
        }
        // Chunks with equal keys (a repeated passage) are rendered once and placed everywhere.
        let work = ChunkReuse(keys: keys, cached: Set(cached.keys))
        for index in work.reused { try place(cached[index]!) }
        done.samplesReused = done.samplesDone
        try await progress(done)

        let positions = work.positions
        let encoder = JSONEncoder()
        let requests = work.rendered.map { index in
            var request = self.requests[index]
            request.output = temporaryDirectory.appendingPathComponent("\(keys[index]).mp3").path
            return request
        }
        if !requests.isEmpty, case .queue(let queue) = route {
            try await queue.render(requests, keys: keys, runId: runId, cache: cache) { result in
                for index in positions[keys[result.index]] ?? [result.index] {
                    var placed = result
                    placed.index = index
                    try place(placed)
                }
                try await progress(done)
            }
        } else if !requests.isEmpty, case .local(let local) = route {
            try await local.run(requests) { result in
                let key = keys[result.index]
                try cache.install(temporaryDirectory.appendingPathComponent("\(key).mp3"), key: key)
                var stored = result
                stored.index = 0
                let entry = CachedChunkRecord(key: key, bytes: result.byteCount, audioFrames: result.audioFrames,
                                              result: try encoder.encode(stored), renderedByRunId: runId)
                for index in positions[key] ?? [result.index] {
                    try await store.recordRendered(entry, runId: runId, position: index)
                    var placed = result
                    placed.index = index
                    try place(placed)
                }
                try await progress(done)
            }
        }
        guard let last = timeline.last, parts.allSatisfy({ $0 != nil }) else {
            throw RunError("\(parts.filter { $0 == nil }.count) chunks were not rendered")
        }
        let total = try timeline.finish()
        let laidOut = results.compactMap { $0 }
        var pcm: [BookPCM.Chunk] = []
        if audio.keepsPCM {
            var start = 0
            for (result, key) in zip(laidOut, keys) {
                pcm.append(BookPCM.Chunk(url: cache.pcmURL(for: key), startSample: start, sampleCount: result.sampleCount))
                start += result.audioFrames * result.samplesPerFrame
            }
        }
        return Result(chapters: timeline.spans, sampleCount: total, parts: parts.compactMap { $0 },
                      endPadding: last.audioFrames * last.samplesPerFrame - last.encoderDelay - last.sampleCount,
                      chapterAudio: chapterAudio(laidOut, parts: parts.compactMap { $0 }), pcm: pcm)
    }
}
