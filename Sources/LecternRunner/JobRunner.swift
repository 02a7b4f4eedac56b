import Foundation
import Logging
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternAudio
import LecternTiming
import LecternStore

/// Runs a job end to end — read, segment, synthesize, encode, assemble, write sidecars, record —
/// and keeps its run row in the job store current.
///
/// Incremental: every chunk whose ``ChunkKey`` is in the cache is reused, the rest are rendered
/// and cached as they finish, and the book is re-assembled (a concatenation); when nothing that
/// decides the outputs changed and they are untouched on disk, nothing is written at all.
///
/// Safe to kill at any moment: the job is leased while it runs (a second run of it is refused),
/// outputs appear only by rename of complete, synced files, a chunk is recorded only once its
/// file is durable, and the next run marks a dead run interrupted and continues from its chunks.
public struct JobRunner: Sendable {
    public let store: JobStore
    public let cache: ChunkCache
    public let logger: Logger
    public var configDirectory: URL?
    /// Receives progress after every chunk (nil for none).
    public var progress: (@Sendable (RunProgress) -> Void)?
    /// Worker processes (default: one per core).
    public var workers: Int?
    /// The binary to start workers from (default: this process's executable).
    public var workerExecutable: URL?
    /// Render every chunk, even those in the cache.
    public var force = false
    /// Timing exports written in addition to the manifest's (`lectern run --readalong`).
    public var extraTimings: [TimingFormat] = []
    /// Where what a user should know about how the documents were read goes (an encoding
    /// guessed); nil: the logger, as a warning.
    public var warnings: (@Sendable (String) -> Void)?

    private func warn(_ message: String) {
        if let warnings { warnings(message) } else { logger.warning("\(message)") }
    }
    /// Lets a signal handler stop the run.
    public var control: RunControl?
    /// How long the job's lease lasts without a heartbeat (renewed six times per period).
    public var leaseDuration: TimeInterval = 60
    /// Called after each chunk is copied into the book's MP3 (for tests that kill the run there).
    public var assemblyCheckpoint: (@Sendable (Int) -> Void)?

    public init(store: JobStore, logger: Logger, configDirectory: URL? = nil, workers: Int? = nil,
                progress: (@Sendable (RunProgress) -> Void)? = nil) {
        self.store = store
        self.cache = ChunkCache(store: store)
        self.logger = logger
        self.configDirectory = configDirectory
        self.workers = workers
        self.progress = progress
    }

    /// What a successful run produced.
    public struct Summary: Sendable {
        public var run: RunRecord
        public var outputs: [URL]
        /// Whether the outputs were already current, so nothing was written.
        public var upToDate: Bool
        /// Wall-clock seconds of each stage: prepare (read, segment, look up), render, assemble.
        public var phases: [(name: String, seconds: Double)]
    }

