import Foundation

/// The rules for `lectern serve`'s run requests, written once for every backend: a start and an
/// edit of one job are decided in one transaction each, with the job locked (``StoreTransaction/lockedLease(jobId:)``),
/// so one of two that race wins and the other is told the job is busy.
extension StoreExecutor {
    package func queueRun(jobId: Int64) async throws -> RunRequestOutcome {
        try await writing { db in
            let now = Date()
            if let busy = try await busyReason(jobId: jobId, db, at: now) { return .busy(busy) }
            return .queued(try await db.addRunRequest(jobId: jobId, at: now))
        }
    }

    package func editIdle(jobId: Int64, _ edit: () throws -> Void) async throws -> String? {
        try await writing { db in
            if let busy = try await busyReason(jobId: jobId, db, at: Date()) { return busy }
            try edit()
            return nil
        }
    }

    package func deleteIdle(jobId: Int64) async throws -> String? {
        try await writing { db in
            if let busy = try await busyReason(jobId: jobId, db, at: Date()) { return busy }
            try await db.deleteServedJobRows(jobId: jobId)
            return nil
        }
    }

    /// Why the job cannot be started or changed now, or nil: a request of a `serve` (waiting or
    /// rendering), or the lease of a live process (a `lectern run` or a daemon).
    private func busyReason(jobId: Int64, _ db: Transaction, at now: Date) async throws -> String? {
        let lease = try await db.lockedLease(jobId: jobId)
        if try await db.runRequestCount(jobId: jobId) > 0 { return "a run of the job is queued or under way" }
        if let lease, lease.expiresAt > now, lease.holderMayBeAlive {
            return "the job is being rendered by another process (\(lease.holder))"
        }
        return nil
    }
}
