import Foundation

/// Jobs' leases: the one process allowed to render a job, while its heartbeat is fresh. Who may
/// take a lease and how the runs of a process that died are settled are ``StoreRules``, the same
/// in every backend. Part of ``JobStore``.
public protocol JobLeases: Sendable {
    /// Takes the job's lease for `holder`, unless a live process holds it; a dead or expired
    /// holder's lease is taken over and its runs left `running` are settled, in one transaction.
    func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> LeaseOutcome
    /// Records the job's runs whose process died while running them as ended (failed with their
    /// ``FailureNote``'s message, else interrupted); returns them.
    @discardableResult
    func settleOrphanedRuns(jobId: Int64) async throws -> [RunRecord]
    /// Records which run the lease is for.
    func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) async throws
    /// Extends the lease; false if `holder` no longer holds it.
    func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) async throws -> Bool
    /// Gives the lease up (if `holder` still holds it).
    func releaseLease(jobId: Int64, holder: ProcessIdentity) async throws
    /// The jobs whose lease has not expired and whose holder is alive.
    func leasedJobIds(at date: Date) async throws -> Set<Int64>
    func lease(jobId: Int64) async throws -> LeaseRecord?
}

extension JobLeases {
    public func leasedJobIds() async throws -> Set<Int64> { try await leasedJobIds(at: Date()) }
}