    /// Renders the manifest at `url`.
    ///
    /// - throws: the module error of the first failure (``ManifestError``, ``DocumentError``,
    ///   ``SpeechError``, ``AudioError``, ``StoreError``, ``RunError``), after recording the run
    ///   as failed (or cancelled); ``RunError`` without recording a run when another process is
    ///   rendering the same job.
    public func run(manifest url: URL, trigger: String = "manual") throws -> Summary {
        let manifestURL = url.standardizedFileURL
        let job = try store.job(manifestPath: manifestURL.path, name: manifestURL.deletingPathExtension().lastPathComponent, title: nil)
        let holder = ProcessIdentity.current
        switch try store.acquireLease(jobId: job.id!, holder: holder, duration: leaseDuration) {
        case .held(let lease):
            throw RunError("job \(job.name) is already being rendered by process \(ProcessIdentity(lease.holder)?.pid ?? 0)"
                           + (lease.runId.map { " (run \($0))" } ?? "") + "; wait for it to finish, or stop it, and run again")
        case .acquired(_, let interrupted):
            for stale in interrupted {
                logger.warning("marked interrupted", metadata: ["job": "\(job.name)", "run": "\(stale.id ?? 0)", "pid": "\(stale.pid)"])
            }
        }
        defer { try? store.releaseLease(jobId: job.id!, holder: holder) }
        let lastSuccess = try store.latestRun(jobId: job.id!, states: [.succeeded])
        let stopped = try store.latestRun(jobId: job.id!, states: [.interrupted, .cancelled, .failed])
        let resumes = stopped.flatMap { s in (s.id ?? 0) > (lastSuccess?.id ?? 0) ? s.id : nil }
        var run = try store.startRun(job: job, trigger: trigger, resumes: resumes, forced: force)
        // Room for the run's error, should the store be unable to take it (a full disk).
        let note = FailureNote(store: store, runId: run.id!)
        note.reserve()
        var keepNote = false
        defer { if !keepNote { note.remove() } }
        // Without a caller's control, the run still needs one: a lost lease must stop it.
        let control = self.control ?? RunControl()
        let heartbeat = LeaseHeartbeat(store: store, jobId: job.id!, holder: holder, duration: leaseDuration) {
            control.cancel("another process took over the lease on job \(job.name)")
        }
        defer { heartbeat.stop() }
        var temporaries: [URL] = []
        defer { for t in temporaries { try? FileManager.default.removeItem(at: t) } }
        let begun = Date()
        do {
            try store.attachLease(jobId: job.id!, holder: holder, runId: run.id!)
            var loaded = try ManifestLoader(configDirectory: configDirectory).load(manifestURL)
            for format in extraTimings where !loaded.timings.contains(format) { loaded.timings.append(format) }
            let book = try DocumentReader().read(loaded.sources)
            for warning in book.warnings { warn(warning) }
            let manifest = loaded.filling(from: book.metadata)
            _ = try store.job(manifestPath: manifestURL.path, name: manifest.name, title: manifest.title)
            let plan = try Segmenter(manifest: manifest, lexicons: try LexiconFile.load(manifest.lexicons)).plan(book)
            for warning in plan.warnings { warn(warning) }
            for note in plan.pronunciationNotes {
                logger.warning("pronunciation not expressible, read as written",
                               metadata: ["source": "\(note.source)", "text": "\(note.text)", "reason": "\(note.reason)"])
            }
            guard plan.wordCount > 0 else {
                throw DocumentError(document: manifest.file.path, message: "the sources contain no words to narrate (\(plan.skipped.count) passages skipped)")
            }
            let engine = try EspeakEngine.shared()
            try Self.validateVoices(plan, manifest: manifest, engine: engine)
            try OutputPreflight.validate(manifest)
            // A bad cover fails now, not after hours of rendering; an EPUB's own cover fills the gap.
            let cover = try manifest.cover.map(Self.picture)
                ?? book.metadata.cover.map { ID3Tag.Picture(mimeType: $0.mimeType, data: Data($0.data)) }
            try control.check()

            try OutputPreflight.createFolder(manifest)
            let outputs = manifest.outputURLs
            OutputFiles.removeStaleTemporaries(of: outputs + [manifest.outputDirectory.appendingPathComponent("\(manifest.name).chunks")])
            cache.removeStaleTemporaries()

            let renderer = BookRenderer(plan: plan, sampleRate: engine.sampleRate, engineIdentity: engine.identity,
                                        audio: manifest.audio, store: store, cache: cache)
            let cached = force ? [:] : try renderer.cachedResults()
            run.chapterCount = plan.chapters.count
            run.paragraphCount = plan.utteranceCount
            run.wordCount = plan.wordCount
            run.skippedCount = plan.skipped.count
            run.chunkCount = renderer.chunks.count
            run.chunksReused = cached.count
            run.bookHash = renderer.bookHash(manifest: manifest, cover: cover)
            let rows = renderer.chunks.map { chunk in
                RunChunkRecord(runId: run.id!, position: chunk.index, key: renderer.keys[chunk.index],
                               chapterNumber: plan.chapters[chunk.chapter].number, state: cached[chunk.index] == nil ? .pending : .reused)
            }
            try store.planChunks(rows, for: run)
            let previous = try lastSuccess.map { try store.chapters(runId: $0.id!) } ?? []

            if let last = lastSuccess, !force, cached.count == renderer.chunks.count, last.bookHash == run.bookHash,
               let stamp = last.outputStamp, stamp == OutputFiles.stamp(outputs) {
                return try finishUpToDate(&run, last: last, previous: previous, outputs: outputs, begun: begun)
            }
            logger.info("rendering", metadata: ["job": "\(manifest.name)", "chunks": "\(renderer.chunks.count)", "cached": "\(cached.count)"])

            let temporaryDirectory = try cache.temporaryDirectory()
            temporaries.append(temporaryDirectory)
            let pool = WorkerPool(executable: workerExecutable, count: workers, logger: logger)
            control.attach(pool)
            defer { control.attach(nil) }
            // The JSON sidecar is written whenever any timing export is wanted: the others come from it.
            let sidecar = try !manifest.timings.isEmpty ? TimingSidecarWriter(
                url: manifest.timingsURL, title: manifest.title, author: manifest.author,
                audio: manifest.mp3URL.lastPathComponent, sampleRate: engine.sampleRate) : nil
            defer { sidecar?.discard() }
            let started = Date()
            var lastUpdate = Date.distantPast
            let wordCount = plan.wordCount  // once: counting per chunk made long books quadratic
            let rendered = try renderer.render(cached: cached, pool: pool, runId: run.id!, temporaryDirectory: temporaryDirectory,
                                               sidecar: sidecar) { p in
                let status = RunProgress(wordsDone: p.wordsDone, wordCount: wordCount,
                                         audioSecondsDone: Double(p.samplesDone) / Double(engine.sampleRate),
                                         elapsed: Date().timeIntervalSince(started), chunksDone: p.chunksDone, chunkCount: p.chunkCount,
                                         audioSecondsReused: Double(p.samplesReused) / Double(engine.sampleRate))
                progress?(status)
                run.chunksRendered = p.chunksDone - cached.count
                if Date().timeIntervalSince(lastUpdate) >= 1 || p.chunksDone == p.chunkCount {
                    run.wordsDone = p.wordsDone
                    run.audioMsDone = p.samplesDone * 1000 / engine.sampleRate
                    try store.update(run)
                    lastUpdate = Date()
                }
            }
            try control.check()

            // Both outputs are written and synced under temporary names, then renamed together.
            let renderedAt = Date()
            let bookLanguage = manifest.language ?? Segmenter.languageCode(manifest.voice.name) ?? "en"
            let ms = { (sample: Int) in Int((Double(sample) * 1000 / Double(engine.sampleRate)).rounded()) }
            let marks = rendered.chapters.map {
                ID3Tag.ChapterMark(title: $0.title, startMs: ms($0.startSample), endMs: ms($0.startSample + $0.sampleCount), part: $0.part)
            }
            var details = manifest.details
            details.narrator = details.narrator ?? BookDetails.speechEngineNarrator
            let tag = ID3Tag(title: manifest.title, artist: manifest.author, album: manifest.title,
                             cover: cover, chapters: marks, details: details, language: bookLanguage)
            let mp3 = try AtomicFile(manifest.mp3URL)
            try MP3BookAssembler.write(tag: tag, parts: rendered.parts, endPadding: rendered.endPadding, to: mp3,
                                       checkpoint: assemblyCheckpoint)
            try sidecar?.finish(sampleCount: rendered.sampleCount, wordCount: plan.wordCount, skipped: plan.skipped, unpronounced: plan.pronunciationNotes)
            let exportBook = TimingExports.Book(chapterAudio: rendered.chapterAudio, sampleRate: engine.sampleRate,
                                                language: bookLanguage,
                                                workDirectory: temporaryDirectory, logger: logger)
            let exports = try sidecar.map { try TimingExports.prepare(manifest.timings, from: $0, manifest: manifest, book: exportBook) } ?? []
            defer { exports.forEach { $0.discard() } }
            try control.check()
            try mp3.commit()
            if manifest.timings.contains(.json) { try sidecar?.commit() }
            for export in exports { try export.commit() }

            run.state = .succeeded
            run.endedAt = Date()
            run.sampleCount = rendered.sampleCount
            run.durationMs = ms(rendered.sampleCount)
            run.wordsDone = plan.wordCount
            run.audioMsDone = ms(rendered.sampleCount)
            run.mp3Path = manifest.mp3URL.path
            run.timingsPath = manifest.timings.contains(.json) ? manifest.timingsURL.path : nil
            run.outputStamp = OutputFiles.stamp(outputs)
            let chunkCounts = Dictionary(grouping: renderer.chunks, by: { plan.chapters[$0.chapter].number })
            let chapters = rendered.chapters.map { span in
                let chunks = chunkCounts[span.number] ?? []
                let renderedChunks = chunks.filter { cached[$0.index] == nil }.count
                let f = span.fingerprint
                return ChapterRecord(runId: run.id!, number: span.number, title: span.title, contentHash: f.content,
                                     startMs: ms(span.startSample), durationMs: ms(span.startSample + span.sampleCount) - ms(span.startSample),
                                     sampleCount: span.sampleCount, startSample: span.startSample, textHash: f.text,
                                     voiceHash: f.voice, pauseHash: f.pause, settingsHash: f.settings, chunkCount: chunks.count,
                                     chunksRendered: renderedChunks,
                                     change: f.change(among: previous, number: span.number, rendered: renderedChunks > 0, forced: force))
            }
            try store.finish(run, chapters: chapters)
            logger.info("finished", metadata: ["job": "\(manifest.name)", "duration_ms": "\(run.durationMs ?? 0)"])
            let phases = [("prepare", started.timeIntervalSince(begun)), ("render", renderedAt.timeIntervalSince(started)),
                          ("assemble", Date().timeIntervalSince(renderedAt))]
            return Summary(run: run, outputs: outputs, upToDate: false, phases: phases)
        } catch {
            let cancelled = (error as? RunError)?.isCancellation == true || control.cancellation != nil
            run.state = cancelled ? .cancelled : .failed
            run.endedAt = Date()
            run.error = FileError.describe(error)
            // Free what this run holds on disk first: the store may share the disk it filled.
            for t in temporaries { try? FileManager.default.removeItem(at: t) }
            temporaries = []
            do { try store.update(run) } catch let recording {
                // The next process to take the job records it from the note.
                keepNote = note.write(run.error!)
                logger.error("cannot record the run's end", metadata: ["run": "\(run.id ?? 0)", "error": "\(recording)"])
            }
            throw error
        }
    }

