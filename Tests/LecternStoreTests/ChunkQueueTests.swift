import Foundation
import Testing
import LecternStore

/// The chunk queue on both backends: concurrent claimers (each its own store object) share the
/// chunks out exactly once; expired leases are claimed again; a duplicate finish changes nothing;
/// priority first, then runs take turns.
@Suite struct ChunkQueueTests {
    /// A job with a running run and `count` published chunks (keys `R-n`, where R is the run id).
    static func publish(_ store: any JobStore, manifest: String = "/b.yml", count: Int, priority: Int = 0) throws -> RunRecord {
        let job = try store.job(manifestPath: manifest, name: manifest, title: nil)
        let run = try store.startRun(job: job)
        let keys = (0..<count).map { "\(run.id!)-\($0)" }
        try store.planChunks(keys.enumerated().map { RunChunkRecord(runId: run.id!, position: $0.offset, key: $0.element,
                                                                    chapterNumber: 1, state: .pending) }, for: run)
        try store.publishChunks(keys.enumerated().map { ChunkTask(runId: run.id!, key: $0.element, request: Data("req \($0.element)".utf8),
                                                                  priority: priority, ordinal: $0.offset) })
        return run
    }

    static func entry(_ task: ChunkTask) -> CachedChunkRecord {
        CachedChunkRecord(key: task.key, bytes: 10, audioFrames: 1, result: Data("r".utf8), renderedByRunId: task.runId, sha256: "s")
    }

    @Test(arguments: Backend.allCases)
    func concurrentWorkersClaimEveryChunkExactlyOnce(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let run = try Self.publish(try fixture.open(), count: 200)
        let claimed = concurrently(6) { i -> [String] in
            let store = try fixture.open()
            var keys: [String] = []
            while let task = try store.claimChunk(worker: "w\(i)", leaseDuration: 60, runId: nil) {
                #expect(task.state == .claimed && task.worker == "w\(i)" && task.attempts == 1)
                #expect(try store.completeChunk(taskId: task.id!, worker: "w\(i)", entry: Self.entry(task)))
                keys.append(task.key)
            }
            return keys
        }
        let all = claimed.compactMap { $0 }.flatMap { $0 }
        #expect(all.count == 200 && Set(all).count == 200)
        if backend == .postgres {  // claimers skip each other's locked rows instead of queueing behind one writer
            #expect(claimed.filter { !($0 ?? []).isEmpty }.count > 1, "the work was shared")
        }
        let store = try fixture.open()
        #expect(try store.chunkTasks(runId: run.id!).allSatisfy { $0.state == .done })
        #expect(try store.runChunks(runId: run.id!).allSatisfy { $0.state == .rendered })
        #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 0, claimed: 0, done: 200))
    }

    @Test(arguments: Backend.allCases)
    func anExpiredLeaseIsClaimedAgainAndADuplicateFinishChangesNothing(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open(), other = try fixture.open()
        let run = try Self.publish(store, count: 1)
        for id in ["old", "new"] {
            try store.registerWorker(WorkerRecord(id: id, host: "h", pid: 1, slots: 1, startedAt: Date(), heartbeatAt: Date()))
        }
        // A lease that has already run out, as a dead or cut-off worker's has.
        let first = try #require(try store.claimChunk(worker: "old", leaseDuration: -1, runId: nil))
        let again = try #require(try other.claimChunk(worker: "new", leaseDuration: 60, runId: nil))
        #expect(again.id == first.id && again.attempts == 2 && again.worker == "new")
        #expect(try !store.renewChunkLease(taskId: first.id!, worker: "old", leaseDuration: 60), "the old holder has lost it")
        #expect(try other.renewChunkLease(taskId: again.id!, worker: "new", leaseDuration: 60))
        #expect(try store.claimChunk(worker: "old", leaseDuration: 60, runId: nil) == nil, "a live lease is not claimed")

        #expect(try other.completeChunk(taskId: again.id!, worker: "new", entry: Self.entry(again)))
        var late = Self.entry(first)
        late.bytes = 99
        #expect(try !store.completeChunk(taskId: first.id!, worker: "old", entry: late), "a duplicate finish")
        #expect(try store.cachedChunks(keys: [first.key])[first.key]?.bytes == 10, "the first finish's entry stays")
        #expect(try store.workers().first { $0.id == "new" }?.chunksDone == 1)
        #expect(try store.workers().first { $0.id == "old" }?.chunksDone == 0)
        #expect(try store.chunkTasks(runId: run.id!).map(\.state) == [.done])
        #expect(try !store.renewChunkLease(taskId: again.id!, worker: "new", leaseDuration: 60), "a done chunk has no lease")
    }

