import Foundation
import Logging
import LecternCore
import LecternSpeech
import LecternStore

/// Renders chunks from the store's ``ChunkQueue`` on worker processes — the `lectern worker
/// --store` service on any host, and a coordinating run's own share of its book.
///
/// Each slot claims a chunk, renders it on its own `lectern worker` process under a lease kept
/// by a ``ChunkLeaseKeeper``, uploads the stream to the shared ``ChunkStore`` (and keeps it in
/// this host's cache), and completes it — the cache entry, the task and the run's chunk rows in
/// one transaction. A slot whose lease is lost kills its process (the chunk is someone else's
/// now). A chunk whose worker process dies, or that cannot be uploaded or recorded, is given back
/// with its error, and fails (with its run) on its run's `chunk_attempts`-th attempt.
///
/// When the store does not answer, or chunks cannot be finished here (a full or broken shared
/// folder), the slots back off — doubling waits up to ``Options/maximumBackoff`` — and the worker
/// says so once when it starts failing and once when it works again (``RetryBackoff``).
public final class QueueWorker: ChunkRendering, @unchecked Sendable {
    // @unchecked Sendable is safe: `failure`, `live`, `current`, `finished` and the backoffs
    // are only touched while holding `lock`.
    public struct Options: Sendable {
        /// Chunks rendered at once (worker processes).
        public var slots: Int
        /// How long a claim lasts without a heartbeat.
        public var leaseDuration: TimeInterval = 30
        /// Claim only this run's chunks (a coordinating run's own share).
        public var runId: Int64?
        /// The longest wait for a notification before looking at the queue again.
        public var idleWait: TimeInterval = 5
        /// Bytes this host's cache may hold (least recently used copies go first).
        public var cacheLimit = JobRunner.defaultCacheLimit
        /// The first wait after a failure to reach the store or to finish a chunk; it doubles
        /// with each failure in a row, up to ``maximumBackoff``.
        public var initialBackoff: TimeInterval = 1
        public var maximumBackoff: TimeInterval = 10

        public init(slots: Int, leaseDuration: TimeInterval = 30, runId: Int64? = nil, idleWait: TimeInterval = 5) {
            self.slots = max(1, slots)
            self.leaseDuration = leaseDuration
            self.runId = runId
            self.idleWait = idleWait
        }
    }

    public let store: any JobStore
    public let chunks: any ChunkStore
    public let cache: ChunkCache
    public let options: Options
    /// This worker's name in the queue (``WorkerRecord/id``).
    public let identity: String
    let executable: URL
    let logger: Logger
    private let lock = NSLock()
    /// Raised by ``stop()`` and ``terminate(_:)``; ends a backoff wait at once.
    private let stopping = StopSignal()
    private var storeBackoff: RetryBackoff
    private var chunkBackoff: RetryBackoff
    private var failure: Error?
    private var live: [Int: WorkerProcess] = [:]
    private var current: [Int: String] = [:]
    private var finished = 0

    public init(store: any JobStore, chunks: any ChunkStore, cache: ChunkCache, options: Options, executable: URL? = nil,
                identity: String = ProcessIdentity.current.description, logger: Logger) {
        self.store = store
        self.chunks = chunks
        self.cache = cache
        self.options = options
        self.identity = identity
        self.executable = executable ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        self.logger = logger
        storeBackoff = RetryBackoff(initial: options.initialBackoff, maximum: options.maximumBackoff)
        chunkBackoff = RetryBackoff(initial: options.initialBackoff, maximum: options.maximumBackoff)
    }