    /// Records a run that found its outputs current: every chunk reused, the previous run's
    /// chapters, nothing written.
    private func finishUpToDate(_ run: inout RunRecord, last: RunRecord, previous: [ChapterRecord], outputs: [URL],
                                begun: Date) throws -> Summary {
        run.state = .succeeded
        run.endedAt = Date()
        run.sampleCount = last.sampleCount
        run.durationMs = last.durationMs
        run.wordsDone = run.wordCount ?? 0
        run.audioMsDone = last.durationMs ?? 0
        run.mp3Path = last.mp3Path
        run.timingsPath = last.timingsPath
        run.outputStamp = last.outputStamp
        let chapters = previous.map { old in
            var chapter = old
            chapter.id = nil
            chapter.runId = run.id!
            chapter.chunksRendered = 0
            chapter.change = "unchanged"
            return chapter
        }
        try store.finish(run, chapters: chapters)
        logger.info("up to date", metadata: ["run": "\(run.id ?? 0)"])
        return Summary(run: run, outputs: outputs, upToDate: true, phases: [("prepare", Date().timeIntervalSince(begun))])
    }

    /// Checks every voice the plan uses before any audio is made; an unknown voice is reported
    /// as a manifest error at the key that names it.
    public static func validateVoices(_ plan: NarrationPlan, manifest: Manifest, engine: EspeakEngine) throws {
        for name in plan.voiceNames.sorted() {
            do { try engine.validate(voice: name) } catch let error as SpeechError {
                var key = "voice.name"
                if let kind = manifest.styles.first(where: { $0.value.name == name })?.key {
                    key = "styles.\(kind.rawValue).name"
                } else if manifest.voice.name != name, manifest.overrides.contains(where: { $0.voice?.name == name }) {
                    key = "overrides"
                }
                let top = String(key.prefix { $0 != "." })
                throw ManifestError(file: manifest.file.path, line: manifest.lines[top], key: key, message: error.message)
            }
        }
    }

    /// The manifest's cover, checked by its bytes (``CoverImage``: a JPEG or PNG, at most 16 MB,
    /// embedded with the bytes' MIME type whatever its extension says).
    public static func picture(_ url: URL) throws -> ID3Tag.Picture {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= CoverImage.maxBytes else { throw CoverImage.tooLarge(size) }
            data = try Data(contentsOf: url)
            return ID3Tag.Picture(mimeType: try CoverImage(data: data).mimeType, data: data)
        } catch let rejection as CoverImage.Rejection {
            throw AudioError("the cover \(url.path) cannot be used: \(rejection.reason)")
        } catch {
            throw AudioError("cannot read the cover \(url.path): \(FileError.reason(error))")
        }
    }
}
