import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore {
    public func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> LeaseOutcome {
        try write { db in
            // The job's row, locked, orders the processes taking its lease at once.
            try db.execute("SELECT id FROM job WHERE id = \(jobId) FOR NO KEY UPDATE")
            let now = Date()
            if let row = try db.execute("SELECT * FROM lease WHERE \"jobId\" = \(jobId)").first {
                let lease = try LeaseRecord(row: row)
                if lease.holder != holder.description, lease.expiresAt > now, ProcessIdentity(lease.holder)?.isAlive ?? false {
                    return .held(lease)
                }
            }
            let lease = LeaseRecord(jobId: jobId, runId: nil, holder: holder.description, acquiredAt: now, heartbeatAt: now,
                                    expiresAt: now.addingTimeInterval(duration))
            try db.execute("""
                INSERT INTO lease ("jobId", "runId", holder, "acquiredAt", "heartbeatAt", "expiresAt")
                VALUES (\(jobId), NULL, \(lease.holder), \(lease.acquiredAt), \(lease.heartbeatAt), \(lease.expiresAt))
                ON CONFLICT ("jobId") DO UPDATE SET "runId" = NULL, holder = EXCLUDED.holder, "acquiredAt" = EXCLUDED."acquiredAt",
                    "heartbeatAt" = EXCLUDED."heartbeatAt", "expiresAt" = EXCLUDED."expiresAt"
                """)
            // We hold the lease now, so no other process may be running this job.
            var interrupted: [RunRecord] = []
            for var run in try runningRuns(jobId: jobId, db) {
                try settle(&run, db, at: now)
                interrupted.append(run)
            }
            return .acquired(lease, interrupted: interrupted)
        }
    }

    @discardableResult
    public func settleOrphanedRuns(jobId: Int64) throws -> [RunRecord] {
        try write { db in
            var settled: [RunRecord] = []
            for var run in try runningRuns(jobId: jobId, db) where run.isOrphaned {
                try settle(&run, db, at: Date())
                settled.append(run)
            }
            return settled
        }
    }

    /// The job's runs in state `running`, locked (a process settling them at the same time
    /// waits, then finds them settled).
    private func runningRuns(jobId: Int64, _ db: PostgresTransaction) throws -> [RunRecord] {
        try db.execute("SELECT * FROM run WHERE \"jobId\" = \(jobId) AND state = 'running' ORDER BY id FOR UPDATE").map(RunRecord.init(row:))
    }

    /// Marks a run whose process is gone as ended: failed with its ``FailureNote``'s message,
    /// else interrupted.
    private func settle(_ run: inout RunRecord, _ db: PostgresTransaction, at now: Date) throws {
        let note = FailureNote(store: self, runId: run.id!)
        if let message = note.read() {
            run.state = .failed
            run.error = message
        } else {
            run.state = .interrupted
            run.error = run.error ?? "the process running it (pid \(run.pid)) stopped without finishing"
        }
        run.endedAt = now
        try Self.update(run, db)
        note.remove()
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
        try read { db in
            Set(try db.execute("SELECT * FROM lease WHERE \"expiresAt\" > \(date)").map(LeaseRecord.init(row:))
                .filter { ProcessIdentity($0.holder)?.isAlive ?? true }.map(\.jobId))
        }
    }

    public func lease(jobId: Int64) throws -> LeaseRecord? {
        try read { db in try db.execute("SELECT * FROM lease WHERE \"jobId\" = \(jobId)").first.map(LeaseRecord.init(row:)) }
    }
}
