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
    /// How many times it has been claimed.
    public var attempts: Int
    public var error: String?

    public init(runId: Int64, key: String, request: Data, priority: Int, ordinal: Int) {
        self.runId = runId
        self.key = key
        self.request = request
        self.priority = priority
        self.ordinal = ordinal
        self.state = .queued
        self.attempts = 0
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