    @Test(arguments: Backend.allCases)
    func priorityComesFirstThenRunsTakeTurns(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        let big = try Self.publish(store, manifest: "/big.yml", count: 3)
        let small = try Self.publish(store, manifest: "/small.yml", count: 2)
        let urgent = try Self.publish(store, manifest: "/urgent.yml", count: 1, priority: 5)
        var order: [String] = []
        while let task = try store.claimChunk(worker: "w", leaseDuration: 60, runId: nil) { order.append(task.key) }
        let (b, s, u) = (big.id!, small.id!, urgent.id!)
        #expect(order == ["\(u)-0", "\(b)-0", "\(s)-0", "\(b)-1", "\(s)-1", "\(b)-2"])
        #expect(try store.queueDepth()[b] == QueueDepth(queued: 0, claimed: 3, done: 0))
    }

    @Test(arguments: Backend.allCases)
    func onlyRunningRunsChunksAreClaimedAndFailuresReleasesAndWithdrawalsAreRecorded(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        var stopped = try Self.publish(store, manifest: "/stopped.yml", count: 2)
        stopped.state = .cancelled
        try store.update(stopped)
        let run = try Self.publish(store, count: 3)
        #expect(try store.queueDepth() == [run.id!: QueueDepth(queued: 3, claimed: 0, done: 0)], "only running runs are counted")
        #expect(try store.claimChunk(worker: "w", leaseDuration: 60, runId: stopped.id) == nil)
        let first = try #require(try store.claimChunk(worker: "w", leaseDuration: 60, runId: run.id))
        #expect(first.runId == run.id && first.request == Data("req \(first.key)".utf8))
        try store.failChunk(taskId: first.id!, worker: "someone else", error: "not theirs")
        #expect(try store.chunkTasks(runId: run.id!).first?.state == .claimed)
        try store.failChunk(taskId: first.id!, worker: "w", error: "espeak-ng failed")
        let failed = try #require(try store.chunkTasks(runId: run.id!).first)
        #expect(failed.state == .failed && failed.error == "espeak-ng failed" && failed.leaseExpiresAt == nil)

        let second = try #require(try store.claimChunk(worker: "w", leaseDuration: 60, runId: nil))
        #expect(second.runId == run.id && second.ordinal == 1)
        try store.releaseChunk(taskId: second.id!, worker: "w")
        let released = try #require(try store.chunkTasks(runId: run.id!).first { $0.id == second.id })
        #expect(released.state == .queued && released.worker == nil)
        #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 2, claimed: 0, done: 1))
        // A waiting run reads what finished, once: it removes what it has placed.
        #expect(try store.finishedChunks(runId: run.id!).map(\.id) == [first.id])
        try store.removeChunks(ids: [first.id!])
        #expect(try store.finishedChunks(runId: run.id!).isEmpty)
        #expect(try store.queueDepth()[run.id!] == QueueDepth(queued: 2, claimed: 0, done: 0))
        try store.withdrawChunks(runId: run.id!)
        #expect(try store.chunkTasks(runId: run.id!).isEmpty)
        #expect(try store.claimChunk(worker: "w", leaseDuration: 60, runId: nil) == nil)
    }

    @Test(arguments: Backend.allCases)
    func workersRegisterHeartbeatAndLeave(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        let started = Date(timeIntervalSince1970: 1_700_000_000.25)
        let worker = WorkerRecord(id: "h2:7:1", host: "h2", pid: 7, slots: 2, startedAt: started, heartbeatAt: started, chunk: nil, chunksDone: 0)
        try store.registerWorker(worker)
        try store.registerWorker(WorkerRecord(id: "h1:9:1", host: "h1", pid: 9, slots: 1, startedAt: started, heartbeatAt: started))
        #expect(try store.workers().map(\.host) == ["h1", "h2"])
        #expect(try store.workers().last == worker)
        try store.workerHeartbeat(id: "h2:7:1", chunk: "abc")
        let beat = try #require(try store.workers().last)
        #expect(beat.chunk == "abc" && beat.heartbeatAt > started)
        try store.registerWorker(worker)  // restarted under the same id
        #expect(try store.workers().last?.chunk == nil)
        try store.removeWorker(id: "h2:7:1")
        #expect(try store.workers().map(\.id) == ["h1:9:1"])
    }
}

