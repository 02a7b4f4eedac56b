import Foundation

/// Something the daemon should do now.
public enum Action: Sendable, Hashable {
    /// Start a run of `job`. If `servesThrough` is set, record it as the job's `servedThrough`
    /// when the run starts: the run serves every scheduled instant up to it.
    case run(job: String, trigger: Trigger, reason: RunReason, servesThrough: Date?)
    /// Record `servesThrough` as the job's `servedThrough` without running it: its missed
    /// instants are skipped (`catchUp: .skip`).
    case skip(job: String, servesThrough: Date)

    /// The job the action is about.
    public var job: String {
        switch self {
        case .run(let job, _, _, _), .skip(let job, _): job
        }
    }
}
