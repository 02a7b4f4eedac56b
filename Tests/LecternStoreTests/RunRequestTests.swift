import Foundation
import Synchronization
import Testing
import LecternTestSupport
import LecternStore

/// `lectern serve`'s run requests on both backends: a job takes one request at a time (of many
/// callers at once, one wins), an edit or a deletion is refused while a request exists and a start
/// waits while an edit runs, requests are claimed oldest first and each once, and a dead
/// claimer's request goes back in its place.
@Suite(.onTestThreads) struct RunRequestTests {
    @Test(arguments: Backend.allCases)
    func oneOfManyStartsOfAJobIsQueued(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let job = try await fixture.open().job(manifestPath: "/a.yml", name: "a", title: nil)
        let outcomes = await concurrently(8) { _ in try await fixture.open().requestRun(jobId: job.id!) }
        let queued = outcomes.compactMap { outcome -> RunRequestRecord? in
            if case .queued(let request) = outcome { return request }
            return nil
        }
        #expect(queued.count == 1, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0 != nil })
        await #expect(try fixture.open().runRequests().map(\.jobId) == [job.id!])
    }

    @Test(arguments: Backend.allCases)
    func anEditAndAStartOfOneJobNeverOverlap(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/e.yml", name: "e", title: nil)
        // An edit refused while a run is queued; allowed once it ended.
        guard case .queued(let request) = try await store.requestRun(jobId: job.id!) else { Issue.record("refused"); return }
        let refused = try await store.editIdleJob(jobId: job.id!) { Issue.record("an edit ran while a run was queued") }
        #expect(refused?.contains("queued or under way") == true, "\(refused ?? "nil")")
        try await store.endRunRequest(id: request.id)
        await #expect(try store.editIdleJob(jobId: job.id!) {} == nil)

        // A start while an edit is inside its transaction waits for it, then is queued after it.
        let inside = Flag()
        let started = await concurrently(2) { i -> String in
            let store = try await fixture.open()
            if i == 0 {
                return try await store.editIdleJob(jobId: job.id!) {
                    inside.set(true)
                    usleep(300_000)  // long enough for the start to arrive while the edit holds the job
                    inside.set(false)
                } ?? "edited"
            }
            let deadline = Date().addingTimeInterval(30)
            while !inside.value, Date() < deadline { try await Task.sleep(for: .milliseconds(1)) }
            let outcome = try await store.requestRun(jobId: job.id!)
            let editing = inside.value
            #expect(!editing, "the start was decided while the edit ran")
            if case .queued = outcome { return "queued" }
            return "busy"
        }
        #expect(started == ["edited", "queued"])
        // A live process's lease elsewhere refuses both.
        try await store.endRunRequest(id: try await store.runRequests()[0].id)
        _ = try await store.acquireLease(jobId: job.id!, holder: LeaseAndClaimTests.elsewhere, duration: 60)
        guard case .busy(let why) = try await store.requestRun(jobId: job.id!) else { Issue.record("queued under a live lease"); return }
        #expect(why.contains("elsewhere.example"), "\(why)")
        await #expect(try store.editIdleJob(jobId: job.id!) {} != nil)
    }

    @Test(arguments: Backend.allCases)
    func aServedJobIsDeletedOnlyWhenNoRunOfItIsQueuedOrUnderWay(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let served = ServedJobRecord(jobId: 0, owner: "alice", folder: "f1", feedSecret: "s1", createdAt: Date())
        let job = try await store.addServedJob(served, manifestPath: "/d.yml", name: "d", title: nil)
        guard case .queued(let request) = try await store.requestRun(jobId: job.id!) else { Issue.record("refused"); return }
        let refused = try await store.deleteIdleServedJob(jobId: job.id!)
        #expect(refused?.contains("queued or under way") == true, "\(refused ?? "nil")")
        await #expect(try store.servedJob(jobId: job.id!) != nil)
        try await store.endRunRequest(id: request.id)
        await #expect(try store.deleteIdleServedJob(jobId: job.id!) == nil)
        await #expect(try store.servedJob(jobId: job.id!) == nil)
        await #expect(try store.job(id: job.id!) == nil)
    }

    @Test(arguments: Backend.allCases)
    func requestsAreClaimedOldestFirstEachOnceAndADeadClaimGoesBackInItsPlace(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        var jobs: [Int64] = []
        for name in ["a", "b", "c", "d", "e", "f"] {
            let job = try await store.job(manifestPath: "/\(name).yml", name: name, title: nil)
            guard case .queued = try await store.requestRun(jobId: job.id!) else { Issue.record("refused"); return }
            jobs.append(job.id!)
        }
        // A waiting request can be withdrawn; a claimed one cannot.
        await #expect(try store.withdrawRunRequest(jobId: jobs[5]))
        let dead = try CrashRecoveryStoreTests.deadProcess()
        let first = try #require(try await store.claimRunRequest(holder: dead))
        #expect(first.jobId == jobs[0] && first.holder == dead.description)
        await #expect(try !store.withdrawRunRequest(jobId: jobs[0]))
        #expect(first.claimIsDead(lease: nil, now: Date()))
        #expect(!RunRequestRecord(id: 1, jobId: 1, requestedAt: Date(), holder: ProcessIdentity.current.description, claimedAt: Date())
            .claimIsDead(lease: nil, now: Date()))

        // Many claimers at once: each waiting request once, the oldest first.
        let claimed = await concurrently(6) { _ -> Int64 in try await fixture.open().claimRunRequest(holder: .current)?.jobId ?? 0 }
        #expect(claimed.compactMap { $0 }.filter { $0 != 0 }.sorted() == Array(jobs[1...4]), "\(claimed)")
        await #expect(try store.claimRunRequest(holder: .current) == nil)

        // The dead claimer's request goes back in its place: the next claim takes it.
        await #expect(try store.releaseRunRequest(id: first.id, holder: dead.description))
        await #expect(try !store.releaseRunRequest(id: first.id, holder: dead.description))
        for request in try await store.runRequests() where request.jobId != jobs[0] { try await store.endRunRequest(id: request.id) }
        guard case .queued = try await store.requestRun(jobId: jobs[5]) else { Issue.record("refused"); return }
        await #expect(try store.claimRunRequest(holder: .current)?.jobId == jobs[0])
        await #expect(try store.claimRunRequest(holder: .current)?.jobId == jobs[5])
    }
}

/// A flag set in one task and read in another.
private final class Flag: Sendable {
    private let state = Atomic<Bool>(false)
    var value: Bool { state.load(ordering: .sequentiallyConsistent) }
    func set(_ value: Bool) { state.store(value, ordering: .sequentiallyConsistent) }
}
