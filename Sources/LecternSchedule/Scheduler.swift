import Foundation

/// Decides which jobs to run now and when to ask again: a pure function of the jobs' policies,
/// their states and the time, with no clock, I/O or sleeping of its own.
///
/// The daemon loads the jobs, reads their states from the store, calls ``decide(jobs:now:maxConcurrent:awakeSince:)``,
/// performs the actions (updating the states as ``JobState`` describes), and sleeps until
/// ``Decision/wakeAt``, a file change or the end of a run, whichever comes first.
///
/// For each job that is not running:
/// - **Resume.** A job whose latest run stopped before it ended (`interruptedRun`) runs at once,
///   with that run's trigger, before anything else; the run serves what is due.
/// - **Schedule.** Instants after `servedThrough` (or after `firstSeen` for a job never served)
///   up to now are due. One run serves them all (`servesThrough` is the latest). An instant more
///   than ``catchUpGrace`` older than now (or than `awakeSince`) was missed: with
///   `catchUp: .once` the run's reason is ``RunReason/catchUp(missed:)``; with `.skip` the job does
///   not run for it but gets a ``Action/skip(job:servesThrough:)`` to record, unless its latest
///   due instant is on time.
/// - **Watch.** A change newer than `lastRunStarted` starts a run once `debounce` has passed
///   since `changedAt`.
/// - **Retry.** After a failure, while `failures ≤ retry.limit`, the job waits for its retry at
///   `lastFailure + retry.delay(afterFailures:)`; due scheduled instants wait with it and are
///   served by the retry. Only a new change of a watched file starts it sooner. Once the retries
///   are used up, scheduled instants up to `lastFailure` are given up and the job waits for its
///   next instant (a watch-only job, for its next change).
/// - **Concurrency.** At most `maxConcurrent` runs at a time, counting running jobs; the rest
///   wait, earliest due first, then by name, and are listed in ``Decision/waiting``.
public enum Scheduler {
    /// How late a scheduled instant may be and still count as on time rather than missed.
    public static let catchUpGrace: TimeInterval = 60

    /// What to do at `now`.
    ///
    /// - parameters:
    ///     - jobs: Each job's policy and state, by job name.
    ///     - now: The current time.
    ///     - maxConcurrent: The most runs at a time, counting those already running; values
    ///       below 1 count as 1.
    ///     - awakeSince: When the daemon started (or woke from a system sleep), if known. Due
    ///       instants from then on are never treated as missed, however long they wait for a run
    ///       slot; without it, an instant waiting longer than ``catchUpGrace`` counts as missed
    ///       and a `catchUp: .skip` job skips it.
    public static func decide(
        jobs: [String: (JobPolicy, JobState)], now: Date, maxConcurrent: Int, awakeSince: Date? = nil
    ) -> Decision {
        let missedBefore = (awakeSince ?? now).addingTimeInterval(-catchUpGrace)
        var ready: [(name: String, since: Date, action: Action)] = []
        var decision = Decision()
        for name in jobs.keys.sorted() {
            let (policy, state) = jobs[name]!
            let plan = JobPlan(job: name, policy: policy, state: state, now: now,
                               missedBefore: missedBefore, missedBeforeMoves: awakeSince == nil)
            if let run = plan.run { ready.append((name, run.readySince, run.action)) }
            if let skip = plan.skip { decision.actions.append(skip) }
            if let wake = plan.wakes.min(), wake < (decision.wakeAt ?? .distantFuture) { decision.wakeAt = wake }
        }
        ready.sort { ($0.since, $0.name) < ($1.since, $1.name) }
        let running = jobs.values.filter { $0.1.running }.count
        let free = max(0, max(1, maxConcurrent) - running)
        decision.actions += ready.prefix(free).map(\.action)
        decision.waiting = ready.dropFirst(free).map(\.name)
        return decision
    }
}
