import Foundation
import GRDB

/// A chunk published to the ``ChunkQueue``: what to render (the worker request, as JSON) for
/// which run, and who holds it until when.
public struct ChunkTask: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "chunkTask"

    public enum State: String, Codable, Sendable, DatabaseValueConvertible {
        case queued, claimed, done, failed
    }

    public var id: Int64?
    public var runId: Int64
    /// The chunk's cache key.
    public var key: String
    /// The worker request (`ChunkRequest` as JSON); its output path is the worker's to choose.
    public var request: Data
    /// Higher first.
    public var priority: Int
    /// The chunk's place among its run's published chunks: runs of equal priority take turns.
    public var ordinal: Int
    public var state: State
    /// The worker holding it (``WorkerRecord/id``) and until when.
    public var worker: String?
    public var leaseExpiresAt: Date?
    /// How many times it has been claimed (a worker that stops and gives it back takes its claim back).
    public var attempts: Int
    /// The last attempt's error while it is queued again; why it failed once failed.
    public var error: String?
    /// Attempts after which a failure fails the chunk, and its run (the run's `chunk_attempts:`).
    public var maxAttempts: Int

    /// How many attempts a chunk gets unless its run says otherwise.
    public static let defaultMaxAttempts = 3

    public init(runId: Int64, key: String, request: Data, priority: Int, ordinal: Int, maxAttempts: Int = ChunkTask.defaultMaxAttempts) {
        self.runId = runId
        self.key = key
        self.request = request
        self.priority = priority
        self.ordinal = ordinal
        self.state = .queued
        self.attempts = 0
        self.maxAttempts = max(1, maxAttempts)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension ChunkTask {
    /// What a failed attempt leaves, the same in every backend: the chunk queued again with the
    /// error as its last, or — on its last allowed attempt — failed with it.
    package func afterFailedAttempt(_ error: String) -> (state: State, error: String) {
        attempts >= maxAttempts ? (.failed, "\(error) (failed \(attempts) time\(attempts == 1 ? "" : "s"), the attempt limit)") : (.queued, error)
    }

    /// The error of a chunk whose lease ran out on its last allowed attempt: its worker died or
    /// was cut off.
    package var lapsedError: String {
        "chunk \(key.prefix(12)): the worker \(worker ?? "?") stopped renewing its lease on attempt \(attempts) of \(maxAttempts)"
            + (error.map { "; the attempt before failed with: \($0)" } ?? "")
    }
}

extension ChunkTask {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let runId = Column(CodingKeys.runId)
        static let ordinal = Column(CodingKeys.ordinal)
        static let state = Column(CodingKeys.state)
    }
}
