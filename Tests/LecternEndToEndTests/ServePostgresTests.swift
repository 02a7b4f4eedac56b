import Foundation
import Testing
import LecternStore
import LecternPostgres
import LecternTestSupport

/// Two `lectern serve` processes behind one PostgreSQL store (a private server started for the
/// test) and one data folder, rendering nothing themselves: `lectern worker`s render for both.
/// A job created through one is seen, run and cancelled through the other, and its progress and
/// outputs are the same through either.
@Suite(.serialized) struct ServePostgresTests {
    /// `lectern token` renders nothing: on a PostgreSQL store it needs no chunk folder.
    @Test func tokensOnAPostgreSQLStoreNeedNoChunkFolder() throws {
        let ws = try Workspace("token-postgres")
        let store = ["--store", try PostgresTestServer.shared().createDatabase().description]
        let added = try Tool.run(Tool.lectern, ["token", "add", "bob-laptop", "--owner", "bob"] + store, in: ws.url)
        #expect(added.status == 0 && added.stdout.hasPrefix("lct_"), "token add: \(added.stderr)")
        let listed = try Tool.run(Tool.lectern, ["token", "list"] + store, in: ws.url)
        #expect(listed.status == 0 && listed.stdout.contains("bob-laptop  owner bob"), "token list: \(listed.stdout) \(listed.stderr)")
        let revoked = try Tool.run(Tool.lectern, ["token", "revoke", "bob-laptop"] + store, in: ws.url)
        #expect(revoked.status == 0, "token revoke: \(revoked.stderr)")
        // A command that works on the chunks still asks for one.
        let collected = try Tool.run(Tool.lectern, ["gc", "--dry-run"] + store, in: ws.url)
        #expect(collected.status != 0 && collected.stderr.contains("--chunks"), "gc: \(collected.stderr)")
    }

    @Test func twoServeProcessesShareJobsRunsCancelsAndOutputs() throws {
        let ws = try Workspace("serve-postgres")
        let shared = try DistributedRenderTests.Shared(ws, server: try PostgresTestServer.shared())
        let data = ws.url.appendingPathComponent("data")
        let first = try ServeProcess(ws, store: shared.arguments, data: data, arguments: ["--workers", "0"], name: "first")
        let second = try ServeProcess(ws, store: shared.arguments, data: data, arguments: ["--workers", "0"], name: "second")
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt"), encoding: .utf8)
        let book = try ws.write("alice.txt", String(text.prefix(6000)))
        let created = try first.createJob(["document=@\(book.path)", "title=Alice", "rate=1"])
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(created.object["id"] as? Int)

        // The second process sees the job and reads its script.
        #expect((try second.request("/api/v1/jobs").json as? [[String: Any]])?.map { $0["id"] as? Int } == [id])
        let script = try second.request("/api/v1/jobs/\(id)/script")
        #expect(script.status == 200 && (script.object["words"] as? Int ?? 0) > 500, "\(script.text)")

        // Started through the second, with no worker yet: it waits for its chunks. Cancelled through the first.
        #expect(try second.request("/api/v1/jobs/\(id)/runs", ["-X", "POST"]).status == 202)
        #expect(try eventually(timeout: 30, "the first to see the run") {
            ((try first.request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any])?["state"] as? String) == "running"
        })
        let cancel = try first.request("/api/v1/jobs/\(id)/cancel", ["-X", "POST"])
        #expect(cancel.status == 202, "\(cancel.text)")
        #expect(try eventually(timeout: 30, "the run cancelled by the second process") {
            ((try first.request("/api/v1/jobs/\(id)").object["latestRun"] as? [String: Any])?["state"] as? String) == "cancelled"
        }, "\(second.logText)")

        // A worker on a host of its own renders the next run, started through the first.
        let worker = try WorkerHost(ws, name: "worker", store: shared.arguments)
        #expect(try eventually(timeout: 30, "the worker registered") { try shared.workers().count == 1 })
        let run = try first.render(job: id)
        #expect(run["state"] as? String == "succeeded", "\(run)\n\(first.logText)\n\(worker.logText)")
        #expect((run["chunksRendered"] as? Int ?? 0) > 0)

        // Progress and outputs are the same through the second.
        let events = try second.stream("/api/v1/jobs/\(id)/events", seconds: 2)
        #expect(events.contains("\"state\":\"succeeded\""), "\(events)")
        let outputs = try second.request("/api/v1/jobs/\(id)/outputs").json as? [[String: Any]] ?? []
        let mp3 = try #require(outputs.first { ($0["name"] as? String)?.hasSuffix(".mp3") == true })
        let part = try second.request(mp3["url"] as? String ?? "", ["-H", "Range: bytes=100-1099"])
        #expect(part.status == 206 && part.body.count == 1000)
        #expect(part.headers["content-range"] == "bytes 100-1099/\(mp3["size"] as? Int ?? 0)")
        #expect(worker.terminate() == 0)
        #expect(first.terminate().status == 0)
        #expect(second.terminate().status == 0)
    }
}
