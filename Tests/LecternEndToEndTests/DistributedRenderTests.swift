import Foundation
import Testing
import LecternStore
import LecternPostgres
import LecternTestSupport

/// Many hosts rendering through one PostgreSQL store (#15): a coordinating `lectern run` that
/// renders nothing itself and `lectern worker`s, each with a folder of its own as separate hosts
/// would have, sharing the store (a private server started for the test) and a chunk folder.
@Suite(.serialized) struct DistributedRenderTests {
    /// A store and chunk folder the test's hosts share.
    struct Shared {
        let ws: Workspace
        let address: PostgresAddress
        let chunks: URL
        var url: String { address.description }
        var arguments: [String] { ["--store", url, "--chunks", chunks.path] }

        init(_ ws: Workspace, server: PostgresTestServer) throws {
            self.ws = ws
            address = try server.createDatabase()
            chunks = ws.url.appendingPathComponent("shared-chunks")
            try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        }

        /// Runs SQL with psql as the server's owner.
        func execute(_ sql: String) throws {
            let out = try Tool.run("psql", ["-h", address.socketFolder ?? "", "-p", "\(address.port)", "-U", PostgresTestServer.user,
                                            "-d", address.database, "-v", "ON_ERROR_STOP=1", "-qc", sql])
            try #require(out.status == 0, "psql \(sql): \(out.stderr)")
        }

        /// `lectern status --json` as the store has it.
        func status() throws -> [String: Any] {
            let out = try Tool.run(Tool.lectern, ["status", "--json"] + arguments, in: ws.url)
            try #require(out.status == 0, "status: \(out.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        }

        func workers() throws -> [[String: Any]] { try status()["workers"] as? [[String: Any]] ?? [] }

        func runs(_ job: String) throws -> [[String: Any]] {
            let jobs = try status()["jobs"] as? [[String: Any]] ?? []
            return jobs.first { $0["name"] as? String == job }?["runs"] as? [[String: Any]] ?? []
        }
    }

    /// The committed two chapters of Alice at the fastest exact rate: a dozen chunks.
    static func aliceJob(_ ws: Workspace, folder: String = "book", name: String = "alice", rate: Double = 1.0,
                         extra: String = "") throws -> URL {
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt"), encoding: .utf8)
        try ws.write("\(folder)/\(name).txt", text)
        return try ws.write("\(folder)/\(name).yml", """
            title: Alice
            output: out
            sources: [\(name).txt]
            voice: { name: en-gb, rate: \(rate) }
            timings: [json]
            \(extra)
            """)
    }

    static func digest(_ file: URL) throws -> String {
        String(try Tool.run("sha256sum", [file.path]).stdout.prefix(64))
    }

    @Test func aCoordinatorAndThreeWorkersWriteTheSameBytesAsOneHost() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed")
        // One host, its own SQLite store and worker pool: the reference.
        // An M4B too: its chunks' PCM goes through the shared folder with their streams.
        let single = try Self.aliceJob(ws, folder: "single", extra: "formats: [mp3, m4b]")
        let alone = try Tool.lectern(["run", "--quiet", single.path], db: ws.db)
        try #require(alone.status == 0, "\(alone.stderr)")

