import Foundation
import Testing
import LecternTestSupport

/// `lectern serve --max-concurrent 1` killed (SIGKILL) with one run rendering and another queued,
/// then started again on the same store: the dead run is `interrupted` at once (before the new
/// process answers a request), the service resumes it from its chunks, and the queued run, which
/// lives in the store, starts after it, in order — with SQLite and with PostgreSQL. A resumed run
/// takes the chunks the killed one had rendered from the cache.
///
/// The runs render nothing: with `--workers 0` and no `lectern worker` on the shared chunk
/// folder, a started run holds its slot until it is cancelled, so no timing decides the order.
@Suite(.serialized) struct ServeRestartTests {
    @Test func aKilledServeLeavesItsRunInterruptedAndResumedAndItsQueueInOrderSQLite() throws {
        let ws = try Workspace("serve-restart")
        let chunks = ws.url.appendingPathComponent("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        let resumed = try Self.killAndRestart(ws, store: nil, chunks: ["--chunks", chunks.path])
        // The new run continues the one that was cut short (its chunks come from the cache).
        let runs = try StoreProbe(ws.db).runs()
        #expect(runs.first { $0.id == Int64(resumed.new) }?.resumesRunId == Int64(resumed.old), "\(runs)")
    }

    @Test func aKilledServeLeavesItsRunInterruptedAndResumedAndItsQueueInOrderPostgres() throws {
        let ws = try Workspace("serve-restart-postgres")
        let shared = try DistributedRenderTests.Shared(ws, server: try PostgresTestServer.shared())
        _ = try Self.killAndRestart(ws, store: shared.arguments, chunks: [])
    }

    @Test func aRunResumedAfterAKillReusesTheChunksItHadRendered() throws {
        let ws = try Workspace("serve-restart-chunks")
        let serve = try ServeProcess(ws, arguments: ["--workers", "1"])
        let book = try ws.write("long.txt", DaemonRecoveryTests.book(chapters: 6))
        let created = try serve.createJob(["document=@\(book.path)", "title=Long"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)
        #expect(try serve.request("/api/v1/jobs/\(id)/runs", ["-X", "POST"]).status == 202)
        var killedRun: [String: Any] = [:]
        #expect(try eventually(timeout: 60, "some chunks rendered") {
            killedRun = (try serve.request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any]) ?? [:]
            return (killedRun["chunksRendered"] as? Int ?? 0) >= 2
        }, "\(serve.logText)")
        kill(serve.process.processIdentifier, SIGKILL)
        serve.process.waitUntilExit()
        let killedId = try #require(killedRun["id"] as? Int)
        let total = try #require(killedRun["chunkCount"] as? Int)
        try #require((killedRun["chunksRendered"] as? Int ?? 0) < total, "the run ended before it was killed: \(killedRun)")

        let again = try ServeProcess(ws, arguments: ["--workers", "1"], name: "again")
        defer { _ = again.terminate() }
        var resumed: [String: Any] = [:]
        #expect(try eventually(timeout: 60, "the run resumed and planned") {
            resumed = (try again.request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any]) ?? [:]
            return resumed["id"] as? Int != killedId && resumed["chunkCount"] != nil
        }, "\(again.logText)")
        // At least what the killed run had reported rendered comes from the cache.
        #expect((resumed["chunksReused"] as? Int ?? 0) >= killedRun["chunksRendered"] as? Int ?? 0, "\(killedRun)\n\(resumed)")
        #expect(resumed["chunkCount"] as? Int == total)
        #expect(try again.request("/api/v1/runs/\(killedId)").object["state"] as? String == "interrupted")
        #expect(try StoreProbe(ws.db).runs().first { $0.id == Int64(resumed["id"] as? Int ?? 0) }?.resumesRunId == Int64(killedId))
        _ = try again.request("/api/v1/jobs/\(id)/cancel", ["-X", "POST"])
    }

    /// Returns the killed run's id and the id of the run that resumed it.
    static func killAndRestart(_ ws: Workspace, store: [String]?, chunks: [String]) throws -> (old: Int, new: Int) {
        let arguments = ["--workers", "0", "--max-concurrent", "1"] + chunks
        let serve = try ServeProcess(ws, store: store, arguments: arguments)
        var ids: [Int] = []
        for name in ["first", "second"] {
            let book = try ws.write("\(name).txt", "The \(name) book.\n\nIt has one short paragraph to read.\n")
            let created = try serve.createJob(["document=@\(book.path)", "title=\(name)"])
            try #require(created.status == 201, "\(created.text)")
            ids.append(try #require(created.object["id"] as? Int))
        }
        for id in ids { #expect(try serve.request("/api/v1/jobs/\(id)/runs", ["-X", "POST"]).status == 202) }
        func latest(_ server: ServeProcess, _ id: Int) throws -> [String: Any]? {
            try server.request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any]
        }
        #expect(try eventually(timeout: 30, "the first run to start") { try latest(serve, ids[0])?["state"] as? String == "running" },
                "\(serve.logText)")
        let killed = try #require(try latest(serve, ids[0])?["id"] as? Int)
        #expect(try serve.request("/api/v1/jobs/\(ids[1])").object["queued"] as? Bool == true)

        kill(serve.process.processIdentifier, SIGKILL)
        serve.process.waitUntilExit()

        let again = try ServeProcess(ws, store: store, arguments: arguments, name: "again")
        defer { _ = again.terminate() }
        // Settled before the new process answers anything: no waiting for a lease to expire.
        let old = try again.request("/api/v1/runs/\(killed)").object
        #expect(old["state"] as? String == "interrupted", "\(old)")

        // Resumed by the new process, in the slot; the queued job still waits behind it.
        #expect(try eventually(timeout: 30, "the killed run resumed") {
            let run = try latest(again, ids[0])
            return run?["state"] as? String == "running" && run?["id"] as? Int != killed
        }, "\(again.logText)")
        let resumed = try #require(try latest(again, ids[0])?["id"] as? Int)
        #expect(try again.request("/api/v1/runs/\(killed)").object["state"] as? String == "interrupted")
        #expect(try again.request("/api/v1/jobs/\(ids[1])").object["queued"] as? Bool == true, "the queued run outlived the process")
        #expect(try latest(again, ids[1]) == nil, "the queued job has not started")

        // The slot freed, the queued run starts.
        #expect(try again.request("/api/v1/jobs/\(ids[0])/cancel", ["-X", "POST"]).status == 202)
        #expect(try eventually(timeout: 30, "the queued run to start") { try latest(again, ids[1])?["state"] as? String == "running" },
                "\(again.logText)")
        #expect(try latest(again, ids[0])?["state"] as? String == "cancelled")
        #expect(again.terminate().status == 0, "\(again.logText)")
        return (killed, resumed)
    }
}
