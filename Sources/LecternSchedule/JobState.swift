import Foundation

/// What the store and the daemon know about one job, the scheduler's input beside its policy.
///
/// The daemon keeps it current: when it starts a run it sets `running`, `lastRunStarted` and
/// (from the action) `servedThrough`; when a run fails it clears `running`, adds one to
/// `failures` and sets `lastFailure` and `lastTrigger`; when a run succeeds it clears `running`
/// and `failures`; when a watched file changes it sets `changedAt`.
public struct JobState: Sendable, Hashable {
    /// When the job was first known; a job never run has no missed runs before this.
    public var firstSeen: Date
    /// The latest scheduled instant already served: a run was started for it, or it was skipped.
    public var servedThrough: Date?
    /// Whether a run is in progress.
    public var running: Bool
    /// Consecutive failed attempts since the last success.
    public var failures: Int
    /// When the last failed attempt ended.
    public var lastFailure: Date?
    /// What started the failed run, which a retry repeats.
    public var lastTrigger: Trigger?
    /// The newest change seen in a watched file; a change after `lastRunStarted` is not yet rendered.
    public var changedAt: Date?
    /// When the latest run started.
    public var lastRunStarted: Date?
    /// The job's latest run, when it stopped before it ended and is not resumed yet, and what
    /// started it: it is resumed before anything else.
    public var interruptedRun: Int64?
    public var interruptedTrigger: Trigger?

    public init(
        firstSeen: Date, servedThrough: Date? = nil, running: Bool = false, failures: Int = 0,
        lastFailure: Date? = nil, lastTrigger: Trigger? = nil, changedAt: Date? = nil, lastRunStarted: Date? = nil,
        interruptedRun: Int64? = nil, interruptedTrigger: Trigger? = nil
    ) {
        self.firstSeen = firstSeen
        self.servedThrough = servedThrough
        self.running = running
        self.failures = failures
        self.lastFailure = lastFailure
        self.lastTrigger = lastTrigger
        self.changedAt = changedAt
        self.lastRunStarted = lastRunStarted
        self.interruptedRun = interruptedRun
        self.interruptedTrigger = interruptedTrigger
    }
}
