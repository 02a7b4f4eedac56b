import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// One store object used by many tasks at once (a daemon's runs, a worker's slots): each
/// transaction stays whole — a rule's steps included — and a task cancelled mid-way leaves no
/// transaction open on the connection.
@Suite(.onTestThreads) struct SharedStoreObjectTests {
    @Test(arguments: Backend.allCases)
    func manyTasksOnOneStoreObjectKeepEachTransactionWhole(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/shared.yml", name: "shared", title: nil)
        // Live holders of other hosts: only the first to take the free lease gets it.
        let outcomes = await concurrently(12) { i -> Bool in
            if i % 2 == 1 {
                _ = try await store.job(manifestPath: "/other-\(i).yml", name: "other", title: nil)
                return false
            }
            let holder = ProcessIdentity(host: "host\(i).example", pid: 1, startTicks: 1)
            if case .acquired = try await store.acquireLease(jobId: job.id!, holder: holder, duration: 60) { return true }
            return false
        }
        #expect(outcomes.filter { $0 == true }.count == 1)
        #expect(try await store.jobs().count == 7)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test(arguments: Backend.allCases)
    func aCancelledTaskLeavesNoTransactionOpen(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/cancelled.yml", name: "cancelled", title: nil)
        let holder = ProcessIdentity(host: "gone.example", pid: 1, startTicks: 1)
        for _ in 0..<20 {
            let cancelled = Task(executorPreference: TestThreads.shared) {
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try? await store.acquireLease(jobId: job.id!, holder: holder, duration: 0)
                _ = try? await store.settleOrphanedRuns(jobId: job.id!)
            }
            await cancelled.value
        }
        // The connection takes new transactions, and each is committed.
        let run = try await store.startRun(job: job)
        guard case .acquired = try await store.acquireLease(jobId: job.id!, holder: .current, duration: 60) else {
            Issue.record("the lease a cancelled task may have taken for 0 s was not free"); return
        }
        try await store.attachLease(jobId: job.id!, holder: .current, runId: run.id!)
        let other = try await fixture.open()
        #expect(try await other.lease(jobId: job.id!)?.runId == run.id, "the writes are visible to another connection")
        #expect(try await store.integrityCheck() == "ok")
    }
}
