import Foundation
import Testing
import LecternTestSupport
import LecternSchedule
import LecternStore

/// What the store does for a process that died: its lease is no longer counted, its runs are
/// settled as interrupted (or failed, with the message it left in its note), the latest is
/// resumed once, and a watched change it claimed is given back unless a run rendered it.
@Suite(.onTestThreads) struct CrashRecoveryStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-recovery-\(UUID().uuidString)")

    /// A process of this host that has ended.
    static func deadProcess() throws -> ProcessIdentity {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return ProcessIdentity(host: ProcessIdentity.current.host, pid: process.processIdentifier, startTicks: 1)
    }

    /// A job with a run left `running` by a dead process, started by `trigger`.
    func orphan(_ store: JobStore, trigger: Trigger) async throws -> (JobRecord, RunRecord) {
        let job = try await store.job(manifestPath: folder.appendingPathComponent("\(trigger.rawValue).yml").path, name: trigger.rawValue, title: nil)
        _ = try await store.registerSchedule(jobId: job.id!, expression: nil, timeZone: nil, watch: true, watchVersion: "v1", now: Date())
        var run = try await store.startRun(job: job, trigger: trigger)
        run.holder = try Self.deadProcess().description
        try await store.update(run)
        return (job, run)
    }

    @Test(arguments: Backend.allCases)
    func aDeadHoldersLeaseIsNotCountedAndItsRunIsSettledAndResumedOnce(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let (job, run) = try await orphan(store, trigger: .schedule)
        await #expect(try store.runs(jobId: job.id!).first?.isOrphaned == true)
        let settled = try await store.settleOrphanedRuns(jobId: job.id!)
        #expect(settled.map(\.id) == [run.id])
        let dead = try Self.deadProcess()
        guard case .acquired = try await store.acquireLease(jobId: job.id!, holder: dead, duration: 60) else {
            Issue.record("a free lease was refused")
            return
        }
        await #expect(try store.leasedJobIds().isEmpty, "a dead holder's lease counts as free")
        await #expect(try store.runs(jobId: job.id!).first?.state == .interrupted)
        await #expect(try store.interruptedRun(jobId: job.id!)?.id == run.id)
        await #expect(try store.claimResume(jobId: job.id!, runId: run.id!))
        await #expect(try !store.claimResume(jobId: job.id!, runId: run.id!), "a second daemon does not resume it again")
        await #expect(try store.interruptedRun(jobId: job.id!) == nil)

        // A live holder's lease counts, and its running run is left alone.
        _ = try await store.acquireLease(jobId: job.id!, holder: .current, duration: 60)
        await #expect(try store.leasedJobIds() == [job.id!])
        let live = try await store.startRun(job: job, trigger: .schedule)
        await #expect(try store.settleOrphanedRuns(jobId: job.id!).isEmpty)
        await #expect(try store.runs(jobId: job.id!).first { $0.id == live.id }?.state == .running)
    }

    @Test(arguments: Backend.allCases)
    func aFailureTheStoreCouldNotTakeIsRecordedFromItsNote(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let (job, run) = try await orphan(store, trigger: .manual)
        let note = FailureNote(store: store, runId: run.id!)
        note.reserve()
        let message = "cannot write the job store \(store.name): database or disk is full"
        #expect(note.write(message))
        _ = try await store.acquireLease(jobId: job.id!, holder: .current, duration: 60)
        let recorded = try await #require(try store.runs(jobId: job.id!).first)
        #expect(recorded.state == .failed)
        #expect(recorded.error == message)
        #expect(!FileManager.default.fileExists(atPath: note.url.path))
        await #expect(try store.interruptedRun(jobId: job.id!) == nil, "a manual run is not a daemon's to resume")
    }

    @Test(arguments: Backend.allCases)
    func aChangeIsServedOnlyByASuccessAndADeadClaimantsChangeIsReopened(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let (job, _) = try await orphan(store, trigger: .watch)
        let dead = try Self.deadProcess()
        // A live daemon's claim stands while its run is under way.
        await #expect(try store.claimChange(jobId: job.id!, version: "v2"))
        await #expect(try store.reopenUnservedChange(jobId: job.id!)?.watchVersion == "v2")
        // A dead daemon's claim is given back: the next daemon claims and renders v2 again.
        await #expect(try store.claimChange(jobId: job.id!, version: "v3", claimant: dead))
        await #expect(try store.reopenUnservedChange(jobId: job.id!)?.watchVersion == "v1")
        await #expect(try store.claimChange(jobId: job.id!, version: "v3"))
        // A failure does not serve it; a success does.
        try await store.recordOutcome(jobId: job.id!, error: "no such file", wasRetry: false, at: Date(), servedVersion: "v3")
        await #expect(try store.schedule(jobId: job.id!)?.servedVersion == "v1")
        try await store.recordOutcome(jobId: job.id!, error: nil, wasRetry: false, at: Date(), servedVersion: "v3")
        await #expect(try store.schedule(jobId: job.id!)?.servedVersion == "v3")
    }
}
