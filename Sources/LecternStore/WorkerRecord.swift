import Foundation
import GRDB

/// A `lectern worker` service as it reports itself: where it runs, what it renders, how long ago
/// it was last heard from, and how many chunks it has finished.
public struct WorkerRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "worker"
    /// The worker's ``ProcessIdentity`` (host, pid, start time).
    public var id: String
    public var host: String
    public var pid: Int32
    /// Chunks it renders at once.
    public var slots: Int
    public var startedAt: Date
    public var heartbeatAt: Date
    /// The key of a chunk it is rendering (one of them), if any.
    public var chunk: String?
    public var chunksDone: Int
    /// Its chunk lease period in seconds: it beats at least three times per period, so one silent
    /// for more than three periods is ``isLost(at:)``.
    public var leaseSeconds: Double

    public init(id: String, host: String, pid: Int32, slots: Int, startedAt: Date, heartbeatAt: Date, chunk: String? = nil,
                chunksDone: Int = 0, leaseSeconds: Double = 30) {
        self.id = id
        self.host = host
        self.pid = pid
        self.slots = slots
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.chunk = chunk
        self.chunksDone = chunksDone
        self.leaseSeconds = leaseSeconds
    }

    /// How long a worker may be silent before it counts as lost: three lease periods.
    public var silenceLimit: TimeInterval { 3 * max(leaseSeconds, 1) }

    /// Whether the worker has been silent for more than three lease periods at `date`: killed,
    /// its host gone or cut off. `lectern status` shows it as lost, `lectern gc` removes it.
    public func isLost(at date: Date) -> Bool { date.timeIntervalSince(heartbeatAt) > silenceLimit }
}

extension WorkerRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let host = Column(CodingKeys.host)
        static let pid = Column(CodingKeys.pid)
    }
}
