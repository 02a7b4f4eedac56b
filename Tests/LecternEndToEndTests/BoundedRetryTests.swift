import Foundation
import Testing
import LecternStore
import LecternTestSupport

/// Nothing retries forever (#22): a chunk that cannot be finished fails its run after its
/// attempts, with the reason in the store and `lectern status`, while the workers back off and say
/// so once; a worker killed with `kill -9` is shown as lost, then removed by `lectern gc`.
@Suite(.serialized) struct BoundedRetryTests {
    static let note = "A short note.\n\nIt has two paragraphs, and nowhere to be written.\n"

    /// The run's newest row in `lectern status --json`.
    static func lastRun(_ status: [String: Any], job: String) -> [String: Any]? {
        let jobs = status["jobs"] as? [[String: Any]] ?? []
        return (jobs.first { $0["name"] as? String == job }?["runs"] as? [[String: Any]])?.first
    }

    static func lines(_ text: String, containing needle: String) -> Int {
        text.split(separator: "\n").filter { $0.contains(needle) }.count
    }

    @Test func aFullSharedFolderFailsTheRunAfterThreeAttemptsOnAnyWorkersWithTheReason() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("retry-full")
        let shared = try DistributedRenderTests.Shared(ws, server: server)
        let disk = try TmpfsMount(at: shared.chunks, kilobytes: 256)
        defer { disk.unmount() }
        #expect(disk.fill() == String(cString: strerror(ENOSPC)))
        let workers = try (1...2).map { try WorkerHost(ws, name: "worker\($0)", store: shared.arguments, lease: 3) }
        #expect(try eventually(timeout: 30, "two workers registered") { try shared.workers().count == 2 })
        try ws.write("book/note.txt", Self.note)
        let book = try ws.write("book/note.yml", "title: Note\noutput: out\nsources: [note.txt]\nvoice: { name: en-gb, rate: 1.0 }\n")
        let started = Date()
        let run = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "0", book.path] + shared.arguments,
                               in: ws.url.appendingPathComponent("book"))
        let seconds = Date().timeIntervalSince(started)
        let logs = workers.map(\.logText)
        #expect(run.status == 1, "\(run.stderr)\n\(logs.joined(separator: "\n"))")
        #expect(run.stderr.contains("No space left on device") && run.stderr.contains("(failed 3 times, the attempt limit)"), "\(run.stderr)")
        #expect(seconds < 60, "the run failed \(Int(seconds)) s after it started")
        // The store has the reason, and `status` shows it.
        let recorded = try #require(Self.lastRun(try shared.status(), job: "note"))
        #expect(recorded["state"] as? String == "failed")
        #expect((recorded["error"] as? String)?.contains("No space left on device") == true, "\(recorded)")
        let text = try Tool.run(Tool.lectern, ["status"] + shared.arguments, in: ws.url)
        #expect(text.stdout.contains("failed") && text.stdout.contains("error: ") && text.stdout.contains("No space left on device"), "\(text.stdout)")
        // Each worker said why once — not once per attempt — and kept going.
        for log in logs {
            #expect(Self.lines(log, containing: "cannot finish chunks") <= 1 && Self.lines(log, containing: "No space left on device") <= 1, "\(log)")
        }
        #expect(logs.contains { $0.contains("cannot finish chunks") && $0.contains("No space left on device") }, "\(logs)")
        for worker in workers { #expect(worker.terminate() == 0, "\(worker.logText)") }
    }

    /// The note's job, allowed `attempts` per chunk, beside a chunk folder on a tmpfs filled to
    /// the last byte (unmount it when done).
    static func noteOnAFullChunkFolder(_ ws: Workspace, attempts: Int) throws -> (chunks: URL, disk: TmpfsMount, book: URL) {
        let chunks = ws.url.appendingPathComponent("chunks")
        let disk = try TmpfsMount(at: chunks, kilobytes: 256)
        _ = disk.fill()
        try ws.write("book/note.txt", note)
        let book = try ws.write("book/note.yml", """
            title: Note
            output: out
            sources: [note.txt]
            voice: { name: en-gb, rate: 1.0 }
            chunk_attempts: \(attempts)
            """)
        return (chunks, disk, book)
    }

    @Test func theSQLiteQueueHonoursTheManifestsChunkAttempts() throws {
        let ws = try Workspace("retry-sqlite")
        let (chunks, disk, book) = try Self.noteOnAFullChunkFolder(ws, attempts: 2)
        defer { disk.unmount() }
        // The run renders its own chunks through the SQLite store's queue and the (full) chunk folder.
        let run = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "1", "--chunks", chunks.path, "--db", ws.db.path, book.path],
                               in: ws.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("No space left on device") && run.stderr.contains("(failed 2 times, the attempt limit)"), "\(run.stderr)")
        #expect(Self.lines(run.stderr, containing: "cannot finish chunks") == 1, "said once: \(run.stderr)")
        let status = try Tool.run(Tool.lectern, ["status", "--json", "--db", ws.db.path], in: ws.url)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let recorded = try #require(Self.lastRun(json, job: "note"))
        #expect(recorded["state"] as? String == "failed" && (recorded["error"] as? String)?.contains("No space left on device") == true,
                "\(recorded)")
        let check = try Tool.run(Tool.lectern, ["check", book.path], in: ws.url)
        #expect(check.status == 0, "chunk_attempts is a manifest key: \(check.stderr)")
        try ws.write("book/bad.yml", "title: Note\nsources: [note.txt]\nchunk_attempts: 0\n")
        let bad = try Tool.run(Tool.lectern, ["check", ws.url.appendingPathComponent("book/bad.yml").path], in: ws.url)
        #expect(bad.status != 0 && bad.stderr.contains("chunk_attempts"), "\(bad.stderr)")
    }

    @Test func whileAChunkIsRetriedStatusShowsItsLastError() throws {
        let ws = try Workspace("retry-status")
        let (chunks, disk, book) = try Self.noteOnAFullChunkFolder(ws, attempts: 100)
        defer { disk.unmount() }
        let run = try BackgroundRun(["run", "--quiet", "--workers", "1", "--chunks", chunks.path, "--db", ws.db.path, book.path], in: ws.url)
        func queue() throws -> [String: Any]? {
            let out = try Tool.run(Tool.lectern, ["status", "--json", "--db", ws.db.path], in: ws.url)
            let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
            return json.flatMap { Self.lastRun($0, job: "note") }?["queue"] as? [String: Any]
        }
        #expect(try eventually(timeout: 30, "the queue showing the chunk's last error") {
            (try queue()?["lastError"] as? String)?.contains("No space left on device") == true
        })
        let text = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path], in: ws.url)
        #expect(text.stdout.contains("running") && text.stdout.contains("retrying a chunk after: chunk 1 (chapter 1): cannot write"), "\(text.stdout)")
        kill(run.process.processIdentifier, SIGTERM)
        let output = run.wait(timeout: 60)
        #expect(output.status == 143, "\(output.stderr)")
        #expect(Self.lines(output.stderr, containing: "cannot finish chunks") == 1, "said once: \(output.stderr)")
    }

    @Test func aWorkerKilledWithKill9IsShownLostAfterThreeLeasePeriodsThenGCRemovesIt() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("retry-lost")
        let shared = try DistributedRenderTests.Shared(ws, server: server)
        let doomed = try WorkerHost(ws, name: "doomed", store: shared.arguments, lease: 1)
        let survivor = try WorkerHost(ws, name: "survivor", store: shared.arguments, lease: 1)
        func state(_ pid: Int32) throws -> String? {
            try shared.workers().first { $0["pid"] as? Int == Int(pid) }?["state"] as? String
        }
        #expect(try eventually(timeout: 30, "two workers alive") { try state(doomed.pid) == "alive" && state(survivor.pid) == "alive" })
        let killed = Date()
        kill(doomed.pid, SIGKILL)
        #expect(try eventually(timeout: 20, "the killed worker shown as lost") { try state(doomed.pid) == "lost" })
        let silent = Date().timeIntervalSince(killed)
        #expect(silent >= 2.5, "lost only after three lease periods of 1 s: \(silent) s")
        #expect(try state(survivor.pid) == "alive", "a worker that beats is never lost")
        let text = try Tool.run(Tool.lectern, ["status"] + shared.arguments, in: ws.url)
        #expect(text.stdout.contains("pid \(doomed.pid)  lost: no heartbeat"), "\(text.stdout)")
        let gc = try Tool.run(Tool.lectern, ["gc"] + shared.arguments, in: ws.url)
        #expect(gc.status == 0 && gc.stdout.contains("removed worker") && gc.stdout.contains("pid \(doomed.pid) (lost"), "\(gc.stdout)\(gc.stderr)")
        #expect(try shared.workers().map { $0["pid"] as? Int } == [Int(survivor.pid)], "only the live worker stays")
        #expect(survivor.terminate() == 0, "\(survivor.logText)")
    }
}
