import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// The chunk queue on both backends: concurrent claimers (each its own store object) share the
/// chunks out exactly once; expired leases are claimed again; a duplicate finish changes nothing;
/// priority first, then runs take turns.
@Suite(.onTestThreads) struct ChunkQueueTests {
    /// A job with a running run and `count` published chunks (keys `R-n`, where R is the run id).
    static func publish(_ store: any JobStore, manifest: String = "/b.yml", count: Int, priority: Int = 0) async throws -> RunRecord {
        let job = try await store.job(manifestPath: manifest, name: manifest, title: nil)
        let run = try await store.startRun(job: job)
        let keys = (0..<count).map { "\(run.id!)-\($0)" }
        try await store.planChunks(keys.enumerated().map { RunChunkRecord(runId: run.id!, position: $0.offset, key: $0.element,
                                                                    chapterNumber: 1, state: .pending) }, for: run)
        try await store.publishChunks(keys.enumerated().map { ChunkTask(runId: run.id!, key: $0.element, request: Data("req \($0.element)".utf8),
                                                                  priority: priority, ordinal: $0.offset) })
        return run
    }

    static func entry(_ task: ChunkTask) -> CachedChunkRecord {
        CachedChunkRecord(key: task.key, bytes: 10, audioFrames: 1, result: Data("r".utf8), renderedByRunId: task.runId, sha256: "s")
    }

    @Test(arguments: Backend.allCases)
    func concurrentWorkersClaimEveryChunkExactlyOnce(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let run = try await Self.publish(try fixture.open(), count: 200)
        let claimed = await concurrently(6) { i -> [String] in
            let store = try await fixture.open()
            var keys: [String] = []
            while let task = try await store.claimChunk(worker: "w\(i)", leaseDuration: 60, runId: nil) {
                #expect(task.state == .claimed && task.worker == "w\(i)" && task.attempts == 1)
                await #expect(try store.completeChunk(taskId: task.id!, worker: "w\(i)", entry: Self.entry(task)))
                keys.append(task.key)
            }
            return keys
        }
        let all = claimed.compactMap { $0 }.flatMap { $0 }
        #expect(all.count == 200 && Set(all).count == 200)
        if backend == .postgres {  // claimers skip each other's locked rows instead of queueing behind one writer
            #expect(claimed.filter { !($0 ?? []).isEmpty }.count > 1, "the work was shared")
        }
        let store = try await fixture.open()
        await #expect(try store.chunkTasks(runId: run.id!).allSatisfy { $0.state == .done })
        await #expect(try store.runChunks(runId: run.id!).allSatisfy { $0.state == .rendered })
        await #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 0, claimed: 0, done: 200))
    }

    @Test(arguments: Backend.allCases)
    func anExpiredLeaseIsClaimedAgainAndADuplicateFinishChangesNothing(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open(), other = try await fixture.open()
        let run = try await Self.publish(store, count: 1)
        for id in ["old", "new"] {
            try await store.registerWorker(WorkerRecord(id: id, host: "h", pid: 1, slots: 1, startedAt: Date(), heartbeatAt: Date()))
        }
        // A lease that has already run out, as a dead or cut-off worker's has.
        let first = try await #require(try store.claimChunk(worker: "old", leaseDuration: -1, runId: nil))
        let again = try await #require(try other.claimChunk(worker: "new", leaseDuration: 60, runId: nil))
        #expect(again.id == first.id && again.attempts == 2 && again.worker == "new")
        await #expect(try !store.renewChunkLease(taskId: first.id!, worker: "old", leaseDuration: 60), "the old holder has lost it")
        await #expect(try other.renewChunkLease(taskId: again.id!, worker: "new", leaseDuration: 60))
        await #expect(try store.claimChunk(worker: "old", leaseDuration: 60, runId: nil) == nil, "a live lease is not claimed")

        await #expect(try other.completeChunk(taskId: again.id!, worker: "new", entry: Self.entry(again)))
        var late = Self.entry(first)
        late.bytes = 99
        await #expect(try !store.completeChunk(taskId: first.id!, worker: "old", entry: late), "a duplicate finish")
        await #expect(try store.cachedChunks(keys: [first.key])[first.key]?.bytes == 10, "the first finish's entry stays")
        await #expect(try store.workers().first { $0.id == "new" }?.chunksDone == 1)
        await #expect(try store.workers().first { $0.id == "old" }?.chunksDone == 0)
        await #expect(try store.chunkTasks(runId: run.id!).map(\.state) == [.done])
        await #expect(try !store.renewChunkLease(taskId: again.id!, worker: "new", leaseDuration: 60), "a done chunk has no lease")
    }

