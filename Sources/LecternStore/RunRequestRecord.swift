import Foundation

/// A run `lectern serve` was asked to start: waiting its turn (no holder), then claimed by the
/// `serve` process rendering it (its ``ProcessIdentity``) until the run ends. Requests live in the
/// store, so a queue outlives the process that took it and every `serve` on a shared store takes
/// from the same one, oldest first; a request claimed by a process that died is given back
/// (``ServiceLedger/releaseRunRequest(id:holder:)``) and its run resumed.
public struct RunRequestRecord: Sendable, Equatable {
    public var id: Int64
    public var jobId: Int64
    public var requestedAt: Date
    /// The process rendering the run (`host:pid:ticks`); nil while the request waits.
    public var holder: String?
    public var claimedAt: Date?

    public init(id: Int64, jobId: Int64, requestedAt: Date, holder: String?, claimedAt: Date?) {
        self.id = id
        self.jobId = jobId
        self.requestedAt = requestedAt
        self.holder = holder
        self.claimedAt = claimedAt
    }

    /// Whether the process that claimed the request is gone: on this host, its process has ended;
    /// on another, the job has no live lease and the claim is older than `grace` (a run takes
    /// its lease right after the claim, and renews it while it renders).
    public func claimIsDead(lease: LeaseRecord?, now: Date, grace: TimeInterval = 120) -> Bool {
        guard let holder, let identity = ProcessIdentity(holder) else { return false }
        if identity.host == ProcessIdentity.current.host { return !identity.isAlive }
        if let lease, lease.expiresAt > now { return false }
        return (claimedAt ?? now) < now.addingTimeInterval(-grace)
    }
}

/// What asking for a run gives: the request, queued; or why the job cannot take one now.
public enum RunRequestOutcome: Sendable, Equatable {
    case queued(RunRequestRecord)
    /// A run of the job is queued or under way, in `serve` or elsewhere; the words say which.
    case busy(String)
}
