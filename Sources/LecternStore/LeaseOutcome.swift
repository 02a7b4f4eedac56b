import Foundation

/// What ``acquireLease(jobId:holder:duration:)`` found.
public enum LeaseOutcome: Sendable {
    /// The lease is ours. `interrupted` lists runs of the job left running by dead processes,
    /// now marked interrupted.
    case acquired(LeaseRecord, interrupted: [RunRecord])
    /// A live process holds it.
    case held(LeaseRecord)
}
