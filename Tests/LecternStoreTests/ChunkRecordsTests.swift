import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// The chunk records: a run's planned chunks, cache entries (asked for in batches larger than
/// SQLite's 500), the keys jobs still need, and forgetting entries — on both backends.
@Suite(.onTestThreads) struct ChunkRecordsTests {
    static func entry(_ key: String, runId: Int64?) -> CachedChunkRecord {
        CachedChunkRecord(key: key, bytes: key.count * 100, audioFrames: 38, result: Data("{\"key\":\"\(key)\"}".utf8),
                          createdAt: Date(timeIntervalSince1970: 1_700_000_000.5), renderedByRunId: runId, sha256: "sha-\(key)")
    }

    @Test(arguments: Backend.allCases)
    func plannedChunksAndCacheEntriesRoundTrip(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        var run = try await store.startRun(job: job)
        let keys = (0..<620).map { "key\($0)" }
        let chunks = keys.enumerated().map { RunChunkRecord(runId: run.id!, position: $0.offset, key: $0.element,
                                                            chapterNumber: $0.offset / 100, state: .pending) }
        run.chunkCount = chunks.count
        try await store.planChunks(chunks, for: run)
        await #expect(try store.runChunks(runId: run.id!) == chunks)
        await #expect(try store.runs(jobId: job.id!).first?.chunkCount == 620, "planning saves the run")
        try await store.planChunks(Array(chunks.prefix(610)), for: run)
        await #expect(try store.runChunks(runId: run.id!).count == 610, "planning again replaces the plan")

        for (position, key) in keys.prefix(610).enumerated() { try await store.recordRendered(Self.entry(key, runId: run.id), runId: run.id!, position: position) }
        let found = try await store.cachedChunks(keys: Set(keys))
        #expect(found.count == 610)
        #expect(found["key7"] == Self.entry("key7", runId: run.id))
        await #expect(try store.runChunks(runId: run.id!).allSatisfy { $0.state == .rendered })
        await #expect(try store.allCachedChunks().count == 610)
        await #expect(try store.cachedChunks(keys: []).isEmpty)

        try await store.forgetChunk(key: "key0")
        try await store.forgetChunks(keys: (1..<600).map { "key\($0)" })
        await #expect(Set(try store.allCachedChunks().map(\.key)) == Set((600..<610).map { "key\($0)" }))
        await #expect(try store.allCachedChunks().first { $0.key == "key600" }?.bytes == 600)
    }

    @Test(arguments: Backend.allCases)
    func theKeysJobsStillNeedAreTheNewestSuccessAndEverythingAfter(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/b.yml", name: "b", title: nil)
        func run(_ state: RunState, _ keys: [String]) async throws {
            var run = try await store.startRun(job: job)
            run.state = state
            try await store.planChunks(keys.enumerated().map { RunChunkRecord(runId: run.id!, position: $0.offset, key: $0.element,
                                                                        chapterNumber: 1, state: .pending) }, for: run)
        }
        try await run(.succeeded, ["old"])
        try await run(.succeeded, ["kept", "shared"])
        try await run(.failed, ["failed"])
        try await run(.running, ["shared", "running"])
        await #expect(try store.referencedChunkKeys() == ["kept", "shared", "failed", "running"])
    }
}
