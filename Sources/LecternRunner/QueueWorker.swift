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
/// now); a chunk whose worker process dies is given back, and fails after three attempts.
public final class QueueWorker: ChunkRendering, @unchecked Sendable {
    // @unchecked Sendable is safe: `stopped`, `failure` and `live` are only touched while holding `lock`.
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

        public init(slots: Int, leaseDuration: TimeInterval = 30, runId: Int64? = nil, idleWait: TimeInterval = 5) {
            self.slots = max(1, slots)
            self.leaseDuration = leaseDuration
            self.runId = runId
            self.idleWait = idleWait
        }
    }

    /// Claims more than this many times (worker processes dying on it) fail the chunk.
    static let maximumAttempts = 3

    public let store: any JobStore
    public let chunks: any ChunkStore
    public let cache: ChunkCache
    public let options: Options
    /// This worker's name in the queue (``WorkerRecord/id``).
    public let identity: String
    let executable: URL
    let logger: Logger
    private let lock = NSLock()
    private var stopped = false
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
    }

    /// Registers the worker and renders until ``stop()`` (or `until` says so, checked between
    /// chunks); then unregisters. Returns once every slot has finished its chunk.
    public func run(until done: @escaping @Sendable () -> Bool = { false }) throws {
        let me = ProcessIdentity.current
        try store.registerWorker(WorkerRecord(id: identity, host: me.host, pid: me.pid, slots: options.slots,
                                              startedAt: Date(), heartbeatAt: Date()))
        defer { try? store.removeWorker(id: identity) }
        let temporary = try cache.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let heartbeat = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        heartbeat.schedule(deadline: .now() + 2, repeating: 2)
        heartbeat.setEventHandler { [self] in try? store.workerHeartbeat(id: identity, chunk: currentChunk) }
        heartbeat.resume()
        defer { heartbeat.cancel() }
        let group = DispatchGroup()
        for slot in 0..<options.slots {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                drive(slot: slot, temporary: temporary, done: done)
            }
        }
        group.wait()
        lock.lock()
        let failure = self.failure
        lock.unlock()
        if let failure { throw failure }
    }

    /// Stops claiming; chunks being rendered finish.
    public func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Stops at once: no more claims, every worker process killed (its chunk's lease runs out
    /// and another worker claims it).
    func terminate(_ error: Error) {
        lock.lock()
        stopped = true
        if failure == nil { failure = error }
        let workers = Array(live.values)
        lock.unlock()
        for worker in workers { worker.signal(SIGKILL) }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private var currentChunk: String? {
        lock.lock()
        defer { lock.unlock() }
        return current.values.sorted().first
    }

    private func register(_ worker: WorkerProcess?, slot: Int, chunk: String?) {
        lock.lock()
        live[slot] = worker
        let changed = current[slot] != chunk
        current[slot] = chunk
        let stop = stopped
        lock.unlock()
        if stop { worker?.signal(SIGKILL) }
        if changed { try? store.workerHeartbeat(id: identity, chunk: currentChunk) }
    }

    /// Counts a finished chunk; every 32, trims this host's cache to its limit.
    private func countFinished() {
        lock.lock()
        finished += 1
        let trim = finished % 32 == 0
        let inHand = Set(current.values)
        lock.unlock()
        if trim { SharedCacheTrim(store: store, cache: cache, limit: options.cacheLimit).trim(keeping: inHand) }
    }

    private func drive(slot: Int, temporary: URL, done: @Sendable () -> Bool) {
        var worker: WorkerProcess?
        defer {
            register(nil, slot: slot, chunk: nil)
            worker?.stop()
        }
        while !isStopped && !done() {
            let task: ChunkTask?
            do {
                task = try store.claimChunk(worker: identity, leaseDuration: options.leaseDuration, runId: options.runId)
            } catch {
                logger.warning("cannot claim a chunk", metadata: ["store": "\(store.name)", "error": "\(error)"])
                store.waitForQueueChange(timeout: options.idleWait)
                continue
            }
            guard let task else {
                store.waitForQueueChange(timeout: options.idleWait)
                continue
            }
            render(task, slot: slot, temporary: temporary, worker: &worker)
        }
    }

    /// Renders one claimed chunk and completes, fails or gives it back.
    private func render(_ task: ChunkTask, slot: Int, temporary: URL, worker: inout WorkerProcess?) {
        let output = temporary.appendingPathComponent("\(task.key).mp3")
        defer { try? FileManager.default.removeItem(at: output) }
        do {
            var request = try JSONDecoder().decode(ChunkRequest.self, from: task.request)
            request.output = output.path
            if worker == nil {
                do { worker = try WorkerProcess(executable: executable) } catch {
                    throw RunError("cannot start a worker (\(executable.path) worker): \(FileError.reason(error))")
                }
            }
            guard let process = worker else { return }
            register(process, slot: slot, chunk: task.key)
            defer { register(process, slot: slot, chunk: nil) }
            let keeper = ChunkLeaseKeeper(store: store, taskId: task.id!, worker: identity, duration: options.leaseDuration) {
                [logger] reason in
                logger.warning("lease lost: stopping the chunk", metadata: ["chunk": "\(task.key)", "reason": "\(reason)"])
                process.signal(SIGKILL)
            }
            let result = process.render(request)
            keeper.stop()
            if let lost = keeper.lossReason {
                process.kill()
                worker = nil
                FileHandle.standardError.write(Data("lectern worker: stopped chunk \(task.key.prefix(12)) of run \(task.runId): lease lost (\(lost))\n".utf8))
                return
            }
            guard let result else {
                // The worker process died on this chunk: give it back, or fail it after three tries.
                process.kill()
                let why = process.exitDescription, stderr = process.stderrText()
                worker = nil
                if isStopped { return }
                logger.warning("worker died", metadata: ["chunk": "\(task.key)", "exit": "\(why)", "stderr": "\(stderr)"])
                if task.attempts >= Self.maximumAttempts {
                    try store.failChunk(taskId: task.id!, worker: identity, error: "chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1)) "
                                        + "failed \(task.attempts) times: worker \(why)" + (stderr.isEmpty ? "" : "; its stderr: \(stderr)"))
                } else {
                    try store.releaseChunk(taskId: task.id!, worker: identity)
                }
                return
            }
            if let message = result.error {
                try store.failChunk(taskId: task.id!, worker: identity,
                                    error: "chunk \(request.chunk.index + 1) (chapter \(request.chunk.chapter + 1)): \(message)")
                return
            }
            let digest = try chunks.upload(output, key: task.key)
            try cache.install(output, key: task.key)
            var stored = result
            stored.index = 0
            let entry = CachedChunkRecord(key: task.key, bytes: result.byteCount, audioFrames: result.audioFrames,
                                          result: try JSONEncoder().encode(stored), renderedByRunId: task.runId, sha256: digest.sha256)
            try store.completeChunk(taskId: task.id!, worker: identity, entry: entry)
            countFinished()
        } catch {
            // The store or the shared folder failed us: the chunk's lease runs out and another worker takes it.
            logger.error("cannot finish a chunk", metadata: ["chunk": "\(task.key)", "error": "\(FileError.describe(error))"])
            FileHandle.standardError.write(Data("lectern worker: chunk \(task.key.prefix(12)) of run \(task.runId): \(FileError.describe(error))\n".utf8))
            try? store.releaseChunk(taskId: task.id!, worker: identity)
        }
    }
}
