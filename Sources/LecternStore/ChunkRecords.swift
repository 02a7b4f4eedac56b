import Foundation
import GRDB

/// A chunk in the cache: an MP3 stream file named by its key, durable on disk before this row
/// exists, with the layout and word marks needed to place it on any book's timeline.
public struct CachedChunkRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "cachedChunk"
    /// SHA-256 of everything that determines the chunk's audio (see `ChunkKey`).
    public var key: String
    /// Size of the stream file, checked before the file is reused.
    public var bytes: Int
    public var audioFrames: Int
    /// The worker's answer for the chunk (JSON), without its position in any one book.
    public var result: Data
    public var createdAt: Date
    public var renderedByRunId: Int64?
    /// SHA-256 of the stream file, checked whenever the file is read from a shared chunk store
    /// (nil for entries recorded before version 5 of the store).
    public var sha256: String?

    public init(key: String, bytes: Int, audioFrames: Int, result: Data, createdAt: Date = Date(), renderedByRunId: Int64?,
                sha256: String? = nil) {
        self.sha256 = sha256
        self.key = key
        self.bytes = bytes
        self.audioFrames = audioFrames
        self.result = result
        self.createdAt = createdAt
        self.renderedByRunId = renderedByRunId
    }
}

/// One chunk of one run's book: which cache entry it is and whether the run rendered it.
public struct RunChunkRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "runChunk"

    /// `pending` until rendered; `reused` when the cache had it when the run planned.
    public enum State: String, Codable, Sendable, DatabaseValueConvertible {
        case pending, rendered, reused
    }

    public var runId: Int64
    /// 0-based position of the chunk in the book.
    public var position: Int
    public var key: String
    public var chapterNumber: Int
    public var state: State

    public init(runId: Int64, position: Int, key: String, chapterNumber: Int, state: State) {
        self.runId = runId
        self.position = position
        self.key = key
        self.chapterNumber = chapterNumber
        self.state = state
    }
}

/// A job's lease: the one process allowed to render the job, while its heartbeat is fresh.
public struct LeaseRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "lease"
    public var jobId: Int64
    public var runId: Int64?
    /// The holding process (``ProcessIdentity``).
    public var holder: String
    public var acquiredAt: Date
    public var heartbeatAt: Date
    public var expiresAt: Date

    /// Every field, for the store's backends (the PostgreSQL one is another module).
    package init(
        jobId: Int64,
        runId: Int64? = nil,
        holder: String,
        acquiredAt: Date,
        heartbeatAt: Date,
        expiresAt: Date
    ) {
        self.jobId = jobId
        self.runId = runId
        self.holder = holder
        self.acquiredAt = acquiredAt
        self.heartbeatAt = heartbeatAt
        self.expiresAt = expiresAt
    }
}

extension RunChunkRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let runId = Column(CodingKeys.runId)
        static let position = Column(CodingKeys.position)
    }
}

extension LeaseRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let expiresAt = Column(CodingKeys.expiresAt)
    }
}
