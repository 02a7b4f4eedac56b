import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore: StoreExecutor {
    package func writing<T>(_ body: (PostgresTransaction) throws -> T) throws -> T { try write(body) }
    package func reading<T>(_ body: (PostgresTransaction) throws -> T) throws -> T { try read(body) }

    public func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> LeaseOutcome {
        try takeLease(jobId: jobId, holder: holder, duration: duration)
    }

    @discardableResult
    public func settleOrphanedRuns(jobId: Int64) throws -> [RunRecord] {
        try settleOrphans(jobId: jobId)
    }

    public func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) throws {
        try write { db in
            try db.execute("UPDATE lease SET \"runId\" = \(runId) WHERE \"jobId\" = \(jobId) AND holder = \(holder.description)")
        }
    }

    public func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> Bool {
        try write { db in
            let now = Date()
            return try db.changes("""
                UPDATE lease SET "heartbeatAt" = \(now), "expiresAt" = \(now.addingTimeInterval(duration))
                WHERE "jobId" = \(jobId) AND holder = \(holder.description)
                """) > 0
        }
    }

    public func releaseLease(jobId: Int64, holder: ProcessIdentity) throws {
        try write { db in try db.execute("DELETE FROM lease WHERE \"jobId\" = \(jobId) AND holder = \(holder.description)") }
    }

    public func leasedJobIds(at date: Date) throws -> Set<Int64> {
        try liveLeaseJobIds(at: date)
    }

    public func lease(jobId: Int64) throws -> LeaseRecord? {
        try read { db in try db.execute("SELECT * FROM lease WHERE \"jobId\" = \(jobId)").first.map(LeaseRecord.init(row:)) }
    }
}
