import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore: StoreExecutor {
    package func writing<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T { try await write(body) }
    package func reading<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T { try await read(body) }

    public func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> LeaseOutcome {
        try await takeLease(jobId: jobId, holder: holder, duration: duration)
    }

    @discardableResult
    public func settleOrphanedRuns(jobId: Int64) async throws -> [RunRecord] {
        try await settleOrphans(jobId: jobId)
    }

    public func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) async throws {
        try await write { db in
            try await db.execute("UPDATE lease SET \"runId\" = \(runId) WHERE \"jobId\" = \(jobId) AND holder = \(holder.description)")
        }
    }

    public func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> Bool {
        try await write { db in
            let now = Date()
            return try await db.changes("""
                UPDATE lease SET "heartbeatAt" = \(now), "expiresAt" = \(now.addingTimeInterval(duration))
                WHERE "jobId" = \(jobId) AND holder = \(holder.description)
                """) > 0
        }
    }

    public func releaseLease(jobId: Int64, holder: ProcessIdentity) async throws {
        try await write { db in try await db.execute("DELETE FROM lease WHERE \"jobId\" = \(jobId) AND holder = \(holder.description)") }
    }

    public func leasedJobIds(at date: Date) async throws -> Set<Int64> {
        try await liveLeaseJobIds(at: date)
    }

    public func lease(jobId: Int64) async throws -> LeaseRecord? {
        try await read { db in try await db.execute("SELECT * FROM lease WHERE \"jobId\" = \(jobId)").first.map(LeaseRecord.init(row:)) }
    }
}
