import Foundation
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternAudio
import LecternStore
import LecternExport

/// Stage 1, plan: reads the manifest and its documents, segments them into the narration plan,
/// checks everything `run` needs before any audio is made (voices, output folder, cover — the
/// same checks `lectern check` makes), and splits the plan into chunks, noting which are cached.
struct RunPlan {
    let manifest: Manifest
    let book: Book
    let plan: NarrationPlan
    let engine: EspeakEngine
    let cover: ID3Tag.Picture?
    let renderer: BookRenderer
    /// The chunks already in the cache, by index (none with `--force`).
    let cached: [Int: ChunkResult]
    /// The files the run writes: the MP3 and the timing exports.
    var outputs: [URL] { manifest.outputURLs }

    /// - parameter warn: Receives what a user should know about how the book was read.
    init(runner: JobRunner, manifestURL: URL, context: inout RunRecording.Context, warn: (String) -> Void) async throws {
        var loaded = try ManifestLoader(configDirectory: runner.configDirectory).load(manifestURL)
        for format in runner.extraTimings where !loaded.timings.contains(format) { loaded.timings.append(format) }
        book = try DocumentReader().read(loaded.sources)
        for warning in book.warnings { warn(warning) }
        manifest = loaded.filling(from: book.metadata)
        _ = try await runner.store.job(manifestPath: manifestURL.path, name: manifest.name, title: manifest.title)
        plan = try Segmenter(manifest: manifest, lexicons: try LexiconFile.load(manifest.lexicons)).plan(book)
        for warning in plan.warnings { warn(warning) }
        for note in plan.pronunciationNotes {
            runner.logger.warning("pronunciation not expressible, read as written",
                                  metadata: ["source": "\(note.source)", "text": "\(note.text)", "reason": "\(note.reason)"])
        }
        engine = try EspeakEngine.shared()
        // A bad cover fails now, not after hours of rendering; an EPUB's own cover fills the gap.
        cover = try JobRunner.preflight(plan, manifest: manifest, book: book, engine: engine)
            ?? book.metadata.cover.map { ID3Tag.Picture(mimeType: $0.mimeType, data: Data($0.data)) }
        try context.control.check()

        try OutputPreflight.createFolder(manifest)
        OutputFiles.removeStaleTemporaries(of: manifest.outputURLs + [manifest.outputDirectory.appendingPathComponent("\(manifest.name).chunks"),
                                                                      ChapterFiles.retiredName(of: manifest.chaptersFolderURL)])
        runner.cache.removeStaleTemporaries()
        renderer = try BookRenderer(plan: plan, sampleRate: engine.sampleRate, engineIdentity: engine.identity,
                                audio: manifest.audio, store: runner.store, cache: runner.cache, shared: runner.sharedChunks,
                                voiceIdentities: try ChunkKey.voiceIdentities(of: plan))
        cached = await runner.force ? [:] : try renderer.cachedResults()

        var run = context.run
        run.chapterCount = plan.chapters.count
        run.paragraphCount = plan.utteranceCount
        run.wordCount = plan.wordCount
        run.skippedCount = plan.skipped.count
        run.chunkCount = renderer.chunks.count
        run.chunksReused = cached.count
        run.bookHash = renderer.bookHash(manifest: manifest, cover: cover)
        context.run = run
        let (renderer, cached, plan) = (self.renderer, self.cached, self.plan)
        let rows = renderer.chunks.map { chunk in
            RunChunkRecord(runId: run.id!, position: chunk.index, key: renderer.keys[chunk.index],
                           chapterNumber: plan.chapters[chunk.chapter].number, state: cached[chunk.index] == nil ? .pending : .reused)
        }
        try await runner.store.planChunks(rows, for: run)
    }

    /// Whether the last successful run already wrote these outputs: every chunk cached, the same
    /// book, and the files untouched since.
    func isUpToDate(after last: RunRecord?, force: Bool, bookHash: String?) -> Bool {
        Self.isUpToDate(after: last, force: force, allCached: cached.count == renderer.chunks.count, bookHash: bookHash) {
            OutputFiles.stamp(outputs)
        }
    }

    /// Whether a run may skip rendering and writing: not forced, every chunk cached, the book's
    /// hash that of the last successful run, and `stamp` (the outputs' stamp now, only taken when
    /// all else agrees) the one that run recorded.
    static func isUpToDate(after last: RunRecord?, force: Bool, allCached: Bool, bookHash: String?, stamp: () -> String) -> Bool {
        guard let last, !force, allCached, last.bookHash == bookHash, let recorded = last.outputStamp else { return false }
        return recorded == stamp()
    }
}
