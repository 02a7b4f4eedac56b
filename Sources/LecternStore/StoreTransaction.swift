import Foundation

/// The small executor each backend implements for ``StoreRules``: the reads and writes of one
/// transaction that the rules written once need, in the backend's SQL. Whatever a method locks
/// stays locked until the transaction ends (PostgreSQL row locks; SQLite has one writer).
package protocol StoreTransaction {
    /// The job's lease, with the job locked against other processes taking its lease at once.
    func lockedLease(jobId: Int64) async throws -> LeaseRecord?
    /// Leases whose expiry is after `date` (alive or not).
    func leases(expiringAfter date: Date) async throws -> [LeaseRecord]
    /// Saves the job's lease, replacing the one it had.
    func saveLease(_ lease: LeaseRecord) async throws
    /// The job's runs in state `running`, locked (a process settling them at the same time waits,
    /// then finds them settled).
    func runningRuns(jobId: Int64) async throws -> [RunRecord]
    /// Saves every field of a run.
    func saveRun(_ run: RunRecord) async throws
    /// How many of `lectern serve`'s run requests the job has, waiting or claimed.
    func runRequestCount(jobId: Int64) async throws -> Int
    /// Adds a waiting run request for the job.
    func addRunRequest(jobId: Int64, at date: Date) async throws -> RunRequestRecord
    /// Deletes a served job's rows and its job's (runs, chapters, requests go with it).
    func deleteServedJobRows(jobId: Int64) async throws
    /// The queued chunk `id`, locked.
    func lockedChunk(id: Int64) async throws -> ChunkTask?
    /// The claimed chunks whose lease ran out (by the store's clock) on their last allowed
    /// attempt, locked (ones another process has locked are passed over).
    func lapsedChunks() async throws -> [ChunkTask]
    /// Ends a claimed chunk's attempt: `state` with `error`, held by `worker` (nil: by nobody),
    /// no lease; wakes whoever waits on the chunk's run.
    func endAttempt(_ chunk: ChunkTask, state: ChunkTask.State, error: String, worker: String?) async throws
}
