import Foundation
import LecternCore
import LecternSchedule
import LecternStore
import PostgresNIO

/// The shared job store: a PostgreSQL database that every host naming it uses at once — jobs,
/// runs, leases, the daemons' claims and the chunk queue (claimed with `FOR UPDATE SKIP LOCKED`,
/// woken with `LISTEN/NOTIFY`). Its semantics are ``SQLiteJobStore``'s, operation by operation;
/// only the chunk cache's files and failure notes stay on each host, in ``localFolder``.
///
/// One connection per store object, used by one operation at a time; each operation is one
/// transaction (see ``PostgresSession``). Chunk lease times come from the server's clock, since
/// hosts' clocks differ.
public final class PostgresJobStore: JobStore {
    public let address: PostgresAddress
    public let localFolder: URL
    public var name: String { address.description }
    public var notesFolder: URL { localFolder.appendingPathComponent("notes") }
    public var isShared: Bool { true }
    let session: PostgresSession
    let listener: PostgresQueueListener

    /// Connects to the database and migrates it to the current schema.
    ///
    /// - parameter localFolder: This host's folder for the local chunk cache and failure notes.
    /// - throws: ``StoreError`` `cannot connect to the job store postgres://…: <reason>`, or
    ///   naming the migration that failed.
    public init(address: PostgresAddress, localFolder: URL) async throws {
        self.address = address
        self.localFolder = localFolder
        session = try await PostgresSession(address: address)
        listener = PostgresQueueListener(address: address)
        try await session.transaction("migrate", PostgresMigrations.migrate)
    }

    /// Closes the store's connections (a later operation opens a new one).
    public func close() async {
        await session.close()
        await listener.close()
    }

    @discardableResult
    func write<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T { try await session.transaction("write", body) }
    func read<T: Sendable>(_ body: (PostgresTransaction) async throws -> T) async throws -> T { try await session.transaction("read", body) }

    // MARK: Jobs, runs and chapters

    public func job(manifestPath: String, name: String, title: String?) async throws -> JobRecord {
        try await write { db in
            for _ in 0..<2 {
                if let row = try await db.execute("SELECT * FROM job WHERE \"manifestPath\" = \(manifestPath) FOR NO KEY UPDATE").first {
                    let job = try JobRecord(row: row)
                    guard let renamed = job.renamed(name, title: title) else { return job }
                    try await db.execute("UPDATE job SET name = \(renamed.name), title = \(renamed.title) WHERE id = \(renamed.id)")
                    return renamed
                }
                // Inserted unless another process inserted it a moment ago (then it is read above).
                if let row = try await db.execute("""
                    INSERT INTO job (name, "manifestPath", title, "createdAt") VALUES (\(name), \(manifestPath), \(title), \(Date()))
                    ON CONFLICT ("manifestPath") DO NOTHING RETURNING *
                    """).first {
                    return try JobRecord(row: row)
                }
            }
            throw StoreError("cannot write the job store \(self.name): the job for \(manifestPath) was created and removed at once")
        }
    }

    public func startRun(job: JobRecord, trigger: Trigger, resumes: Int64?, forced: Bool) async throws -> RunRecord {
        try await write { db in
            let holder = ProcessIdentity.current.description
            return try await RunRecord(row: try db.one("""
                INSERT INTO run ("jobId", trigger, state, "startedAt", pid, "wordsDone", "audioMsDone", holder, "resumesRunId", forced)
                VALUES (\(job.id!), \(trigger.rawValue), \(RunState.running.rawValue), \(Date()), \(Int64(getpid())), 0, 0, \(holder), \(resumes), \(forced))
                RETURNING *
                """))
        }
    }

    public func update(_ run: RunRecord) async throws {
        try await write { db in try await Self.update(run, db) }
    }

    public func finish(_ run: RunRecord, chapters: [ChapterRecord]) async throws {
        try await write { db in
            try await Self.update(run, db)
            try await db.insert(into: "chapter", columns: ["runId", "number", "title", "contentHash", "startMs", "durationMs", "sampleCount",
                                                     "startSample", "textHash", "voiceHash", "pauseHash", "settingsHash", "chunkCount",
                                                     "chunksRendered", "change"], rows: chapters) { c, b in
                b.append(c.runId); b.append(c.number); b.append(c.title); b.append(c.contentHash); b.append(c.startMs)
                b.append(c.durationMs); b.append(c.sampleCount); b.append(c.startSample); b.append(c.textHash); b.append(c.voiceHash)
                b.append(c.pauseHash); b.append(c.settingsHash); b.append(c.chunkCount); b.append(c.chunksRendered); b.append(c.change)
            }
        }
    }

