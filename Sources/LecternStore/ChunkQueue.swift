import Foundation

/// The chunk queue: a run publishes the chunks it needs, any `lectern worker` on any host that
/// shares the store claims one, renders it under a lease it renews by heartbeat, uploads it and
/// completes it; the run waits for its chunks while rendering what it can itself.
///
/// The database is the engine: a claim is one transaction (`FOR UPDATE SKIP LOCKED` in
/// PostgreSQL, SQLite's single writer on one host), a lease that expires (a dead or cut-off
/// worker) makes the chunk claimable again, and a second completion of a chunk changes nothing
/// (chunks are content-addressed). Claims take the highest priority first, then the lowest
/// ordinal, so runs of equal priority take turns and a big book cannot starve a small one.
public protocol ChunkQueue: Sendable {
    /// Publishes chunks for workers (and wakes idle ones).
    func publishChunks(_ tasks: [ChunkTask]) async throws
    /// Claims the next claimable chunk for `worker` (of run `runId` only, when given): queued, or
    /// claimed under a lease that has expired; only chunks of runs still running. A chunk whose
    /// lease expired on its last allowed attempt is failed instead (``failExhaustedChunks()``).
    func claimChunk(worker: String, leaseDuration: TimeInterval, runId: Int64?) async throws -> ChunkTask?
    /// Extends `worker`'s lease on a chunk; false when the worker no longer holds it (its lease
    /// expired and another worker claimed it, or the chunk is done or withdrawn).
    func renewChunkLease(taskId: Int64, worker: String, leaseDuration: TimeInterval) async throws -> Bool
    /// Records a finished chunk in one transaction: its cache entry (unless present), the task
    /// done, the run's chunk rows with its key rendered, one more chunk done for the worker.
    /// False when the task was already done or withdrawn (a duplicate finish: nothing changes).
    @discardableResult
    func completeChunk(taskId: Int64, worker: String, entry: CachedChunkRecord) async throws -> Bool
    /// Records that rendering the chunk failed with an error (not a crash: the chunk itself is at
    /// fault); the run waiting for it fails with `error`.
    func failChunk(taskId: Int64, worker: String, error: String) async throws
    /// Gives a claimed chunk back to the queue (a worker stopping): the claim does not count as an attempt.
    func releaseChunk(taskId: Int64, worker: String) async throws
    /// Records a failed attempt at a claimed chunk (its process died, or it could not be uploaded
    /// or recorded): the chunk is queued again with `error` as its last error, or, when this was
    /// its ``ChunkTask/maxAttempts``-th attempt, failed with it (its run then fails). Returns the
    /// chunk's new state; nil when `worker` no longer holds it.
    @discardableResult
    func retryChunk(taskId: Int64, worker: String, error: String) async throws -> ChunkTask.State?
    /// Fails the chunks whose lease ran out on their last allowed attempt (the worker died or was
    /// cut off on it), so that their runs fail instead of waiting; returns how many.
    @discardableResult
    func failExhaustedChunks() async throws -> Int
    /// A run's published chunks, in ordinal order.
    func chunkTasks(runId: Int64) async throws -> [ChunkTask]
    /// A run's chunks that are done or failed (and not yet removed), in ordinal order: what a
    /// waiting run reads on each wake-up, so that it reads each finished chunk once.
    func finishedChunks(runId: Int64) async throws -> [ChunkTask]
    /// Removes chunks from the queue (a run has placed them).
    func removeChunks(ids: [Int64]) async throws
    /// Removes a run's chunks from the queue (the run ended); done ones go too.
    func withdrawChunks(runId: Int64) async throws
    /// Records a worker starting (or restarting under the same id).
    func registerWorker(_ worker: WorkerRecord) async throws
    /// Records a worker's heartbeat and what it is doing; false when the worker is not registered
    /// (`lectern gc` removed it as lost: it registers again).
    @discardableResult
    func workerHeartbeat(id: String, chunk: String?) async throws -> Bool
    func removeWorker(id: String) async throws
    func workers() async throws -> [WorkerRecord]
    /// Chunks queued and claimed per running run.
    func queueDepth() async throws -> [Int64: QueueDepth]
    /// Waits until chunks are published or finished (a notification) or `timeout` passes; a
    /// store without notifications just waits (the callers poll).
    func waitForQueueChange(timeout: TimeInterval) async
}

/// How many of a run's chunks wait in the queue and how many workers hold.
public struct QueueDepth: Sendable, Equatable, Codable {
    public var queued: Int
    public var claimed: Int
    public var done: Int
    /// The newest error of a chunk being retried (nil: none failed yet).
    public var lastError: String?
    public init(queued: Int, claimed: Int, done: Int, lastError: String? = nil) {
        self.queued = queued
        self.claimed = claimed
        self.done = done
        self.lastError = lastError
    }

    /// Counts `count` more chunks in `state` (a ``ChunkTask/State`` raw value; failed counts as done).
    mutating func add(_ count: Int, state: String) {
        switch state {
        case ChunkTask.State.queued.rawValue: queued += count
        case ChunkTask.State.claimed.rawValue: claimed += count
        default: done += count
        }
    }

    /// Depths per run from (run, state, count) rows.
    package static func byRun(_ rows: [(runId: Int64, state: String, count: Int)]) -> [Int64: QueueDepth] {
        var depth: [Int64: QueueDepth] = [:]
        for row in rows { depth[row.runId, default: QueueDepth(queued: 0, claimed: 0, done: 0)].add(row.count, state: row.state) }
        return depth
    }
}
