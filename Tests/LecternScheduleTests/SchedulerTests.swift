import Foundation
import Testing
import LecternSchedule

@Suite struct SchedulerTests {
    let utcZone = zone("UTC")

    func policy(_ expression: String, catchUp: CatchUp = .once, zone: TimeZone = zone("UTC")) throws -> JobPolicy {
        JobPolicy(schedule: try CronSchedule(expression), timeZone: zone, catchUp: catchUp)
    }

    @Test func everyMinuteJobRunsExactlyOncePerMinuteThroughAnHourOfIrregularCalls() throws {
        var daemon = FakeDaemon(["tick": try policy("* * * * *")], firstSeen: instant("2026-05-10T11:59:30Z"))
        let steps: [TimeInterval] = [7, 23, 41, 3, 17, 29, 11, 53, 2, 37, 0.4, 59.5]
        var now = instant("2026-05-10T11:59:31Z")
        var i = 0
        while now < instant("2026-05-10T13:01:00Z") {
            daemon.finishAll(at: now)
            let decision = daemon.tick(now)
            // The next wake is the next whole minute.
            let nextMinute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60)
            #expect(decision.wakeAt == nextMinute)
            now += steps[i % steps.count]
            i += 1
        }
        let minutes = (0...60).map { instant("2026-05-10T12:00:00Z").addingTimeInterval(Double($0) * 60) }
        #expect(daemon.starts.map(\.servesThrough) == minutes)
        #expect(daemon.starts.map(\.reason) == minutes.map { .due($0) })
        for start in daemon.starts {
            let served = try #require(start.servesThrough)
            #expect(start.at >= served && start.at < served + 60)
        }
    }

    @Test func dailyJobDownForThreeDaysCatchesUpOnceThenRunsAtMidnight() throws {
        var daemon = FakeDaemon(["news": try policy("@daily")], firstSeen: instant("2026-04-01T12:00:00Z"))
        daemon.states["news"]!.servedThrough = instant("2026-05-01T00:00:00Z")
        let back = instant("2026-05-04T08:00:00Z")
        daemon.awakeSince = back

        let decision = daemon.tick(back)
        #expect(decision.actions == [.run(job: "news", trigger: .schedule,
                                          reason: .catchUp(missed: instant("2026-05-02T00:00:00Z")...instant("2026-05-04T00:00:00Z")),
                                          servesThrough: instant("2026-05-04T00:00:00Z"))])
        #expect(decision.wakeAt == instant("2026-05-05T00:00:00Z"))

        daemon.finish("news", at: back + 60)
        #expect(daemon.tick(back + 61).actions.isEmpty)
        #expect(daemon.last.wakeAt == instant("2026-05-05T00:00:00Z"))
        #expect(daemon.tick(instant("2026-05-05T00:00:00Z")).actions == [
            .run(job: "news", trigger: .schedule, reason: .due(instant("2026-05-05T00:00:00Z")),
                 servesThrough: instant("2026-05-05T00:00:00Z")),
        ])
    }

    @Test func catchUpNoneSkipsMissedInstantsAndRunsTheNextOne() throws {
        var daemon = FakeDaemon(["news": try policy("@daily", catchUp: .skip)], firstSeen: instant("2026-04-01T12:00:00Z"))
        daemon.states["news"]!.servedThrough = instant("2026-05-01T00:00:00Z")
        daemon.awakeSince = instant("2026-05-04T08:00:00Z")

        let decision = daemon.tick(instant("2026-05-04T08:00:00Z"))
        #expect(decision.actions == [.skip(job: "news", servesThrough: instant("2026-05-04T00:00:00Z"))])
        #expect(decision.wakeAt == instant("2026-05-05T00:00:00Z"))
        #expect(daemon.tick(instant("2026-05-04T08:00:01Z")).actions.isEmpty)
        daemon.run(from: instant("2026-05-05T00:00:00Z"), until: instant("2026-05-05T12:00:00Z"))
        #expect(daemon.starts.map(\.reason) == [.due(instant("2026-05-05T00:00:00Z"))])
    }

    @Test func catchUpNoneStillRunsAnInstantWithinTheGrace() throws {
        var daemon = FakeDaemon(["news": try policy("@daily", catchUp: .skip)], firstSeen: instant("2026-04-01T12:00:00Z"))
        daemon.states["news"]!.servedThrough = instant("2026-05-01T00:00:00Z")
        // Back 30 s after midnight: the older instants are skipped, today's is on time.
        let decision = daemon.tick(instant("2026-05-04T00:00:30Z"))
        #expect(decision.actions == [.run(job: "news", trigger: .schedule, reason: .due(instant("2026-05-04T00:00:00Z")),
                                          servesThrough: instant("2026-05-04T00:00:00Z"))])
    }

    @Test func watchDebounceRunsOnceTwoSecondsAfterTheLastOfThreeChanges() {
        var daemon = FakeDaemon(["book": JobPolicy(watch: true)], firstSeen: instant("2026-05-10T11:00:00Z"))
        let t0 = instant("2026-05-10T12:00:00Z")
        for change in [t0, t0 + 0.5, t0 + 1.0] {
            daemon.states["book"]!.changedAt = change
            let decision = daemon.tick(change)
            #expect(decision.actions.isEmpty)
            #expect(decision.wakeAt == change + 2)
        }
        #expect(daemon.tick(t0 + 2.9).actions.isEmpty)
        #expect(daemon.tick(t0 + 3.0).actions == [.run(job: "book", trigger: .watch, reason: .changed, servesThrough: nil)])
        daemon.finish("book", at: t0 + 10)
        let after = daemon.tick(t0 + 10)
        #expect(after.actions.isEmpty)
        #expect(after.wakeAt == nil)
        #expect(daemon.starts.count == 1)
    }

    /// A daemon starting after a crash finds the job's latest run stopped half-way: it is resumed
    /// at once with its own trigger (a daily run does not wait for tomorrow, a watch run needs no
    /// new change), ahead of a pending retry, and only once.
    @Test func anInterruptedRunIsResumedAtOnceWithItsTrigger() throws {
        let now = instant("2026-05-10T09:00:00Z")
        var daemon = FakeDaemon(["daily": try policy("@daily"), "watched": JobPolicy(watch: true)],
                                firstSeen: instant("2026-05-01T00:00:00Z"), awakeSince: now)
        daemon.states["daily"]!.servedThrough = instant("2026-05-10T00:00:00Z")
        daemon.states["daily"]!.interruptedRun = 7
        daemon.states["daily"]!.interruptedTrigger = .schedule
        daemon.states["daily"]!.failures = 1
        daemon.states["daily"]!.lastFailure = now  // its retry would wait
        daemon.states["watched"]!.interruptedRun = 8
        daemon.states["watched"]!.interruptedTrigger = .watch
        daemon.tick(now)
        #expect(daemon.starts.map(\.job) == ["daily", "watched"])
        #expect(daemon.starts.map(\.reason) == [.resume(run: 7), .resume(run: 8)])
        #expect(daemon.starts.map(\.trigger) == [.schedule, .watch])
        daemon.finishAll(at: now + 5)
        daemon.tick(now + 10)
        #expect(daemon.starts.count == 2)
    }

    @Test func runningJobIsNotStartedAgainUntilItFinishes() throws {
        var policies = ["tick": try policy("* * * * *")]
        policies["tick"]!.watch = true
        var daemon = FakeDaemon(policies, firstSeen: instant("2026-05-10T11:59:30Z"), awakeSince: instant("2026-05-10T11:00:00Z"))
        daemon.tick(instant("2026-05-10T12:00:01Z"))
        #expect(daemon.starts.count == 1)
        daemon.states["tick"]!.changedAt = instant("2026-05-10T12:00:10Z")
        for now in ["2026-05-10T12:00:20Z", "2026-05-10T12:01:00Z", "2026-05-10T12:02:30Z", "2026-05-10T12:03:10Z"] {
            #expect(daemon.tick(instant(now)).actions.isEmpty)
        }
        daemon.finish("tick", at: instant("2026-05-10T12:03:20Z"))
        // One run serves the change and the three instants that came due meanwhile.
        #expect(daemon.tick(instant("2026-05-10T12:03:20Z")).actions == [
            .run(job: "tick", trigger: .schedule, reason: .due(instant("2026-05-10T12:03:00Z")),
                 servesThrough: instant("2026-05-10T12:03:00Z")),
        ])
        #expect(daemon.starts.count == 2)
    }

    @Test func failedRunIsRetriedAfter30And60And120SecondsThenWaitsForTheNextInstant() throws {
        var daemon = FakeDaemon(["news": try policy("@daily")], firstSeen: instant("2026-05-09T12:00:00Z"))
        var now = instant("2026-05-10T00:00:00Z")
        while now < instant("2026-05-11T12:00:00Z") {
            daemon.tick(now)
            if daemon.states["news"]!.running {
                daemon.finish("news", at: now + 5, success: false)
                now += 5
                continue
            }
            now = try #require(daemon.last.wakeAt)
        }
        #expect(daemon.starts.map(\.at) == [
            instant("2026-05-10T00:00:00Z"), instant("2026-05-10T00:00:35Z"), instant("2026-05-10T00:01:40Z"),
            instant("2026-05-10T00:03:45Z"), instant("2026-05-11T00:00:00Z"),
        ])
        #expect(daemon.starts.map(\.reason) == [
            .due(instant("2026-05-10T00:00:00Z")), .retry(attempt: 1), .retry(attempt: 2), .retry(attempt: 3),
            .due(instant("2026-05-11T00:00:00Z")),
        ])
        #expect(daemon.starts.allSatisfy { $0.trigger == .schedule })
    }

    @Test func watchOnlyJobOutOfRetriesWaitsForTheNextChange() {
        var daemon = FakeDaemon(["book": JobPolicy(watch: true, retry: RetryPolicy(limit: 1))], firstSeen: instant("2026-05-10T11:00:00Z"))
        let t0 = instant("2026-05-10T12:00:00Z")
        daemon.states["book"]!.changedAt = t0
        daemon.tick(t0 + 2)
        daemon.finish("book", at: t0 + 4, success: false)
        #expect(daemon.tick(t0 + 5).wakeAt == t0 + 34)
        #expect(daemon.tick(t0 + 34).actions == [.run(job: "book", trigger: .watch, reason: .retry(attempt: 1), servesThrough: nil)])
        daemon.finish("book", at: t0 + 36, success: false)
        let exhausted = daemon.tick(t0 + 37)
        #expect(exhausted.actions.isEmpty && exhausted.wakeAt == nil)
        daemon.states["book"]!.changedAt = t0 + 100
        #expect(daemon.tick(t0 + 102).actions == [.run(job: "book", trigger: .watch, reason: .changed, servesThrough: nil)])
    }

    @Test func maxConcurrentOneRunsThreeDueJobsOneAfterAnotherEarliestDueFirst() throws {
        var daemon = FakeDaemon([
            "beta": try policy("@hourly"), "alpha": try policy("@hourly"), "zulu": try policy("59 11 * * *"),
        ], firstSeen: instant("2026-05-10T11:00:00Z"), awakeSince: instant("2026-05-10T11:00:00Z"))
        daemon.maxConcurrent = 1
        let first = daemon.tick(instant("2026-05-10T12:00:01Z"))
        #expect(first.actions.map(\.job) == ["zulu"])
        #expect(first.waiting == ["alpha", "beta"])
        #expect(daemon.tick(instant("2026-05-10T12:01:00Z")).actions.isEmpty)
        daemon.finish("zulu", at: instant("2026-05-10T12:05:00Z"))
        let second = daemon.tick(instant("2026-05-10T12:05:00Z"))
        #expect(second.actions == [.run(job: "alpha", trigger: .schedule, reason: .due(instant("2026-05-10T12:00:00Z")),
                                        servesThrough: instant("2026-05-10T12:00:00Z"))])
        #expect(second.waiting == ["beta"])
        daemon.finish("alpha", at: instant("2026-05-10T12:10:00Z"))
        #expect(daemon.tick(instant("2026-05-10T12:10:00Z")).actions.map(\.job) == ["beta"])
        daemon.finish("beta", at: instant("2026-05-10T12:15:00Z"))
        let done = daemon.tick(instant("2026-05-10T12:15:00Z"))
        #expect(done.actions.isEmpty && done.waiting.isEmpty)
        #expect(daemon.starts.map(\.job) == ["zulu", "alpha", "beta"])
    }

    @Test func runningJobsCountAgainstMaxConcurrent() throws {
        var daemon = FakeDaemon(["a": try policy("@hourly"), "b": try policy("@hourly"), "busy": try policy("@daily")],
                                firstSeen: instant("2026-05-10T11:30:00Z"))
        daemon.maxConcurrent = 2
        daemon.states["busy"]!.running = true
        let decision = daemon.tick(instant("2026-05-10T12:00:00Z"))
        #expect(decision.actions.map(\.job) == ["a"])
        #expect(decision.waiting == ["b"])
    }

    @Test func jobWaitingForASlotIsNotSkippedAsMissed() throws {
        var daemon = FakeDaemon(["a": try policy("@hourly"), "b": try policy("@hourly", catchUp: .skip)],
                                firstSeen: instant("2026-05-10T11:30:00Z"), awakeSince: instant("2026-05-10T11:30:00Z"))
        daemon.maxConcurrent = 1
        #expect(daemon.tick(instant("2026-05-10T12:00:00Z")).actions.map(\.job) == ["a"])
        daemon.finish("a", at: instant("2026-05-10T12:20:00Z"))
        #expect(daemon.tick(instant("2026-05-10T12:20:00Z")).actions == [
            .run(job: "b", trigger: .schedule, reason: .due(instant("2026-05-10T12:00:00Z")), servesThrough: instant("2026-05-10T12:00:00Z")),
        ])
    }

    @Test func wakeAtIsTheEarliestOfScheduleDebounceAndRetry() throws {
        let now = instant("2026-05-10T12:07:00Z")
        let quarter = try policy("*/15 * * * *")
        let watcher = JobPolicy(watch: true)
        let retrying = try policy("@daily")
        var jobs: [String: (JobPolicy, JobState)] = [
            "quarter": (quarter, JobState(firstSeen: now - 3600, servedThrough: instant("2026-05-10T12:00:00Z"))),
            "watcher": (watcher, JobState(firstSeen: now - 3600, changedAt: now - 1)),
            "retrying": (retrying, JobState(firstSeen: now - 86_400, servedThrough: instant("2026-05-10T00:00:00Z"), failures: 1,
                                            lastFailure: now - 10, lastTrigger: .schedule)),
        ]
        #expect(Scheduler.decide(jobs: jobs, now: now, maxConcurrent: 4).wakeAt == now + 1)  // debounce end
        jobs["watcher"]!.1.changedAt = nil
        #expect(Scheduler.decide(jobs: jobs, now: now, maxConcurrent: 4).wakeAt == now + 20)  // retry
        jobs["retrying"] = nil
        #expect(Scheduler.decide(jobs: jobs, now: now, maxConcurrent: 4).wakeAt == instant("2026-05-10T12:15:00Z"))
        jobs["quarter"] = nil
        #expect(Scheduler.decide(jobs: jobs, now: now, maxConcurrent: 4).wakeAt == nil)
        #expect(Scheduler.decide(jobs: [:], now: now, maxConcurrent: 4) == Decision())
    }

    @Test func dailyJobInTheSpringForwardGapRunsOnceAtThreeInBerlin() throws {
        var daemon = FakeDaemon(["night": try policy("30 2 * * *", zone: zone("Europe/Berlin"))],
                                firstSeen: instant("2026-03-28T12:00:00Z"))
        daemon.run(from: instant("2026-03-28T12:00:00Z"), until: instant("2026-03-30T12:00:00Z"))
        #expect(daemon.starts.map(\.at) == [instant("2026-03-29T03:00:00+02:00"), instant("2026-03-30T02:30:00+02:00")])
        #expect(daemon.starts.first?.reason == .due(instant("2026-03-29T01:00:00Z")))
    }

    @Test func dailyJobInTheRepeatedHourRunsOnceInBerlin() throws {
        var daemon = FakeDaemon(["night": try policy("30 2 * * *", zone: zone("Europe/Berlin"))],
                                firstSeen: instant("2026-10-24T12:00:00Z"))
        daemon.run(from: instant("2026-10-24T12:00:00Z"), until: instant("2026-10-26T12:00:00Z"))
        #expect(daemon.starts.map(\.at) == [instant("2026-10-25T02:30:00+02:00"), instant("2026-10-26T02:30:00+01:00")])
    }
}