    /// Saves every field of a run (the run must exist).
    static func update(_ r: RunRecord, _ db: PostgresTransaction) async throws {
        let changed = try await db.changes("""
            UPDATE run SET "jobId" = \(r.jobId), trigger = \(r.trigger.rawValue), state = \(r.state.rawValue), "startedAt" = \(r.startedAt),
                "endedAt" = \(r.endedAt), error = \(r.error), pid = \(Int64(r.pid)), "chapterCount" = \(r.chapterCount),
                "paragraphCount" = \(r.paragraphCount), "wordCount" = \(r.wordCount), "skippedCount" = \(r.skippedCount),
                "wordsDone" = \(r.wordsDone), "audioMsDone" = \(r.audioMsDone), "durationMs" = \(r.durationMs),
                "sampleCount" = \(r.sampleCount), "mp3Path" = \(r.mp3Path), "timingsPath" = \(r.timingsPath), holder = \(r.holder),
                "resumesRunId" = \(r.resumesRunId), forced = \(r.forced), "chunkCount" = \(r.chunkCount),
                "chunksRendered" = \(r.chunksRendered), "chunksReused" = \(r.chunksReused), "bookHash" = \(r.bookHash),
                "outputStamp" = \(r.outputStamp), "upToDateRuns" = \(r.upToDateRuns), "lastUpToDateAt" = \(r.lastUpToDateAt)
            WHERE id = \(r.id)
            """)
        guard changed == 1 else { throw StoreError("cannot write the job store: run \(r.id.map(String.init) ?? "nil") is not in it") }
    }

    public func foldUpToDate(_ run: RunRecord, into confirmed: Int64, at date: Date) async throws -> RunRecord {
        try await write { db in
            guard let row = try await db.execute("SELECT * FROM run WHERE id = \(confirmed) FOR UPDATE").first else {
                throw StoreError("cannot write the job store: run \(confirmed) is not in it")
            }
            let kept = try RunRecord(row: row).confirmedUpToDate(at: date)
            try await Self.update(kept, db)
            if let id = run.id { try await db.execute("DELETE FROM run WHERE id = \(id)") }
            return kept
        }
    }

        public func setManifestError(jobId: Int64, _ error: String?) async throws {
        try await write { db in
            try await db.execute("UPDATE job SET \"manifestError\" = \(error) WHERE id = \(jobId) AND \"manifestError\" IS DISTINCT FROM \(error)")
        }
    }

    public func recordManifestError(manifestPath: String, name: String?, error: String?) async throws {
        try await write { db in
            if try await db.value("SELECT id FROM job WHERE \"manifestPath\" = \(manifestPath)", as: Int64.self) == nil {
                guard let error, let name else { return }
                let inserted = try await db.changes("""
                    INSERT INTO job (name, "manifestPath", title, "createdAt", "manifestError") VALUES (\(name), \(manifestPath), NULL, \(Date()), \(error))
                    ON CONFLICT ("manifestPath") DO NOTHING
                    """)
                if inserted == 1 { return }
            }
            try await db.execute("""
                UPDATE job SET "manifestError" = \(error) WHERE "manifestPath" = \(manifestPath) AND "manifestError" IS DISTINCT FROM \(error)
                """)
        }
    }

    public func jobs() async throws -> [JobRecord] {
        // COLLATE "C": byte order, as SQLite sorts.
        try await read { db in try await db.execute("SELECT * FROM job ORDER BY name COLLATE \"C\", id").map(JobRecord.init(row:)) }
    }

    public func runs(jobId: Int64, limit: Int) async throws -> [RunRecord] {
        try await read { db in
            try await db.execute("SELECT * FROM run WHERE \"jobId\" = \(jobId) ORDER BY id DESC LIMIT \(limit)").map(RunRecord.init(row:))
        }
    }

    public func chapters(runId: Int64) async throws -> [ChapterRecord] {
        try await read { db in
            try await db.execute("SELECT * FROM chapter WHERE \"runId\" = \(runId) ORDER BY number, id").map(ChapterRecord.init(row:))
        }
    }

    public func latestRun(jobId: Int64, states: Set<RunState>) async throws -> RunRecord? {
        try await read { db in
            try await db.execute("""
                SELECT * FROM run WHERE "jobId" = \(jobId) AND state = ANY(\(states.map(\.rawValue))) ORDER BY id DESC LIMIT 1
                """).first.map(RunRecord.init(row:))
        }
    }

    /// "ok" when the schema is the one this code knows and a query runs; else what is wrong.
    public func integrityCheck() async throws -> String {
        try await read { db in
            guard try await db.value("SELECT 1", as: Int32.self) == 1 else { return "the server does not answer a trivial query" }
            let applied = await Set(try db.execute("SELECT identifier FROM lectern_migrations").map { try $0[0].decode(String.self) })
            let missing = PostgresMigrations.all.map(\.identifier).filter { !applied.contains($0) }
            return missing.isEmpty ? "ok" : "the schema lacks the migrations \(missing.joined(separator: ", "))"
        }
    }
}