    @Test(arguments: Backend.allCases)
    func priorityComesFirstThenRunsTakeTurns(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let big = try await Self.publish(store, manifest: "/big.yml", count: 3)
        let small = try await Self.publish(store, manifest: "/small.yml", count: 2)
        let urgent = try await Self.publish(store, manifest: "/urgent.yml", count: 1, priority: 5)
        var order: [String] = []
        while let task = try await store.claimChunk(worker: "w", leaseDuration: 60, runId: nil) { order.append(task.key) }
        let (b, s, u) = (big.id!, small.id!, urgent.id!)
        #expect(order == ["\(u)-0", "\(b)-0", "\(s)-0", "\(b)-1", "\(s)-1", "\(b)-2"])
        await #expect(try store.queueDepth()[b] == QueueDepth(queued: 0, claimed: 3, done: 0))
    }

    @Test(arguments: Backend.allCases)
    func onlyRunningRunsChunksAreClaimedAndFailuresReleasesAndWithdrawalsAreRecorded(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        var stopped = try await Self.publish(store, manifest: "/stopped.yml", count: 2)
        stopped.state = .cancelled
        try await store.update(stopped)
        let run = try await Self.publish(store, count: 3)
        await #expect(try store.queueDepth() == [run.id!: QueueDepth(queued: 3, claimed: 0, done: 0)], "only running runs are counted")
        await #expect(try store.claimChunk(worker: "w", leaseDuration: 60, runId: stopped.id) == nil)
        let first = try await #require(try store.claimChunk(worker: "w", leaseDuration: 60, runId: run.id))
        #expect(first.runId == run.id && first.request == Data("req \(first.key)".utf8))
        try await store.failChunk(taskId: first.id!, worker: "someone else", error: "not theirs")
        await #expect(try store.chunkTasks(runId: run.id!).first?.state == .claimed)
        try await store.failChunk(taskId: first.id!, worker: "w", error: "espeak-ng failed")
        let failed = try await #require(try store.chunkTasks(runId: run.id!).first)
        #expect(failed.state == .failed && failed.error == "espeak-ng failed" && failed.leaseExpiresAt == nil)

        let second = try await #require(try store.claimChunk(worker: "w", leaseDuration: 60, runId: nil))
        #expect(second.runId == run.id && second.ordinal == 1)
        try await store.releaseChunk(taskId: second.id!, worker: "w")
        let released = try await #require(try store.chunkTasks(runId: run.id!).first { $0.id == second.id })
        #expect(released.state == .queued && released.worker == nil)
        await #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 2, claimed: 0, done: 1))
        // A waiting run reads what finished, once: it removes what it has placed.
        await #expect(try store.finishedChunks(runId: run.id!).map(\.id) == [first.id])
        try await store.removeChunks(ids: [first.id!])
        await #expect(try store.finishedChunks(runId: run.id!).isEmpty)
        await #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 2, claimed: 0, done: 0))
        try await store.withdrawChunks(runId: run.id!)
        await #expect(try store.chunkTasks(runId: run.id!).isEmpty)
        await #expect(try store.claimChunk(worker: "w", leaseDuration: 60, runId: nil) == nil)
    }

    @Test(arguments: Backend.allCases)
    func workersRegisterHeartbeatAndLeave(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let started = Date(timeIntervalSince1970: 1_700_000_000.25)
        let worker = WorkerRecord(id: "h2:7:1", host: "h2", pid: 7, slots: 2, startedAt: started, heartbeatAt: started, chunk: nil, chunksDone: 0)
        try await store.registerWorker(worker)
        try await store.registerWorker(WorkerRecord(id: "h1:9:1", host: "h1", pid: 9, slots: 1, startedAt: started, heartbeatAt: started))
        await #expect(try store.workers().map(\.host) == ["h1", "h2"])
        await #expect(try store.workers().last == worker)
        try await store.workerHeartbeat(id: "h2:7:1", chunk: "abc")
        let beat = try await #require(try store.workers().last)
        #expect(beat.chunk == "abc" && beat.heartbeatAt > started)
        try await store.registerWorker(worker)  // restarted under the same id
        await #expect(try store.workers().last?.chunk == nil)
        try await store.removeWorker(id: "h2:7:1")
        await #expect(try store.workers().map(\.id) == ["h1:9:1"])
    }
}

