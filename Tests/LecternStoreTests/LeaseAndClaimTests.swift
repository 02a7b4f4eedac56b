import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// Leases on jobs and the daemons' claims, on both backends: a claim succeeds for exactly one
/// of many callers at once, each with its own store object (its own connection).
@Suite(.onTestThreads) struct LeaseAndClaimTests {
    /// A live process of another host (its lease's expiry decides).
    static let elsewhere = ProcessIdentity(host: "elsewhere.example", pid: 1, startTicks: 1)

    @Test(arguments: Backend.allCases)
    func leasesAreHeldTakenOverFromTheDeadAndReleased(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        guard case .acquired(let mine, let none) = try await store.acquireLease(jobId: job.id!, holder: .current, duration: 60) else {
            Issue.record("a free lease was refused"); return
        }
        #expect(mine.holder == ProcessIdentity.current.description && none.isEmpty)
        guard case .held(let held) = try await fixture.open().acquireLease(jobId: job.id!, holder: Self.elsewhere, duration: 60) else {
            Issue.record("a live holder's lease was taken"); return
        }
        #expect(held.holder == ProcessIdentity.current.description)
        let run = try await store.startRun(job: job)
        try await store.attachLease(jobId: job.id!, holder: .current, runId: run.id!)
        await #expect(try store.lease(jobId: job.id!)?.runId == run.id)
        await #expect(try store.leasedJobIds() == [job.id!])
        await #expect(try store.renewLease(jobId: job.id!, holder: .current, duration: 60))
        try await store.releaseLease(jobId: job.id!, holder: .current)
        await #expect(try store.lease(jobId: job.id!) == nil)
        await #expect(try store.leasedJobIds().isEmpty)

        // A dead holder's lease is taken over, and its running run settled in the same step.
        let dead = try CrashRecoveryStoreTests.deadProcess()
        _ = try await store.acquireLease(jobId: job.id!, holder: dead, duration: 60)
        await #expect(try store.leasedJobIds().isEmpty, "a dead holder's lease counts as free")
        var orphan = try await store.startRun(job: job)
        orphan.holder = dead.description
        try await store.update(orphan)
        guard case .acquired(_, let interrupted) = try await fixture.open().acquireLease(jobId: job.id!, holder: Self.elsewhere, duration: 60) else {
            Issue.record("a dead holder's lease was not taken over"); return
        }
        #expect(interrupted.map(\.id) == [orphan.id] && interrupted.first?.state == .interrupted)
        await #expect(try store.runs(jobId: job.id!).first?.state == .interrupted)
        await #expect(try !store.renewLease(jobId: job.id!, holder: dead, duration: 60), "the old holder's renewal fails")

        // An expired lease of a live host is taken over too.
        _ = try await store.acquireLease(jobId: job.id!, holder: Self.elsewhere, duration: -1)
        guard case .acquired = try await store.acquireLease(jobId: job.id!, holder: .current, duration: 60) else {
            Issue.record("an expired lease was not taken over"); return
        }
        await #expect(try store.leasedJobIds(at: Date().addingTimeInterval(120)).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func ofManyConcurrentLeaseTakersOneGetsIt(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let job = try await fixture.open().job(manifestPath: "/b.yml", name: "b", title: nil)
        let outcomes = await concurrently(6) { i -> Bool in
            let holder = ProcessIdentity(host: "host\(i).example", pid: Int32(i + 1), startTicks: 1)
            if case .acquired = try await fixture.open().acquireLease(jobId: job.id!, holder: holder, duration: 60) { return true }
            return false
        }
        #expect(outcomes.filter { $0 == true }.count == 1)
    }

    @Test(arguments: Backend.allCases)
    func eachScheduleClaimSucceedsForExactlyOneOfManyCallers(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let registered = await concurrently(4) { _ in
            try await fixture.open().registerSchedule(jobId: job.id!, expression: "0 * * * *", timeZone: "UTC", watch: true, watchVersion: "v1", now: now)
        }
        #expect(registered.allSatisfy { $0?.firstSeen.ms == now.ms && $0?.servedVersion == "v1" })
        var stopped = try await store.startRun(job: job, trigger: .schedule)
        stopped.state = .interrupted
        try await store.update(stopped)
        let failed = stopped
        try await store.recordOutcome(jobId: job.id!, error: "boom", wasRetry: false, at: now)

        var stores: [any JobStore] = []
        for _ in 0..<6 { stores.append(try await fixture.open()) }
        func once(_ claim: @Sendable @escaping (any JobStore) async throws -> Bool) async -> Int {
            await concurrently(stores.count) { [stores] i in try await claim(stores[i]) }.filter { $0 == true }.count
        }
        let due = now.addingTimeInterval(3600)
        await #expect(once { try await $0.claimDue(jobId: job.id!, through: due) } == 1)
        await #expect(once { try await $0.claimDue(jobId: job.id!, through: due) } == 0, "a due time is served once")
        await #expect(once { try await $0.claimChange(jobId: job.id!, version: "v2") } == 1)
        await #expect(once { try await $0.claimRetry(jobId: job.id!, failures: 1) } == 1)
        await #expect(once { try await $0.claimResume(jobId: job.id!, runId: failed.id!) } == 1)

        let schedule = try await #require(try store.schedule(jobId: job.id!))
        #expect(schedule.servedThrough?.ms == due.ms && schedule.watchVersion == "v2" && schedule.retriedFailures == 1)
        #expect(schedule.failures == 1 && schedule.lastError == "boom" && schedule.resumedRunId == failed.id)
        #expect(schedule.watchClaimant == ProcessIdentity.current.description)
        try await store.recordOutcome(jobId: job.id!, error: "again", wasRetry: true, at: now)
        await #expect(try store.schedule(jobId: job.id!)?.failures == 2)
        try await store.setNextDue(jobId: job.id!, due)
        await #expect(try store.schedules()[job.id!]?.nextDue?.ms == due.ms)
        let changed = try await store.registerSchedule(jobId: job.id!, expression: nil, timeZone: nil, watch: false, watchVersion: "v9", now: due)
        #expect(changed.expression == nil && !changed.watch && changed.watchVersion == "v2" && changed.updatedAt.ms == due.ms)
        try await store.removeSchedule(jobId: job.id!)
        await #expect(try store.schedule(jobId: job.id!) == nil)
    }
}
