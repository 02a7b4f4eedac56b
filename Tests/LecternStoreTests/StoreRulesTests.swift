import Foundation
import Testing
import LecternStore

/// The rules written once in ``StoreRules`` (who may take a lease, how an orphaned run is
/// settled), checked on their own and then through each backend: both backends run them above
/// their ``StoreTransaction``, so an edge case that two copies could decide differently — a
/// lease whose holder no host can judge — comes out the same.
@Suite struct StoreRulesTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)
    static let elsewhere = ProcessIdentity(host: "elsewhere.example", pid: 1, startTicks: 1)

    static func lease(holder: String, expiresIn seconds: TimeInterval) -> LeaseRecord {
        LeaseRecord(jobId: 1, runId: nil, holder: holder, acquiredAt: now, heartbeatAt: now, expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func aLeaseIsTakenOnlyFromItsHolderTheExpiredOrTheDead() throws {
        let dead = try CrashRecoveryStoreTests.deadProcess()
        let live = Self.lease(holder: Self.elsewhere.description, expiresIn: 60)
        #expect(!live.mayBeTaken(by: .current, at: Self.now), "a live holder keeps an unexpired lease")
        #expect(live.mayBeTaken(by: Self.elsewhere, at: Self.now), "the holder takes its own lease again")
        #expect(live.mayBeTaken(by: .current, at: Self.now.addingTimeInterval(60)), "an expired lease is free")
        #expect(Self.lease(holder: dead.description, expiresIn: 60).mayBeTaken(by: .current, at: Self.now), "a dead holder's lease is free")
        let unknown = Self.lease(holder: "not a process", expiresIn: 60)
        #expect(unknown.mayBeTaken(by: .current, at: Self.now), "a holder no host can judge is taken over")
        #expect(unknown.holderMayBeAlive, "… but still counted as leased until then")
        #expect(!Self.lease(holder: dead.description, expiresIn: 60).holderMayBeAlive)
    }

    @Test func anOrphanedRunFailsWithItsNotesMessageElseIsInterrupted() {
        let run = RunRecord(id: 7, jobId: 1, trigger: "manual", state: .running, startedAt: Self.now, pid: 42, wordsDone: 0,
                            audioMsDone: 0, holder: nil, resumesRunId: nil, forced: false)
        let failed = run.settled(note: "disk full", at: Self.now)
        #expect(failed.state == .failed && failed.error == "disk full" && failed.endedAt == Self.now)
        let interrupted = run.settled(note: nil, at: Self.now)
        #expect(interrupted.state == .interrupted && interrupted.endedAt == Self.now)
        #expect(interrupted.error == "the process running it (pid 42) stopped without finishing")
        var explained = run
        explained.error = "cancelled by the user"
        #expect(explained.settled(note: nil, at: Self.now).error == "cancelled by the user", "an error already recorded stays")
    }

    /// Saves `lease` through the backend's own transaction (no public call stores a holder that
    /// is not a process).
    static func save<Store: StoreExecutor>(_ lease: LeaseRecord, in store: Store) throws {
        try store.writing { db in try db.saveLease(lease) }
    }

    @Test(arguments: Backend.allCases)
    func bothBackendsTakeOverALeaseByTheSameRule(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        let executor = try #require(store as? any StoreExecutor, "the \(backend) store runs the shared rules")
        let job = try store.job(manifestPath: "/b.yml", name: "b", title: nil)
        let now = Date()
        try Self.save(LeaseRecord(jobId: job.id!, runId: nil, holder: "not a process", acquiredAt: now, heartbeatAt: now,
                                  expiresAt: now.addingTimeInterval(60)), in: executor)
        #expect(try store.leasedJobIds() == [job.id!], "a holder no host can judge counts as leasing the job")
        var orphan = try store.startRun(job: job)
        orphan.holder = "not a process"
        try store.update(orphan)
        guard case .acquired(let lease, let settled) = try store.acquireLease(jobId: job.id!, holder: Self.elsewhere, duration: 60) else {
            Issue.record("the \(backend) store did not take over a lease whose holder no host can judge"); return
        }
        #expect(lease.holder == Self.elsewhere.description)
        #expect(settled.map(\.id) == [orphan.id] && settled.first?.state == .interrupted)
        let stored = try #require(try store.runs(jobId: job.id!).first)
        #expect(stored.state == .interrupted && stored.error == settled.first?.error && stored.endedAt != nil, "the store holds the settled run")
    }
}