    /// Registers the worker and renders until ``stop()`` (or `until` says so, checked between
    /// chunks); then unregisters. Returns once every slot has finished its chunk.
    public func run(until done: @escaping @Sendable () -> Bool = { false }) async throws {
        let me = ProcessIdentity.current
        let record = WorkerRecord(id: identity, host: me.host, pid: me.pid, slots: options.slots, startedAt: Date(), heartbeatAt: Date(),
                                  leaseSeconds: options.leaseDuration)
        try await store.registerWorker(record)
        let temporary: URL
        do { temporary = try cache.temporaryDirectory() } catch {
            try? await store.removeWorker(id: identity)
            throw error
        }
        // At least three beats per lease period: `lectern status` shows a worker silent for three periods as lost.
        let beat = min(2, max(0.2, options.leaseDuration / 3))
        let heartbeat = Task { [self] in
            while true {
                try? await Task.sleep(for: .seconds(beat))
                if Task.isCancelled { return }
                // The heartbeat also notices a store that stops answering while every slot renders or idles.
                do {
                    // Removed as lost (`lectern gc`) while it was cut off: it registers again.
                    if try await !store.workerHeartbeat(id: identity, chunk: currentChunk) {
                        var again = record
                        again.heartbeatAt = Date()
                        try await store.registerWorker(again)
                    }
                    storeAnswered()
                } catch {
                    _ = storeFailed(error)
                }
            }
        }
        await withTaskGroup(of: Void.self) { slots in
            for slot in 0..<options.slots {
                slots.addTask { await self.drive(slot: slot, temporary: temporary, done: done) }
            }
        }
        heartbeat.cancel()
        await heartbeat.value
        try? FileManager.default.removeItem(at: temporary)
        try? await store.removeWorker(id: identity)
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Stops claiming; chunks being rendered finish.
    public func stop() { stopping.raise() }

    /// Records an operation the store failed (a claim, a heartbeat); says so when the store stops
    /// answering; returns the wait before the next claim.
    private func storeFailed(_ error: Error) -> TimeInterval {
        let (delay, changed) = lock.withLock { storeBackoff.failed("\(error)") }
        if changed {
            logger.warning("the job store does not answer: no chunks are claimed until it does; trying again, waiting up to \(Int(options.maximumBackoff)) s between tries",
                           metadata: ["store": "\(store.name)", "error": "\(error)"])
        }
        return delay
    }

    private func storeAnswered() {
        let ended = lock.withLock { storeBackoff.succeeded() }
        if ended > 0 { logger.notice("the job store answers again", metadata: ["store": "\(store.name)", "failedTries": "\(ended)"]) }
    }

    /// Records a chunk this worker could not finish; says so when chunks start failing here;
    /// returns the wait before the slot claims again.
    private func chunkFailed(_ message: String) -> TimeInterval {
        let (delay, changed) = lock.withLock { chunkBackoff.failed(message) }
        if changed {
            logger.warning("cannot finish chunks: waiting before each claim, up to \(Int(options.maximumBackoff)) s, until one finishes",
                           metadata: ["error": "\(message)"])
        }
        return delay
    }

    private func chunkFinished() {
        let ended = lock.withLock { chunkBackoff.succeeded() }
        if ended > 0 { logger.notice("chunks finish again", metadata: ["failedChunks": "\(ended)"]) }
    }

    /// Stops at once: no more claims, every worker process killed (its chunk's lease runs out
    /// and another worker claims it).
    func terminate(_ error: Error) {
        let workers = lock.withLock {
            if failure == nil { failure = error }
            return Array(live.values)
        }
        stopping.raise()
        for worker in workers { worker.signal(SIGKILL) }
    }

    private var currentChunk: String? { lock.withLock { current.values.sorted().first } }

    private func register(_ worker: WorkerProcess?, slot: Int, chunk: String?) async {
        let changed = lock.withLock {
            live[slot] = worker
            defer { current[slot] = chunk }
            return current[slot] != chunk
        }
        if stopping.isRaised { worker?.signal(SIGKILL) }
        if changed { _ = try? await store.workerHeartbeat(id: identity, chunk: currentChunk) }
    }

    /// Counts a finished chunk; every 32, trims this host's cache to its limit.
    private func countFinished() async {
        let (trim, inHand) = lock.withLock {
            finished += 1
            return (finished % 32 == 0, Set(current.values))
        }
        if trim { await SharedCacheTrim(store: store, cache: cache, limit: options.cacheLimit).trim(keeping: inHand) }
    }

    /// One slot: claims, renders and finishes chunks until the worker stops.
    private func drive(slot: Int, temporary: URL, done: @Sendable () -> Bool) async {
        var worker: WorkerProcess?
        while !stopping.isRaised && !done() {
            let task: ChunkTask?
            do {
                task = try await store.claimChunk(worker: identity, leaseDuration: options.leaseDuration, runId: options.runId)
                storeAnswered()
            } catch {
                await stopping.pause(storeFailed(error))
                continue
            }
            guard let task else {
                await store.waitForQueueChange(timeout: options.idleWait)
                continue
            }
            await stopping.pause(await render(task, slot: slot, temporary: temporary, worker: &worker))
        }
        await register(nil, slot: slot, chunk: nil)
        await worker?.stopping()
    }

    /// Renders one claimed chunk and completes, fails or gives it back; returns how long the
    /// slot waits before its next claim (0, unless chunks cannot be finished here).
    private func render(_ task: ChunkTask, slot: Int, temporary: URL, worker: inout WorkerProcess?) async -> TimeInterval {
        let output = temporary.appendingPathComponent("\(task.key).mp3")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(atPath: ChunkRequest.pcmPath(of: output.path))
        }
        var name = "chunk \(task.key.prefix(12))"
        do {
            var request = try JSONDecoder().decode(ChunkRequest.self, from: task.request)
            name = "chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1))"
            request.output = output.path
            if worker == nil {
                do { worker = try WorkerProcess(executable: executable) } catch {
                    throw RunError("cannot start a worker (\(executable.path) worker): \(FileError.reason(error))")
                }
            }
            guard let process = worker else { return 0 }
            await register(process, slot: slot, chunk: task.key)
            let keeper = ChunkLeaseKeeper(store: store, taskId: task.id!, worker: identity, duration: options.leaseDuration) {
                [logger] reason in
                logger.warning("lease lost: stopping the chunk", metadata: ["chunk": "\(task.key)", "reason": "\(reason)"])
                process.signal(SIGKILL)
            }
            let result = await process.rendering(request)
            keeper.stop()
            await register(process, slot: slot, chunk: nil)
            if let lost = keeper.lossReason {
                await process.killing()
                worker = nil
                FileHandle.standardError.write(Data("lectern worker: stopped chunk \(task.key.prefix(12)) of run \(task.runId): lease lost (\(lost))\n".utf8))
                return 0
            }
            guard let result else {
                // The worker process died on this chunk: give it back, or fail it on its last attempt.
                let (why, stderr) = await process.killed()
                worker = nil
                if stopping.isRaised {
                    try await store.releaseChunk(taskId: task.id!, worker: identity)
                    return 0
                }
                logger.warning("worker died", metadata: ["chunk": "\(task.key)", "exit": "\(why)", "stderr": "\(stderr)"])
                try await store.retryChunk(taskId: task.id!, worker: identity,
                                           error: "\(name): worker \(why)" + (stderr.isEmpty ? "" : "; its stderr: \(stderr)"))
                return 0
            }
            if let message = result.error {
                try await store.failChunk(taskId: task.id!, worker: identity, error: "\(name): \(message)")
                return 0
            }
            // The shared folder may be a network file system that hangs: not on a task's thread.
            // A chunk's kept PCM (formats encoded from PCM) goes up first, under its own key.
            let (chunks, cache, key) = (self.chunks, self.cache, task.key)
            let pcm = request.keepsPCM ? URL(fileURLWithPath: request.pcmOutput) : nil
            let (digest, pcmDigest) = try await OffPool.run {
                let pcmDigest = try pcm.map { try chunks.upload($0, key: ChunkCache.sharedPCMKey(for: key)) }
                let digest = try chunks.upload(output, key: key)
                try cache.install(output, key: key)
                return (digest, pcmDigest)
            }
            var stored = result
            stored.index = 0
            stored.pcmSHA256 = pcmDigest?.sha256
            let entry = CachedChunkRecord(key: task.key, bytes: result.byteCount, audioFrames: result.audioFrames,
                                          result: try JSONEncoder().encode(stored), renderedByRunId: task.runId, sha256: digest.sha256)
            try await store.completeChunk(taskId: task.id!, worker: identity, entry: entry)
            await countFinished()
            chunkFinished()
            return 0
        } catch {
            // The shared folder, this host's cache or the store failed us: the chunk goes back with
            // this error (or fails on its last attempt), and this worker waits before claiming
            // again. If the store cannot take even that, the chunk's lease runs out.
            let message = "\(name): \(FileError.describe(error))"
            let delay = chunkFailed(message)
            _ = try? await store.retryChunk(taskId: task.id!, worker: identity, error: message)
            return delay
        }
    }
}
