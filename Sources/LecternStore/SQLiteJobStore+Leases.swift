import Foundation
import GRDB

extension SQLiteJobStore: StoreExecutor {
    package func writing<T: Sendable>(_ body: (SQLiteTransaction) async throws -> T) async throws -> T { try await transaction(.immediate, body) }
    package func reading<T: Sendable>(_ body: (SQLiteTransaction) async throws -> T) async throws -> T { try await transaction(.deferred, body) }

    /// Takes the job's lease for `holder`, unless a live process holds it. A lease whose holder
    /// is dead (same host) or whose heartbeat expired is taken over, and the runs that process
    /// left in state `running` are settled — all in one transaction (``StoreRules``).
    public func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> LeaseOutcome {
        try await takeLease(jobId: jobId, holder: holder, duration: duration)
    }

    /// Records the job's runs whose process died while running them as they ended: `failed`
    /// with the message their process left in its ``FailureNote`` (it could not reach the store),
    /// else `interrupted`. Runs of live processes are left alone. Returns the runs it settled.
    @discardableResult
    public func settleOrphanedRuns(jobId: Int64) async throws -> [RunRecord] {
        try await settleOrphans(jobId: jobId)
    }

    /// Records which run the lease is for.
    public func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE lease SET runId = ? WHERE jobId = ? AND holder = ?", arguments: [runId, jobId, holder.description])
        }
    }

    /// Extends the lease; false if `holder` no longer holds it (it expired and was taken over).
    public func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> Bool {
        try await write { db in
            let now = Date()
            try db.execute(sql: "UPDATE lease SET heartbeatAt = ?, expiresAt = ? WHERE jobId = ? AND holder = ?",
                           arguments: [now, now.addingTimeInterval(duration), jobId, holder.description])
            return db.changesCount > 0
        }
    }

    /// Gives the lease up (if `holder` still holds it).
    public func releaseLease(jobId: Int64, holder: ProcessIdentity) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM lease WHERE jobId = ? AND holder = ?", arguments: [jobId, holder.description])
        }
    }

    /// The ids of the jobs whose lease has not expired and whose holder is alive (a dead
    /// holder's lease is taken over at once, as ``acquireLease(jobId:holder:duration:)`` does).
    public func leasedJobIds(at date: Date) async throws -> Set<Int64> {
        try await liveLeaseJobIds(at: date)
    }

    /// The job's lease, if any.
    public func lease(jobId: Int64) async throws -> LeaseRecord? {
        try await read { db in try LeaseRecord.fetchOne(db, key: jobId) }
    }
}