/// Bounded retries (#22), on both backends: a chunk fails on its last allowed attempt with its
/// last error, whichever workers made the attempts; a lease that lapses on the last attempt fails
/// it too; a worker stopping does not use up an attempt.
@Suite struct ChunkAttemptTests {
    static func publish(_ store: any JobStore, maxAttempts: Int) throws -> RunRecord {
        let job = try store.job(manifestPath: "/b.yml", name: "b", title: nil)
        let run = try store.startRun(job: job)
        try store.planChunks([RunChunkRecord(runId: run.id!, position: 0, key: "k0", chapterNumber: 1, state: .pending)], for: run)
        try store.publishChunks([ChunkTask(runId: run.id!, key: "k0", request: Data("req".utf8), priority: 0, ordinal: 0,
                                           maxAttempts: maxAttempts)])
        return run
    }

    @Test(arguments: Backend.allCases)
    func aChunkFailsOnItsLastAttemptWithItsLastError(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open(), other = try fixture.open()
        let run = try Self.publish(store, maxAttempts: 2)
        // A worker stopping gives its claim back: that is not an attempt.
        let stopped = try #require(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil))
        try store.releaseChunk(taskId: stopped.id!, worker: "a")
        let first = try #require(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil))
        #expect(first.attempts == 1 && first.maxAttempts == 2)
        #expect(try other.retryChunk(taskId: first.id!, worker: "b", error: "not b's") == nil, "only the holder records an attempt")
        #expect(try store.retryChunk(taskId: first.id!, worker: "a", error: "cannot write /s/x: No space left on device") == .queued)
        #expect(try store.queueDepth()[run.id!]?.lastError == "cannot write /s/x: No space left on device", "status shows the last error")
        #expect(try store.finishedChunks(runId: run.id!).isEmpty)
        // The second attempt, on another worker, is the last.
        let second = try #require(try other.claimChunk(worker: "b", leaseDuration: 60, runId: nil))
        #expect(second.attempts == 2 && second.error == "cannot write /s/x: No space left on device")
        #expect(try other.retryChunk(taskId: second.id!, worker: "b", error: "cannot write /s/y: Input/output error") == .failed)
        let failed = try #require(try store.finishedChunks(runId: run.id!).first)
        #expect(failed.state == .failed)
        #expect(failed.error == "cannot write /s/y: Input/output error (failed 2 times, the attempt limit)", "\(failed.error ?? "")")
        #expect(try store.claimChunk(worker: "a", leaseDuration: 60, runId: nil) == nil, "a failed chunk is not claimed again")
    }

    @Test(arguments: Backend.allCases)
    func aLeaseThatLapsesOnTheLastAttemptFailsTheChunk(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        let run = try Self.publish(store, maxAttempts: 1)
        // Claimed under a lease already run out, as a worker killed on its last attempt leaves it.
        let lapsed = try #require(try store.claimChunk(worker: "dead", leaseDuration: -1, runId: nil))
        #expect(lapsed.attempts == 1)
        #expect(try store.failExhaustedChunks() == 1)
        #expect(try store.failExhaustedChunks() == 0, "once")
        let failed = try #require(try store.finishedChunks(runId: run.id!).first)
        #expect(failed.state == .failed && failed.error?.contains("the worker dead stopped renewing its lease on attempt 1 of 1") == true,
                "\(failed.error ?? "")")
        // A claim does the same on its own: a lapsed lease on the last attempt is never claimed again.
        let run2 = try Self.publish(store, maxAttempts: 1)
        _ = try #require(try store.claimChunk(worker: "dead", leaseDuration: -1, runId: run2.id))
        #expect(try store.claimChunk(worker: "live", leaseDuration: 60, runId: run2.id) == nil)
        #expect(try store.chunkTasks(runId: run2.id!).map(\.state) == [.failed])
    }

    @Test(arguments: Backend.allCases)
    func aWorkerSilentForThreeLeasePeriodsIsLost(_ backend: Backend) throws {
        let fixture = try backend.fresh()
        let store = try fixture.open()
        let now = Date()
        try store.registerWorker(WorkerRecord(id: "h:1:1", host: "h", pid: 1, slots: 1, startedAt: now, heartbeatAt: now.addingTimeInterval(-10),
                                              leaseSeconds: 3))
        let worker = try #require(try store.workers().first)
        #expect(worker.leaseSeconds == 3 && worker.silenceLimit == 9)
        #expect(worker.isLost(at: now) && !worker.isLost(at: now.addingTimeInterval(-2)))
        #expect(try store.workerHeartbeat(id: "h:1:1", chunk: nil))
        #expect(try !store.workers().first!.isLost(at: Date()))
        try store.removeWorker(id: "h:1:1")
        #expect(try !store.workerHeartbeat(id: "h:1:1", chunk: nil), "a removed worker learns it must register again")
    }
}
