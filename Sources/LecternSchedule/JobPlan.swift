import Foundation

/// One job's part of a ``Scheduler`` decision: the run it is ready for, a skip to record, and
/// the future instants at which that could change.
struct JobPlan {
    var run: (action: Action, readySince: Date)?
    var skip: Action?
    var wakes: [Date] = []

    /// - parameters:
    ///     - missedBefore: Due instants before this were missed rather than late.
    ///     - missedBeforeMoves: Whether `missedBefore` advances with the clock (no `awakeSince`),
    ///       so that an on-time instant can later become missed.
    init(job: String, policy: JobPolicy, state: JobState, now: Date, missedBefore: Date, missedBeforeMoves: Bool) {
        var retryAt: Date?
        var retriesUsedUp = false
        if state.failures > 0, let lastFailure = state.lastFailure {
            if let delay = policy.retry.delay(afterFailures: state.failures) {
                retryAt = lastFailure.addingTimeInterval(delay)
            } else {
                retriesUsedUp = true
            }
        }
        if let retryAt, retryAt > now { wakes.append(retryAt) }

        // Scheduled instants in (floor, now] are due.
        var floor = state.servedThrough ?? state.firstSeen
        if retriesUsedUp, let lastFailure = state.lastFailure { floor = max(floor, lastFailure) }
        var due: ClosedRange<Date>?
        if let schedule = policy.schedule {
            if let latest = schedule.lastDate(after: floor, through: now, in: policy.timeZone),
               let earliest = schedule.nextDate(after: floor, in: policy.timeZone) {
                due = earliest...latest
            }
            if retryAt == nil, let next = schedule.nextDate(after: max(now, floor), in: policy.timeZone) {
                wakes.append(next)
            }
        }

        var changeReady: Date?
        if policy.watch, let changed = state.changedAt, state.lastRunStarted.map({ changed > $0 }) ?? true {
            let readyAt = changed.addingTimeInterval(policy.debounce)
            if readyAt <= now { changeReady = readyAt } else { wakes.append(readyAt) }
        }

        guard !state.running else { return }
        let servesThrough = due?.upperBound
        if let interrupted = state.interruptedRun {
            // A run stopped half-way is continued first, whatever started it; it serves what is due.
            let trigger = state.interruptedTrigger ?? (policy.schedule == nil ? .watch : .schedule)
            run = (.run(job: job, trigger: trigger, reason: .resume(run: interrupted), servesThrough: servesThrough), .distantPast)
        } else if let retryAt {
            if retryAt <= now {
                let trigger = state.lastTrigger ?? (policy.schedule == nil ? .watch : .schedule)
                run = (.run(job: job, trigger: trigger, reason: .retry(attempt: state.failures), servesThrough: servesThrough), retryAt)
            } else if let changeReady {
                run = (.run(job: job, trigger: .watch, reason: .changed, servesThrough: servesThrough), changeReady)
            }
        } else if let due {
            let latestMissed = due.upperBound < missedBefore
            switch policy.catchUp {
            case .once:
                let reason: RunReason = due.lowerBound < missedBefore ? .catchUp(missed: due) : .due(due.upperBound)
                run = (.run(job: job, trigger: .schedule, reason: reason, servesThrough: due.upperBound), due.lowerBound)
            case .skip where !latestMissed:
                run = (.run(job: job, trigger: .schedule, reason: .due(due.upperBound), servesThrough: due.upperBound), due.upperBound)
                if missedBeforeMoves { wakes.append(due.upperBound.addingTimeInterval(Scheduler.catchUpGrace)) }
            case .skip:
                if let changeReady {
                    run = (.run(job: job, trigger: .watch, reason: .changed, servesThrough: due.upperBound), changeReady)
                } else {
                    skip = .skip(job: job, servesThrough: due.upperBound)
                }
            }
        } else if let changeReady {
            run = (.run(job: job, trigger: .watch, reason: .changed, servesThrough: nil), changeReady)
        }
    }
}
