import Foundation

/// The rules of the job store that do not depend on SQL, written once for every backend above
/// its ``StoreTransaction``: who may take a job's lease, how the runs of a process that died are
/// settled, and what a chunk's failed or lapsed attempt leaves. The backends' ``JobLeases`` and
/// ``ChunkQueue`` methods for them are these.
extension StoreExecutor {
    /// Takes the job's lease for `holder` unless a live process holds it (``LeaseRecord/mayBeTaken(by:at:)``);
    /// the runs the job has left `running` are settled — all in one transaction.
    package func takeLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> LeaseOutcome {
        try await writing { db in
            let now = Date()
            if let lease = try await db.lockedLease(jobId: jobId), !lease.mayBeTaken(by: holder, at: now) { return .held(lease) }
            let lease = LeaseRecord(jobId: jobId, runId: nil, holder: holder.description, acquiredAt: now, heartbeatAt: now,
                                    expiresAt: now.addingTimeInterval(duration))
            try await db.saveLease(lease)
            // We hold the lease now, so no other process may be running this job.
            let interrupted = try await settle(try await db.runningRuns(jobId: jobId), db, at: now)
            return .acquired(lease, interrupted: interrupted)
        }
    }

    /// Settles the job's runs whose process died while running them (``RunRecord/isOrphaned``);
    /// returns them.
    package func settleOrphans(jobId: Int64) async throws -> [RunRecord] {
        try await writing { db in try await settle(try await db.runningRuns(jobId: jobId).filter(\.isOrphaned), db, at: Date()) }
    }

    /// The jobs whose lease has not expired at `date` and whose holder is alive (a dead holder's
    /// lease is taken over at once).
    package func liveLeaseJobIds(at date: Date) async throws -> Set<Int64> {
        try await reading { db in Set(try await db.leases(expiringAfter: date).filter(\.holderMayBeAlive).map(\.jobId)) }
    }

    /// Records `runs` as ended (``RunRecord/settled(note:at:)``) and removes their failure notes.
    private func settle(_ runs: [RunRecord], _ db: Transaction, at now: Date) async throws -> [RunRecord] {
        var settled: [RunRecord] = []
        for run in runs {
            let note = FailureNote(store: self, runId: run.id!)
            let ended = run.settled(note: note.read(), at: now)
            try await db.saveRun(ended)
            note.remove()
            settled.append(ended)
        }
        return settled
    }

    /// Records a failed attempt at a chunk `worker` holds (``ChunkTask/afterFailedAttempt(_:)``);
    /// the chunk's new state, nil when `worker` no longer holds it.
    package func failAttempt(taskId: Int64, worker: String, error: String) async throws -> ChunkTask.State? {
        try await writing { db in
            guard let task = try await db.lockedChunk(id: taskId), task.state == .claimed, task.worker == worker else { return nil }
            let outcome = task.afterFailedAttempt(error)
            try await db.endAttempt(task, state: outcome.state, error: outcome.error, worker: outcome.state == .failed ? worker : nil)
            return outcome.state
        }
    }

    /// Fails the chunks whose lease ran out on their last allowed attempt, in a transaction of its own.
    package func failLapsedChunks() async throws -> Int {
        try await writing { db in try await Self.failLapsedChunks(db) }
    }

    /// Fails the chunks whose lease ran out on their last allowed attempt (``ChunkTask/lapsedError``),
    /// within `db`; returns how many.
    @discardableResult
    package static func failLapsedChunks(_ db: Transaction) async throws -> Int {
        let lapsed = try await db.lapsedChunks()
        for task in lapsed { try await db.endAttempt(task, state: .failed, error: task.lapsedError, worker: task.worker) }
        return lapsed.count
    }
}
