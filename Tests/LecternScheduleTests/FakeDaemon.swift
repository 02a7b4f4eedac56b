import Foundation
import LecternSchedule

/// The daemon's loop without its I/O: holds the jobs' states, asks the scheduler at times the
/// test chooses (the fake clock), and applies the actions the way the real daemon records them.
struct FakeDaemon {
    struct Start: Equatable {
        var job: String
        var at: Date
        var trigger: Trigger
        var reason: RunReason
        var servesThrough: Date?
    }

    var policies: [String: JobPolicy]
    var states: [String: JobState]
    var maxConcurrent = 4
    var awakeSince: Date?
    private(set) var starts: [Start] = []
    private(set) var skips: [(job: String, servesThrough: Date)] = []
    private(set) var last = Decision()

    init(_ policies: [String: JobPolicy], firstSeen: Date, awakeSince: Date? = nil) {
        self.policies = policies
        self.states = policies.mapValues { _ in JobState(firstSeen: firstSeen) }
        self.awakeSince = awakeSince
    }

    /// Asks the scheduler at `now` and applies its actions.
    @discardableResult
    mutating func tick(_ now: Date) -> Decision {
        let jobs = Dictionary(uniqueKeysWithValues: policies.map { ($0.key, ($0.value, states[$0.key]!)) })
        last = Scheduler.decide(jobs: jobs, now: now, maxConcurrent: maxConcurrent, awakeSince: awakeSince)
        for action in last.actions {
            switch action {
            case let .run(job, trigger, reason, servesThrough):
                states[job]!.running = true
                states[job]!.lastRunStarted = now
                states[job]!.interruptedRun = nil
                if let servesThrough { states[job]!.servedThrough = servesThrough }
                starts.append(Start(job: job, at: now, trigger: trigger, reason: reason, servesThrough: servesThrough))
            case let .skip(job, servesThrough):
                states[job]!.servedThrough = servesThrough
                skips.append((job, servesThrough))
            }
        }
        return last
    }

    /// Ends `job`'s run at `now`, as the daemon records a success or a failure.
    mutating func finish(_ job: String, at now: Date, success: Bool = true) {
        states[job]!.running = false
        if success {
            states[job]!.failures = 0
            states[job]!.lastFailure = nil
            states[job]!.lastTrigger = nil
        } else {
            states[job]!.failures += 1
            states[job]!.lastFailure = now
            states[job]!.lastTrigger = starts.last { $0.job == job }?.trigger
        }
    }

    mutating func finishAll(at now: Date) {
        for (job, state) in states where state.running { finish(job, at: now) }
    }

    /// Runs the daemon from `start` to `end`, waking only at `wakeAt`, each run lasting `runTime`.
    mutating func run(from start: Date, until end: Date, runTime: TimeInterval = 5) {
        var now = start
        while now <= end {
            tick(now)
            var next = last.wakeAt ?? .distantFuture
            if states.values.contains(where: \.running) {
                finishAll(at: now.addingTimeInterval(runTime))
                next = min(next, now.addingTimeInterval(runTime))
            }
            now = next
        }
    }
}
