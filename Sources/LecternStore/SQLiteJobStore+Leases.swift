import Foundation
import GRDB

extension SQLiteJobStore {
    /// Takes the job's lease for `holder`, unless a live process holds it. A lease whose holder
    /// is dead (same host) or whose heartbeat expired is taken over, and the runs that process
    /// left in state `running` are marked `interrupted` — all in one transaction.
    public func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> LeaseOutcome {
        try write { db in
            let now = Date()
            if let lease = try LeaseRecord.fetchOne(db, key: jobId), lease.holder != holder.description,
               lease.expiresAt > now, ProcessIdentity(lease.holder)?.isAlive ?? false {
                return .held(lease)
            }
            let lease = LeaseRecord(jobId: jobId, runId: nil, holder: holder.description, acquiredAt: now, heartbeatAt: now,
                                    expiresAt: now.addingTimeInterval(duration))
            try lease.save(db)
            // We hold the lease now, so no other process may be running this job.
            var interrupted: [RunRecord] = []
            for var run in try RunRecord.filter(Column("jobId") == jobId && Column("state") == RunState.running.rawValue).fetchAll(db) {
                try settle(&run, db: db, at: now)
                interrupted.append(run)
            }
            return .acquired(lease, interrupted: interrupted)
        }
    }

    /// Records the job's runs whose process died while running them as they ended: `failed`
    /// with the message their process left in its ``FailureNote`` (it could not reach the store),
    /// else `interrupted`. Runs of live processes are left alone. Returns the runs it settled.
    @discardableResult
    public func settleOrphanedRuns(jobId: Int64) throws -> [RunRecord] {
        try write { db in
            var settled: [RunRecord] = []
            for var run in try RunRecord.filter(Column("jobId") == jobId && Column("state") == RunState.running.rawValue).fetchAll(db)
            where run.isOrphaned {
                try settle(&run, db: db, at: Date())
                settled.append(run)
            }
            return settled
        }
    }

    /// Marks a run whose process is gone as ended (see ``settleOrphanedRuns(jobId:)``).
    private func settle(_ run: inout RunRecord, db: Database, at now: Date) throws {
        let note = FailureNote(store: self, runId: run.id!)
        if let message = note.read() {
            run.state = .failed
            run.error = message
        } else {
            run.state = .interrupted
            run.error = run.error ?? "the process running it (pid \(run.pid)) stopped without finishing"
        }
        run.endedAt = now
        try run.update(db)
        note.remove()
    }

    /// Records which run the lease is for.
    public func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) throws {
        try write { db in
            try db.execute(sql: "UPDATE lease SET runId = ? WHERE jobId = ? AND holder = ?", arguments: [runId, jobId, holder.description])
        }
    }

    /// Extends the lease; false if `holder` no longer holds it (it expired and was taken over).
    public func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> Bool {
        try write { db in
            let now = Date()
            try db.execute(sql: "UPDATE lease SET heartbeatAt = ?, expiresAt = ? WHERE jobId = ? AND holder = ?",
                           arguments: [now, now.addingTimeInterval(duration), jobId, holder.description])
            return db.changesCount > 0
        }
    }

    /// Gives the lease up (if `holder` still holds it).
    public func releaseLease(jobId: Int64, holder: ProcessIdentity) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM lease WHERE jobId = ? AND holder = ?", arguments: [jobId, holder.description])
        }
    }

    /// The ids of the jobs whose lease has not expired and whose holder is alive (a dead
    /// holder's lease is taken over at once, as ``acquireLease(jobId:holder:duration:)`` does).
    public func leasedJobIds(at date: Date) throws -> Set<Int64> {
        try read { db in
            Set(try LeaseRecord.filter(Column("expiresAt") > date).fetchAll(db)
                .filter { ProcessIdentity($0.holder)?.isAlive ?? true }.map(\.jobId))
        }
    }

    /// The job's lease, if any.
    public func lease(jobId: Int64) throws -> LeaseRecord? {
        try read { db in try LeaseRecord.fetchOne(db, key: jobId) }
    }
}
