import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// The rules written once in ``StoreRules`` (who may take a lease, how an orphaned run is
/// settled), checked on their own and then through each backend: both backends run them above
/// their ``StoreTransaction``, so an edge case that two copies could decide differently — a
/// lease whose holder no host can judge — comes out the same.
@Suite(.onTestThreads) struct StoreRulesTests {
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
        let run = RunRecord(id: 7, jobId: 1, trigger: .manual, state: .running, startedAt: Self.now, pid: 42, wordsDone: 0,
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

    @Test func aJobIsRenamedAndRetitledOnlyWhenItsManifestChanges() {
        let job = JobRecord(id: 1, name: "book", manifestPath: "/b.yml", title: "Book", createdAt: Self.now)
        #expect(job.renamed("book", title: "Book") == nil && job.renamed("book", title: nil) == nil)
        let renamed = job.renamed("novel", title: nil)
        #expect(renamed?.name == "novel" && renamed?.title == "Book", "a manifest without a title keeps the job's")
        #expect(job.renamed("book", title: "Novel")?.title == "Novel")
    }

    @Test func aScheduleRowChangesOnlyWhenTheManifestAsksForAnotherScheduleOrWatch() throws {
        let row = ScheduleRecord(jobId: 1, expression: "0 6 * * *", timeZone: nil, watch: false, firstSeen: Self.now, servedThrough: nil,
                                 watchVersion: "v1", watchClaimant: nil, servedVersion: "v1", resumedRunId: nil, failures: 0,
                                 lastFailureAt: nil, lastError: nil, retriedFailures: 0, nextDue: nil, updatedAt: Self.now)
        let later = Self.now.addingTimeInterval(60)
        #expect(row.registering(expression: "0 6 * * *", timeZone: nil, watch: false, now: later) == nil)
        let watched = try #require(row.registering(expression: "0 6 * * *", timeZone: nil, watch: true, now: later))
        #expect(watched.watch && watched.updatedAt == later && watched.watchVersion == "v1")
        #expect(row.reopeningUnservedChange == nil, "a served change is not given back")
        var claimed = row
        claimed.watchVersion = "v2"
        claimed.watchClaimant = try CrashRecoveryStoreTests.deadProcess().description
        let reopened = try #require(claimed.reopeningUnservedChange, "a dead claimant's unserved change is given back")
        #expect(reopened.watchVersion == "v1" && reopened.watchClaimant == nil)
        claimed.watchClaimant = ProcessIdentity.current.description
        #expect(claimed.reopeningUnservedChange == nil, "a live claimant keeps its change")
    }

    @Test func onlyADaemonsRunThatStoppedAndWasNotResumedIsResumable() {
        var run = RunRecord(id: 7, jobId: 1, trigger: .schedule, state: .interrupted, startedAt: Self.now, pid: 42, wordsDone: 0,
                            audioMsDone: 0, holder: nil, resumesRunId: nil, forced: false)
        #expect(run.isResumable(resumed: nil) && run.isResumable(resumed: 6))
        #expect(!run.isResumable(resumed: 7), "resumed once only")
        run.state = .succeeded
        #expect(!run.isResumable(resumed: nil))
        run.state = .cancelled
        run.trigger = .manual
        #expect(!run.isResumable(resumed: nil), "a run started by hand is not a daemon's to resume")
    }

    /// Saves `lease` through the backend's own transaction (no public call stores a holder that
    /// is not a process).
    static func save<Store: StoreExecutor>(_ lease: LeaseRecord, in store: Store) async throws {
        try await store.writing { db in try await db.saveLease(lease) }
    }

    @Test(arguments: Backend.allCases)
    func bothBackendsTakeOverALeaseByTheSameRule(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let executor = try #require(store as? any StoreExecutor, "the \(backend) store runs the shared rules")
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        let now = Date()
        try await Self.save(LeaseRecord(jobId: job.id!, runId: nil, holder: "not a process", acquiredAt: now, heartbeatAt: now,
                                  expiresAt: now.addingTimeInterval(60)), in: executor)
        await #expect(try store.leasedJobIds() == [job.id!], "a holder no host can judge counts as leasing the job")
        var orphan = try await store.startRun(job: job)
        orphan.holder = "not a process"
        try await store.update(orphan)
        guard case .acquired(let lease, let settled) = try await store.acquireLease(jobId: job.id!, holder: Self.elsewhere, duration: 60) else {
            Issue.record("the \(backend) store did not take over a lease whose holder no host can judge"); return
        }
        #expect(lease.holder == Self.elsewhere.description)
        #expect(settled.map(\.id) == [orphan.id] && settled.first?.state == .interrupted)
        let stored = try await #require(try store.runs(jobId: job.id!).first)
        #expect(stored.state == .interrupted && stored.error == settled.first?.error && stored.endedAt != nil, "the store holds the settled run")
    }
}