        let shared = try Shared(ws, server: server)
        let workers = try (1...3).map { try WorkerHost(ws, name: "worker\($0)", store: shared.arguments) }
        // Every worker is listening before the run publishes, so each can claim at once.
        #expect(try eventually(timeout: 30, "three workers registered") { try shared.workers().count == 3 })
        let book = try Self.aliceJob(ws, extra: "formats: [mp3, m4b]")
        let coordinator = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "0", book.path] + shared.arguments,
                                       in: ws.url.appendingPathComponent("book"))
        try #require(coordinator.status == 0, "\(coordinator.stderr)\n\(workers.map(\.logText).joined(separator: "\n"))")

        for name in ["alice.mp3", "alice.m4b", "alice.timings.json"] {
            #expect(try Self.digest(ws.url.appendingPathComponent("book/out/\(name)"))
                    == Self.digest(ws.url.appendingPathComponent("single/out/\(name)")), "\(name) differs from the single-host render")
        }
        let run = try #require(try shared.runs("alice").first)
        #expect(run["state"] as? String == "succeeded")
        let rendered = run["chunksRendered"] as? Int ?? 0
        let done = try shared.workers().map { $0["chunksDone"] as? Int ?? 0 }
        #expect(done.count == 3 && done.allSatisfy { $0 > 0 }, "every worker renders some chunks: \(done)")
        #expect(done.reduce(0, +) == rendered, "each chunk finished once: workers \(done), run \(rendered)")
        for worker in workers { #expect(worker.terminate() == 0, "\(worker.logText)") }
        #expect(try shared.workers().isEmpty, "a stopped worker unregisters")
    }

    @Test func aKilledWorkersChunkIsRenderedByAnotherWhenItsLeaseExpires() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-kill")
        let shared = try Shared(ws, server: server)
        let marker = ws.url.appendingPathComponent("stalled")
        // The first worker alone claims chunks in order and hangs on the third, holding its lease.
        let doomed = try WorkerHost(ws, name: "doomed", store: shared.arguments, lease: 3,
                                    environment: ["LECTERN_TEST_STALL_CHUNK": "2:\(marker.path)"])
        #expect(try eventually(timeout: 30, "the worker registered") { try shared.workers().count == 1 })
        let book = try Self.aliceJob(ws, extra: "formats: [mp3, m4b]")
        let coordinator = try BackgroundRun(["run", "--quiet", "--workers", "0", book.path] + shared.arguments,
                                            in: ws.url.appendingPathComponent("book"))
        #expect(eventually(timeout: 60, "the worker hanging on chunk 3") { FileManager.default.fileExists(atPath: marker.path) })
        kill(doomed.pid, SIGKILL)
        let others = try (1...2).map { try WorkerHost(ws, name: "worker\($0)", store: shared.arguments, lease: 3) }
        let output = coordinator.wait()
        try #require(output.status == 0, "\(output.stderr)\n\(others.map(\.logText).joined(separator: "\n"))")
        let run = try #require(try shared.runs("alice").first)
        #expect(run["state"] as? String == "succeeded")
        let done = try shared.workers().map { $0["chunksDone"] as? Int ?? 0 }
        #expect(done.reduce(0, +) == run["chunksRendered"] as? Int, "no chunk finished twice: workers \(done), run \(run["chunksRendered"] ?? "?")")
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: ws.url.appendingPathComponent("book/out/alice.timings.json")))
        #expect((sidecar as? [String: Any])?["chapters"] != nil)
        for worker in others { worker.terminate() }
    }

    @Test func aWorkerCutOffFromTheDatabaseStopsItsChunkWhenItsLeaseIsLost() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-cut")
        let shared = try Shared(ws, server: server)
        // The worker to be cut off logs in as a role of its own, so that only it can be shut out.
        try shared.execute("CREATE ROLE cutoff LOGIN SUPERUSER")
        var asCutoff = shared.address
        asCutoff.user = "cutoff"
        let marker = ws.url.appendingPathComponent("stalled")
        let cutoff = try WorkerHost(ws, name: "cutoff", store: ["--store", asCutoff.description, "--chunks", shared.chunks.path], lease: 3,
                                    environment: ["LECTERN_TEST_STALL_CHUNK": "1:\(marker.path)"])
        #expect(try eventually(timeout: 30, "the worker registered") { try shared.workers().count == 1 })
        let book = try Self.aliceJob(ws, extra: "formats: [mp3, m4b]")
        let coordinator = try BackgroundRun(["run", "--quiet", "--workers", "0", book.path] + shared.arguments,
                                            in: ws.url.appendingPathComponent("book"))
        #expect(eventually(timeout: 60, "the worker hanging on chunk 2") { FileManager.default.fileExists(atPath: marker.path) })
        try shared.execute("ALTER ROLE cutoff NOLOGIN")
        try shared.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'cutoff'")
        let other = try WorkerHost(ws, name: "other", store: shared.arguments, lease: 3)
        if !eventually(timeout: 60, "the cut-off worker stopping its chunk", { cutoff.logText.contains("lease lost") }) {
            Issue.record("the cut-off worker's log: \(cutoff.logText)")
        }
        let output = coordinator.wait()
        try #require(output.status == 0, "\(output.stderr)\n\(other.logText)\n\(cutoff.logText)")
        #expect(try shared.runs("alice").first?["state"] as? String == "succeeded")
        other.terminate()
        cutoff.terminate()
    }

    @Test func twoCoordinatorsShareTheWorkersAndAThirdRunOfABookRenderingIsRefused() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-two")
        let shared = try Shared(ws, server: server)
        let big = try Self.aliceJob(ws, folder: "big", name: "alice")
        try ws.write("small/note.txt", "A short note.\n\nIt has two paragraphs, read while a long book renders.\n")
        let small = try ws.write("small/note.yml", "title: Note\noutput: out\nsources: [note.txt]\nvoice: { name: en-gb, rate: 1.0 }\n")
        // No worker yet: the first run publishes its chunks and waits.
        let first = try BackgroundRun(["run", "--quiet", "--workers", "0", big.path] + shared.arguments, in: ws.url.appendingPathComponent("big"))
        #expect(try eventually(timeout: 60, "the big book's chunks queued") {
            ((try shared.runs("alice").first?["queue"] as? [String: Any])?["queued"] as? Int ?? 0) > 0
        })
        let again = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "0", big.path] + shared.arguments, in: ws.url.appendingPathComponent("big"))
        #expect(again.status != 0 && again.stderr.contains("already being rendered"), "\(again.status) \(again.stderr)")
        let second = try BackgroundRun(["run", "--quiet", "--workers", "0", small.path] + shared.arguments, in: ws.url.appendingPathComponent("small"))
        #expect(try eventually(timeout: 60, "the small book's chunks queued") {
            ((try shared.runs("note").first?["queue"] as? [String: Any])?["queued"] as? Int ?? 0) > 0
        })
        let workers = try (1...2).map { try WorkerHost(ws, name: "worker\($0)", store: shared.arguments) }
        let smallOutput = second.wait()
        let bigRunning = try shared.runs("alice").first?["state"] as? String
        let bigOutput = first.wait()
        try #require(bigOutput.status == 0 && smallOutput.status == 0, "\(bigOutput.stderr)\n\(smallOutput.stderr)")
        // Runs take turns: the small book, published second, is not left waiting behind the big one.
        #expect(bigRunning == "running", "the small book finished while the big one was still rendering")
        let done = try shared.workers().map { $0["chunksDone"] as? Int ?? 0 }
        let rendered = try ["alice", "note"].map { try shared.runs($0).first?["chunksRendered"] as? Int ?? 0 }
        #expect(done.allSatisfy { $0 > 0 } && done.reduce(0, +) == rendered.reduce(0, +), "workers \(done), runs \(rendered)")
        for worker in workers { worker.terminate() }
    }

    @Test func daemonsOnTwoHostsRunEachDueJobOnceThroughTheSharedStore() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-daemons")
        let shared = try Shared(ws, server: server)
        let names = ["ash", "birch", "cedar"]
        for name in names { try DaemonTests.job(ws, name, "schedule: \"\(DaemonTests.farMinute) * * * *\"") }
        let store = try BlockingStore(StoreAddress(parsing: shared.url), localFolder: ws.url.appendingPathComponent("probe"))
        try DaemonTests.seenLongAgo(ws, names, store: store)
        // Two hosts: each its own folder (local cache), the same jobs folder, store and chunk folder.
        let daemons = try ["east", "west"].map { host in
            let folder = ws.url.appendingPathComponent("hosts/\(host)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(".lectern"), withIntermediateDirectories: true)
            return try DaemonProcess(ws, name: host, store: shared.arguments, folder: folder)
        }
        func runs() throws -> [RunRecord] { try store.jobs().flatMap { try store.runs(jobId: $0.id!, limit: 100) } }
        #expect(try eventually(timeout: 90, "a run of each job") {
            Set(try runs().filter { $0.state == .succeeded }.map(\.jobId)).count == names.count
        })
        let known = eventually(timeout: 10, "both daemons to know every job") {
            daemons.allSatisfy { d in names.allSatisfy { d.logText.contains("job added job=\($0)") } }
        }
        #expect(known)
        let stops = daemons.map { $0.terminate() }
        #expect(stops.allSatisfy { $0.status == 0 }, "\(daemons.map(\.logText))")
        let all = try runs()
        #expect(all.count == names.count && Set(all.map(\.jobId)).count == names.count,
                "\(all.map { "job \($0.jobId) \($0.trigger) \($0.state)" })")
        #expect(all.allSatisfy { $0.trigger == .schedule && $0.state == .succeeded })
        // Every chunk went through the shared folder, checked by its digest.
        let keys = try store.allCachedChunks().map(\.key)
        #expect(!keys.isEmpty && keys.allSatisfy { key in
            FileManager.default.fileExists(atPath: SharedChunkDirectory(directory: shared.chunks).url(for: key).path)
        })
    }

    @Test func gcRemovesUnreferencedChunksFromTheSharedFolderToo() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-gc")
        let shared = try Shared(ws, server: server)
        let folder = ws.url.appendingPathComponent("book")
        try ws.write("book/.lectern/.keep", "")
        try ws.write("book/note.txt", "The first version of a note.\n\nA second paragraph that stays the same.\n")
        let manifest = try ws.write("book/note.yml", "title: Note\noutput: out\nsources: [note.txt]\nvoice: { name: en-gb, rate: 1.0 }\n")
        // The run renders its chunks itself (one local worker) through the queue and the shared folder.
        let first = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "1", manifest.path] + shared.arguments, in: folder)
        try #require(first.status == 0, "\(first.stderr)")
        let directory = SharedChunkDirectory(directory: shared.chunks)
        let before = Set(try directory.keys())
        try ws.write("book/note.txt", "A second version of the note, all of it new.\n")
        let second = try Tool.run(Tool.lectern, ["run", "--quiet", "--workers", "1", manifest.path] + shared.arguments, in: folder)
        try #require(second.status == 0, "\(second.stderr)")
        let after = Set(try directory.keys())
        #expect(!before.isEmpty && after.count > before.count, "the edit adds chunks to the shared folder")
        let gc = try Tool.run(Tool.lectern, ["gc"] + shared.arguments, in: folder)
        try #require(gc.status == 0, "\(gc.stderr)")
        let store = try BlockingStore(StoreAddress(parsing: shared.url), localFolder: folder.appendingPathComponent(".lectern"))
        let referenced = try store.referencedChunkKeys()
        let left = Set(try directory.keys())
        #expect(left == referenced && left.count < after.count, "only referenced chunks stay: \(gc.stdout)")
        #expect(after.subtracting(left).allSatisfy { gc.stdout.contains($0) }, "\(gc.stdout)")
        // What is left still renders the book without rendering anything.
        let again = try Tool.run(Tool.lectern, ["run", "--json", "--workers", "1", manifest.path] + shared.arguments, in: folder)
        try #require(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\"upToDate\" : true") || again.stdout.contains("\"chunksRendered\" : 0"), "\(again.stdout)")
    }

    @Test func theStoreAndTheChunkFolderComeFromTheEnvironmentOrConfigDefaults() throws {
        let server = try PostgresTestServer.shared()
        let ws = try Workspace("distributed-config")
        let shared = try Shared(ws, server: server)
        func store(_ arguments: [String], environment: [String: String] = [:]) throws -> Tool.Output {
            try Tool.run(Tool.lectern, ["status", "--json"] + arguments, environment: environment, in: ws.url)
        }
        // $LECTERN_STORE and $LECTERN_CHUNKS.
        let fromEnvironment = try store([], environment: ["LECTERN_STORE": shared.url, "LECTERN_CHUNKS": shared.chunks.path])
        try #require(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("\"store\" : \"\(shared.url)\""), "\(fromEnvironment.stdout)")
        // A PostgreSQL store without a chunk folder is refused, saying how to name one.
        let noChunks = try store(["--store", shared.url])
        #expect(noChunks.status != 0 && noChunks.stderr.contains("--chunks"), "\(noChunks.stderr)")
        // `store:` and `chunks:` in Config/defaults.yml (a relative chunk folder is the Config folder's).
        try ws.write("Config/defaults.yml", "store: \(shared.url)\nchunks: ../shared-chunks\n")
        let fromConfig = try store([])
        try #require(fromConfig.status == 0, "\(fromConfig.stderr)")
        #expect(fromConfig.stdout.contains("\"store\" : \"\(shared.url)\""), "\(fromConfig.stdout)")
        // … and not in a manifest, where they would be about a host, not a book.
        try ws.write("book/a.txt", "Text.\n")
        let manifest = try ws.write("book/a.yml", "title: A\nsources: [a.txt]\nstore: \(shared.url)\n")
        let check = try Tool.run(Tool.lectern, ["check", manifest.path], environment: ["LECTERN_CONFIG": ""], in: ws.url)
        #expect(check.status != 0 && check.stderr.contains("a.yml:3: store: unknown key"), "\(check.stderr)")
    }
}
