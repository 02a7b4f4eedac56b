import Foundation
import LecternText
import Logging
import LecternCore
import LecternDocuments
import LecternSpeech
import LecternAudio
import LecternExport
import LecternSchedule
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
    public let store: any JobStore
    public let cache: ChunkCache
    public let logger: Logger
    public var configDirectory: URL?
    /// Receives progress after every chunk (nil for none).
    public var progress: (@Sendable (RunProgress) -> Void)?
    /// Worker processes (default: one per core).
    public var workers: Int?
    /// The binary to start workers from (default: this process's executable).
    public var workerExecutable: URL?
    /// Render the chunks a run lacks in this process, one at a time, instead of on worker
    /// processes: the same renderer, so the same bytes (``InProcessRenderer``). For tests and
    /// programs that embed the runner; `workers` is then unused. With ``sharedChunks`` the
    /// store's queue renders, as always.
    public var rendersInProcess = false
    /// The chunk store every host reaches: when set, the chunks a run lacks are published to the
    /// store's queue for `lectern worker`s on any host, and this host renders `workers` of them
    /// at a time itself (0: none).
    public var sharedChunks: (any ChunkStore)?
    /// How long a worker's claim on a chunk lasts without a heartbeat.
    public var chunkLeaseDuration: TimeInterval = 30
    /// How long a run waiting for its chunks waits for a store that does not answer before it
    /// fails (see ``StoreOutage``).
    public var storePatience: TimeInterval = 600
    /// With shared chunks, the bytes this host's cache may keep after a run (least recently used
    /// copies go first; the shared folder keeps every chunk).
    public var cacheLimit = JobRunner.defaultCacheLimit
    /// 4 GB: some hundred hours of speech at 64 kbit/s.
    public static let defaultCacheLimit = 4 << 30
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
    /// Told the run's row as soon as the run has started (its lease taken, its row written).
    public var runStarted: (@Sendable (RunRecord) -> Void)?
    /// Called after each chunk is copied into the book's MP3 (for tests that kill the run there).
    public var assemblyCheckpoint: (@Sendable (Int) -> Void)?

    public init(store: any JobStore, logger: Logger, configDirectory: URL? = nil, workers: Int? = nil,
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
        /// What the book leaves out: its largest skipped passages and each kind's share.
        public var skips: SkipSummary?
    }

    /// Renders the manifest at `url`: the pipeline as a sequence of stages, each in its own file —
    /// plan (``RunPlan``), render (``RunRender``), assemble and export (``RunExport``), record
    /// (``RunFinish``) — inside the run's bookkeeping (``RunRecording``: lease, run row, failure).
    ///
    /// - throws: the module error of the first failure (``ManifestError``, ``DocumentError``,
    ///   ``SpeechError``, ``AudioError``, ``StoreError``, ``RunError``), after recording the run
    ///   as failed (or cancelled); ``RunError`` without recording a run when another process is
    ///   rendering the same job.
    public func run(manifest url: URL, trigger: Trigger = .manual) async throws -> Summary {
        let manifestURL = url.standardizedFileURL
        var recording = RunRecording(store: store, logger: logger, leaseDuration: leaseDuration)
        recording.started = runStarted
        return try await recording.record(manifestURL: manifestURL, trigger: trigger, force: force, control: control) { context in
            var clock = StageClock()
            let planned = try await RunPlan(runner: self, manifestURL: manifestURL, context: &context, warn: warn)
            let skips = SkipSummary(skipped: planned.plan.skipped, readWords: planned.plan.wordCount)
            if planned.isUpToDate(after: context.lastSuccess, force: force, bookHash: context.run.bookHash) {
                return try await RunFinish.upToDate(runner: self, outputs: planned.outputs, context: &context).timed(clock.lap("prepare"))
                    .with(skips)
            }
            clock.lap("prepare")
            logger.info("rendering", metadata: ["job": "\(planned.manifest.name)", "chunks": "\(planned.renderer.chunks.count)",
                                                "cached": "\(planned.cached.count)"])
            let render = try await RunRender(runner: self, planned: planned, context: &context)
            clock.lap("render")
            let outputs = try RunExport.write(runner: self, planned: planned, render: render, control: context.control)
            let summary = try await RunFinish.rendered(runner: self, planned: planned, render: render, outputs: outputs, context: &context)
            if sharedChunks != nil { await SharedCacheTrim(store: store, cache: cache, limit: cacheLimit).trim(keeping: planned.renderer.keys) }
            clock.lap("assemble")
            return summary.timed(clock.laps).with(skips)
        }
    }
}
