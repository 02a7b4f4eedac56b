import Foundation

/// When a job runs, as its manifest says: a cron schedule, watched files, catch-up and retries.
public struct JobPolicy: Sendable, Hashable {
    /// The cron schedule, or nil for a job that only runs when its files change.
    public var schedule: CronSchedule?
    /// The zone whose wall clock the schedule is read in.
    public var timeZone: TimeZone
    /// Whether a change in the job's input files starts a run.
    public var watch: Bool
    /// How long the files must stay unchanged before a watch run starts.
    public var debounce: TimeInterval
    /// What to do about scheduled instants missed while the daemon was down.
    public var catchUp: CatchUp
    /// How failed runs are retried.
    public var retry: RetryPolicy

    public init(
        schedule: CronSchedule? = nil, timeZone: TimeZone = .current, watch: Bool = false,
        debounce: TimeInterval = 2, catchUp: CatchUp = .once, retry: RetryPolicy = RetryPolicy()
    ) {
        self.schedule = schedule
        self.timeZone = timeZone
        self.watch = watch
        self.debounce = debounce
        self.catchUp = catchUp
        self.retry = retry
    }
}
