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
/// A failed run leaves no output behind (outputs are renamed into place only when complete)
/// and is recorded as failed with its error.
public struct JobRunner: Sendable {
    public let store: JobStore
    public let logger: Logger
    public var configDirectory: URL?
    /// Receives progress after every chunk (nil for none).
    public var progress: (@Sendable (RunProgress) -> Void)?
    /// Worker processes (default: one per core).
    public var workers: Int?
    /// The binary to start workers from (default: this process's executable).
    public var workerExecutable: URL?

    public init(store: JobStore, logger: Logger, configDirectory: URL? = nil, workers: Int? = nil,
                progress: (@Sendable (RunProgress) -> Void)? = nil) {
        self.store = store
        self.logger = logger
        self.configDirectory = configDirectory
        self.workers = workers
        self.progress = progress
    }

    /// What a successful run produced.
    public struct Summary: Sendable {
        public var run: RunRecord
        public var outputs: [URL]
        /// Wall-clock seconds of each stage: prepare (read, segment), render, assemble.
        public var phases: [(name: String, seconds: Double)]
    }

    /// Renders the manifest at `url`.
    ///
    /// - throws: the module error of the first failure (``ManifestError``, ``DocumentError``,
    ///   ``SpeechError``, ``AudioError``, ``StoreError``), after recording the run as failed.
    public func run(manifest url: URL, trigger: String = "manual") throws -> Summary {
        let manifestURL = url.standardizedFileURL
        let job = try store.job(manifestPath: manifestURL.path, name: manifestURL.deletingPathExtension().lastPathComponent, title: nil)
        var run = try store.startRun(job: job, trigger: trigger)
        var temporaries: [URL] = []
        defer { for t in temporaries { try? FileManager.default.removeItem(at: t) } }
        let begun = Date()
        do {
            let manifest = try ManifestLoader(configDirectory: configDirectory).load(manifestURL)
            _ = try store.job(manifestPath: manifestURL.path, name: manifest.name, title: manifest.title)
            let book = try DocumentReader().read(manifest.sources)
            let plan = try Segmenter(manifest: manifest).plan(book)
            guard plan.wordCount > 0 else {
                throw DocumentError(document: manifest.file.path, message: "the sources contain no words to narrate (\(plan.skipped.count) passages skipped)")
            }
            let engine = try EspeakEngine.shared()
            try Self.validateVoices(plan, manifest: manifest, engine: engine)
            let cover = try manifest.cover.map(Self.picture)  // a bad cover fails now, not after hours of rendering
            run.chapterCount = plan.chapters.count
            run.paragraphCount = plan.utteranceCount
            run.wordCount = plan.wordCount
            run.skippedCount = plan.skipped.count
            try store.update(run)
            logger.info("rendering", metadata: ["job": "\(manifest.name)", "chapters": "\(plan.chapters.count)", "words": "\(plan.wordCount)"])

            try FileManager.default.createDirectory(at: manifest.outputDirectory, withIntermediateDirectories: true)
            let chunkDirectory = manifest.outputDirectory.appendingPathComponent(".\(manifest.name).chunks.\(getpid()).tmp")
            try FileManager.default.createDirectory(at: chunkDirectory, withIntermediateDirectories: true)
            temporaries.append(chunkDirectory)
            let pool = WorkerPool(executable: workerExecutable, count: workers, logger: logger)
            let renderer = BookRenderer(manifest: manifest, sampleRate: engine.sampleRate, engineVersion: engine.version,
                                        pool: pool, chunkDirectory: chunkDirectory)
            let sidecar = try manifest.timings.contains(.json) ? TimingSidecarWriter(
                url: manifest.timingsURL, title: manifest.title, author: manifest.author,
                audio: manifest.mp3URL.lastPathComponent, sampleRate: engine.sampleRate) : nil
            defer { sidecar?.discard() }
            let started = Date()
            var lastUpdate = Date.distantPast
            let rendered = try renderer.render(plan, sidecar: sidecar) { p in
                let status = RunProgress(wordsDone: p.wordsDone, wordCount: plan.wordCount,
                                         audioSecondsDone: Double(p.samplesDone) / Double(engine.sampleRate),
                                         elapsed: Date().timeIntervalSince(started), chunksDone: p.chunksDone, chunkCount: p.chunkCount)
                progress?(status)
                if Date().timeIntervalSince(lastUpdate) >= 1 || p.chunksDone == p.chunkCount {
                    run.wordsDone = p.wordsDone
                    run.audioMsDone = p.samplesDone * 1000 / engine.sampleRate
                    try store.update(run)
                    lastUpdate = Date()
                }
            }

            let renderedAt = Date()
            let ms = { (sample: Int) in Int((Double(sample) * 1000 / Double(engine.sampleRate)).rounded()) }
            let marks = rendered.chapters.map { ID3Tag.ChapterMark(title: $0.title, startMs: ms($0.startSample), endMs: ms($0.startSample + $0.sampleCount)) }
            let tag = ID3Tag(title: manifest.title, artist: manifest.author, album: manifest.title,
                             cover: cover, chapters: marks)
            try MP3BookAssembler.assemble(tag: tag, parts: rendered.parts, endPadding: rendered.endPadding, output: manifest.mp3URL)
            try sidecar?.commit(sampleCount: rendered.sampleCount, wordCount: plan.wordCount, skipped: plan.skipped)
            let outputs = [manifest.mp3URL] + (sidecar == nil ? [] : [manifest.timingsURL])

            run.state = .succeeded
            run.endedAt = Date()
            run.sampleCount = rendered.sampleCount
            run.durationMs = ms(rendered.sampleCount)
            run.wordsDone = plan.wordCount
            run.audioMsDone = ms(rendered.sampleCount)
            run.mp3Path = manifest.mp3URL.path
            run.timingsPath = manifest.timings.contains(.json) ? manifest.timingsURL.path : nil
            let chapters = rendered.chapters.map {
                ChapterRecord(runId: run.id!, number: $0.number, title: $0.title, contentHash: $0.hash,
                              startMs: ms($0.startSample), durationMs: ms($0.startSample + $0.sampleCount) - ms($0.startSample),
                              sampleCount: $0.sampleCount)
            }
            try store.finish(run, chapters: chapters)
            logger.info("finished", metadata: ["job": "\(manifest.name)", "duration_ms": "\(run.durationMs ?? 0)"])
            let phases = [("prepare", started.timeIntervalSince(begun)), ("render", renderedAt.timeIntervalSince(started)),
                          ("assemble", Date().timeIntervalSince(renderedAt))]
            return Summary(run: run, outputs: outputs, phases: phases)
        } catch {
            run.state = .failed
            run.endedAt = Date()
            run.error = "\(error)"
            try? store.update(run)
            throw error
        }
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

    static func picture(_ url: URL) throws -> ID3Tag.Picture {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw AudioError("cannot read the cover \(url.path)") }
        let ext = url.pathExtension.lowercased()
        guard ["jpg", "jpeg", "png"].contains(ext) else { throw AudioError("the cover \(url.path) must be a JPEG or PNG file") }
        return ID3Tag.Picture(mimeType: ext == "png" ? "image/png" : "image/jpeg", data: data)
    }
}