/// Bounded retries (#22), on both backends: a chunk fails on its last allowed attempt with its
/// last error, whichever workers made the attempts; a lease that lapses on the last attempt fails
/// it too; a worker stopping does not use up an attempt.
@Suite(.onTestThreads) struct ChunkAttemptTests {
    static func publish(_ store: any JobStore, maxAttempts: Int) async throws -> RunRecord {
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        let run = try await store.startRun(job: job)
        try await store.planChunks([RunChunkRecord(runId: run.id!, position: 0, key: "k0", chapterNumber: 1, state: .pending)], for: run)
        try await store.publishChunks([ChunkTask(runId: run.id!, key: "k0", request: Data("req".utf8), priority: 0, ordinal: 0,
                                           maxAttempts: maxAttempts)])
        return run
    }

    @Test(arguments: Backend.allCases)
    func aChunkFailsOnItsLastAttemptWithItsLastError(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open(), other = try await fixture.open()
        let run = try await Self.publish(store, maxAttempts: 2)
        // A worker stopping gives its claim back: that is not an attempt.
        let stopped = try await #require(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil))
        try await store.releaseChunk(taskId: stopped.id!, worker: "a")
        let first = try await #require(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil))
        #expect(first.attempts == 1 && first.maxAttempts == 2)
        await #expect(try other.retryChunk(taskId: first.id!, worker: "b", error: "not b's") == nil, "only the holder records an attempt")
        await #expect(try store.retryChunk(taskId: first.id!, worker: "a", error: "cannot write /s/x: No space left on device") == .queued)
        await #expect(try store.queueDepth()[run.id!]?.lastError == "cannot write /s/x: No space left on device", "status shows the last error")
        await #expect(try store.finishedChunks(runId: run.id!).isEmpty)
        // The second attempt, on another worker, is the last.
        let second = try await #require(try other.claimChunk(worker: "b", leaseDuration: 60, runId: nil))
        #expect(second.attempts == 2 && second.error == "cannot write /s/x: No space left on device")
        await #expect(try other.retryChunk(taskId: second.id!, worker: "b", error: "cannot write /s/y: Input/output error") == .failed)
        let failed = try await #require(try store.finishedChunks(runId: run.id!).first)
        #expect(failed.state == .failed)
        #expect(failed.error == "cannot write /s/y: Input/output error (failed 2 times, the attempt limit)", "\(failed.error ?? "")")
        await #expect(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil) == nil, "a failed chunk is not claimed again")
    }

    @Test(arguments: Backend.allCases)
    func aLeaseThatLapsesOnTheLastAttemptFailsTheChunk(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let run = try await Self.publish(store, maxAttempts: 1)
        // Claimed under a lease already run out, as a worker killed on its last attempt leaves it.
        let lapsed = try await #require(try store.claimChunk(worker: "dead", leaseDuration: -1, runId: nil))
        #expect(lapsed.attempts == 1)
        await #expect(try store.failExhaustedChunks() == 1)
        await #expect(try store.failExhaustedChunks() == 0, "once")
        let failed = try await #require(try store.finishedChunks(runId: run.id!).first)
        #expect(failed.state == .failed && failed.error?.contains("the worker dead stopped renewing its lease on attempt 1 of 1") == true,
                "\(failed.error ?? "")")
        // A claim does the same on its own: a lapsed lease on the last attempt is never claimed again.
        let run2 = try await Self.publish(store, maxAttempts: 1)
        _ = try await #require(try store.claimChunk(worker: "dead", leaseDuration: -1, runId: run2.id))
        await #expect(try store.claimChunk(worker: "live", leaseDuration: 60, runId: run2.id) == nil)
        await #expect(try store.chunkTasks(runId: run2.id!).map(\.state) == [.failed])
    }

    @Test(arguments: Backend.allCases)
    func aWorkerSilentForThreeLeasePeriodsIsLost(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let now = Date()
        try await store.registerWorker(WorkerRecord(id: "h:1:1", host: "h", pid: 1, slots: 1, startedAt: now, heartbeatAt: now.addingTimeInterval(-10),
                                              leaseSeconds: 3))
        let worker = try await #require(try store.workers().first)
        #expect(worker.leaseSeconds == 3 && worker.silenceLimit == 9)
        #expect(worker.isLost(at: now) && !worker.isLost(at: now.addingTimeInterval(-2)))
        await #expect(try store.workerHeartbeat(id: "h:1:1", chunk: nil))
        await #expect(try !store.workers().first!.isLost(at: Date()))
        try await store.removeWorker(id: "h:1:1")
        await #expect(try !store.workerHeartbeat(id: "h:1:1", chunk: nil), "a removed worker learns it must register again")
    }
}
