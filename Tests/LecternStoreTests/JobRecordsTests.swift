import Foundation
import Testing
import LecternTestSupport
import LecternStore

/// Jobs, runs and chapters keep every field, on both backends (dates to the millisecond).
@Suite(.onTestThreads) struct JobRecordsTests {
    static func ms(_ date: Date?) -> Int64? { date?.ms }

    /// A run with every field set to something other than its default.
    static func filled(_ run: RunRecord) -> RunRecord {
        var run = run
        run.state = .succeeded
        run.startedAt = Date(timeIntervalSince1970: 1_700_000_000.123)
        run.endedAt = Date(timeIntervalSince1970: 1_700_000_100.456)
        run.error = "a warning"
        run.pid = 4242
        run.chapterCount = 3; run.paragraphCount = 40; run.wordCount = 5000; run.skippedCount = 2
        run.wordsDone = 4999; run.audioMsDone = 1_234_567; run.durationMs = 1_234_568; run.sampleCount = 27_000_000_000
        run.mp3Path = "/out/book.mp3"; run.timingsPath = "/out/book.json"; run.holder = "elsewhere:1:2"
        run.resumesRunId = 77; run.forced = true; run.chunkCount = 120; run.chunksRendered = 100; run.chunksReused = 20
        run.bookHash = "hash"; run.outputStamp = "stamp"
        return run
    }

    /// `run` with its dates as the store keeps them (milliseconds), to compare every field at once.
    static func rounded(_ run: RunRecord) -> RunRecord {
        var run = run
        run.startedAt = Date(timeIntervalSince1970: Double(run.startedAt.ms) / 1000)
        run.endedAt = run.endedAt.map { Date(timeIntervalSince1970: Double($0.ms) / 1000) }
        return run
    }

    @Test(arguments: Backend.allCases)
    func jobsRunsAndChaptersKeepEveryField(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        let store = try await fixture.open()
        let job = try await store.job(manifestPath: "/books/a.yml", name: "a", title: "A Book")
        #expect(job.id != nil)
        await #expect(try store.job(manifestPath: "/books/a.yml", name: "a", title: nil).title == "A Book", "no title keeps the title")
        let renamed = try await store.job(manifestPath: "/books/a.yml", name: "a2", title: "Another")
        #expect(renamed.id == job.id && renamed.name == "a2" && renamed.title == "Another")
        await #expect(try store.job(manifestPath: "/books/b.yml", name: "B", title: nil).id == job.id! + 1, "finding a job uses up no id")
        _ = try await store.job(manifestPath: "/books/c.yml", name: "b", title: nil)
        await #expect(try store.jobs().map(\.name) == ["B", "a2", "b"], "byte order, as SQLite sorts")

        let started = try await store.startRun(job: renamed, trigger: .watch, resumes: 5, forced: true)
        #expect(started.state == .running && started.trigger == .watch && started.resumesRunId == 5 && started.forced)
        #expect(started.pid == getpid() && started.holder == ProcessIdentity.current.description)
        let run = Self.filled(started)
        let chapters = (1...2).map { n in
            ChapterRecord(runId: run.id!, number: n, title: "Chapter \(n)", contentHash: "c\(n)", startMs: n * 1000, durationMs: 999,
                          sampleCount: 44_100, startSample: n * 44_100, textHash: "t\(n)", voiceHash: "v", pauseHash: "p",
                          settingsHash: "s", chunkCount: 7, chunksRendered: 3, change: n == 1 ? "unchanged" : nil)
        }
        try await store.finish(run, chapters: chapters)
        let other = try await fixture.open()  // what another process reads
        let stored = try await #require(try other.runs(jobId: job.id!).first)
        #expect(Self.rounded(stored) == Self.rounded(run))
        await #expect(try other.chapters(runId: run.id!).map { var c = $0; c.id = nil; return c } == chapters)
        await #expect(try other.chapters(runId: run.id!).allSatisfy { $0.id != nil })

        let second = try await store.startRun(job: renamed, trigger: .manual, resumes: nil, forced: false)
        await #expect(try other.runs(jobId: job.id!).map(\.id) == [second.id, run.id], "newest first")
        await #expect(try other.runs(jobId: job.id!, limit: 1).map(\.id) == [second.id])
        await #expect(try other.latestRun(jobId: job.id!, states: [.succeeded])?.id == run.id)
        await #expect(try other.latestRun(jobId: job.id!, states: [.running, .succeeded])?.id == second.id)
        await #expect(try other.latestRun(jobId: job.id!, states: [.failed]) == nil)

        try await store.setManifestError(jobId: job.id!, "bad yaml")
        await #expect(try other.jobs().first { $0.id == job.id }?.manifestError == "bad yaml")
        try await store.recordManifestError(manifestPath: "/books/new.yml", name: "new", error: "no such file")
        await #expect(try other.jobs().first { $0.manifestPath == "/books/new.yml" }?.manifestError == "no such file")
        try await store.recordManifestError(manifestPath: "/books/new.yml", name: "new", error: nil)
        await #expect(try other.jobs().first { $0.manifestPath == "/books/new.yml" }?.manifestError == nil)
        try await store.recordManifestError(manifestPath: "/books/none.yml", name: "none", error: nil)
        await #expect(try other.jobs().count == 4, "clearing the error of an unknown manifest creates no job")
        await #expect(try other.integrityCheck() == "ok")
    }

    @Test(arguments: Backend.allCases)
    func manyProcessesCreatingTheSameJobGetOneJob(_ backend: Backend) async throws {
        let fixture = try backend.fresh()
        _ = try await fixture.open()
        let ids = await concurrently(6) { _ in try await fixture.open().job(manifestPath: "/books/same.yml", name: "same", title: nil).id }
        #expect(Set(ids.compactMap { $0 }).count == 1)
        await #expect(try fixture.open().jobs().count == 1)
    }
}
