import Foundation
import GRDB
import LecternCore
import LecternSchedule
#if canImport(Glibc)
import Glibc
#endif

/// The embedded job store: one SQLite file (WAL mode) through GRDB, for one host.
///
/// Every state change is one transaction, so a crash leaves either the old state or the new.
public final class SQLiteJobStore: JobStore {
    let pool: DatabasePool
    /// Held around each write transaction: a rule's transaction stays open on the writer across its steps.
    let gate = AsyncGate()
    public let url: URL
    public var name: String { url.path }
    /// The database's folder (the chunk cache is its `cache` folder).
    public var localFolder: URL { url.deletingLastPathComponent() }
    public var notesFolder: URL { localFolder.appendingPathComponent("\(url.lastPathComponent)-notes") }
    public var isShared: Bool { false }

    /// Opens (creating if needed) the database at `url` and migrates it to the current schema.
    ///
    /// - throws: ``StoreError`` naming the file when it cannot be opened or migrated, and why:
    ///   `cannot open the job store PATH for writing: Read-only file system`.
    public init(url: URL) throws {
        self.url = url
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError("cannot open the job store \(url.path): \(Self.reason(error))")
        }
        // SQLite's own error for a file it cannot write is "unable to open database file" or
        // "attempt to write a readonly database": ask the system why first.
        if let why = Self.cannotWrite(url) { throw StoreError("cannot open the job store \(url.path) for writing: \(why)") }
        do {
            pool = try Self.open(url)
        } catch {
            throw StoreError("cannot open the job store \(url.path): \(Self.reason(error))")
        }
    }

    /// Why this process cannot write the database at `url` (the file, or its folder when the
    /// file is new), in the system's words; nil when it can.
    ///
    /// Asked with access(2), which reports a read-only file system even to root, and never by
    /// opening the file: closing a descriptor of a database file drops every POSIX lock this
    /// process holds on it, including those of another store object open on the same file.
    static func cannotWrite(_ url: URL) -> String? {
        if access(url.path, W_OK) == 0 { return nil }
        let reason = errno
        guard reason == ENOENT else { return String(cString: strerror(reason)) }
        // A new file: its folder must take it.
        return access(url.deletingLastPathComponent().path, W_OK | X_OK) == 0 ? nil : String(cString: strerror(errno))
    }

    /// Opens the pool and migrates it. Switching a new database to WAL needs a lock SQLite does not
    /// wait for, so a process that loses that race to another opening the same new file tries
    /// again after a moment.
    static func open(_ url: URL) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(10)
        // A rule's transaction (``SQLiteTransaction``) spans several accesses to the writer.
        config.allowsUnsafeTransactions = true
        var attempt = 0
        while true {
            attempt += 1
            do {
                let pool = try DatabasePool(path: url.path, configuration: config)
                try migrate(pool)
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 20 {
                usleep(UInt32(10_000 * attempt))
            }
        }
    }

    /// Applies the migrations this store lacks. GRDB reads which migrations are applied before it
    /// takes the write lock, so two processes opening a new store at once (a daemon and a
    /// `lectern run`) can both start the same migration; the loser's transaction rolls back, and
    /// reading again finds the work done or continues it.
    static func migrate(_ pool: DatabasePool) throws {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try migrator.migrate(pool)
            } catch {
                if try pool.read(migrator.hasCompletedMigrations) { return }
                if attempt == 5 { throw error }
            }
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "job") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("manifestPath", .text).notNull().unique()
                t.column("title", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "run") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("job", onDelete: .cascade).notNull()
                t.column("trigger", .text).notNull()
                t.column("state", .text).notNull()
                t.column("startedAt", .datetime).notNull()
                t.column("endedAt", .datetime)
                t.column("error", .text)
                t.column("pid", .integer).notNull()
                t.column("chapterCount", .integer)
                t.column("paragraphCount", .integer)
                t.column("wordCount", .integer)
                t.column("skippedCount", .integer)
                t.column("wordsDone", .integer).notNull().defaults(to: 0)
                t.column("audioMsDone", .integer).notNull().defaults(to: 0)
                t.column("durationMs", .integer)
                t.column("sampleCount", .integer)
                t.column("mp3Path", .text)
                t.column("timingsPath", .text)
            }
            try db.create(table: "chapter") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("run", onDelete: .cascade).notNull()
                t.column("number", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("contentHash", .text).notNull()
                t.column("startMs", .integer).notNull()
                t.column("durationMs", .integer).notNull()
                t.column("sampleCount", .integer).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            // Incremental rendering (#4): the chunk cache, each run's chunks, leases on jobs.
            try db.alter(table: "run") { t in
                t.add(column: "holder", .text)
                t.add(column: "resumesRunId", .integer)
                t.add(column: "forced", .boolean).notNull().defaults(to: false)
                t.add(column: "chunkCount", .integer)
                t.add(column: "chunksRendered", .integer).notNull().defaults(to: 0)
                t.add(column: "chunksReused", .integer).notNull().defaults(to: 0)
                t.add(column: "bookHash", .text)
                t.add(column: "outputStamp", .text)
            }
            try db.alter(table: "chapter") { t in
                t.add(column: "startSample", .integer).notNull().defaults(to: 0)
                t.add(column: "textHash", .text).notNull().defaults(to: "")
                t.add(column: "voiceHash", .text).notNull().defaults(to: "")
                t.add(column: "pauseHash", .text).notNull().defaults(to: "")
                t.add(column: "settingsHash", .text).notNull().defaults(to: "")
                t.add(column: "chunkCount", .integer).notNull().defaults(to: 0)
                t.add(column: "chunksRendered", .integer).notNull().defaults(to: 0)
                t.add(column: "change", .text)
            }
            try db.create(table: "cachedChunk") { t in
                t.primaryKey("key", .text)
                t.column("bytes", .integer).notNull()
                t.column("audioFrames", .integer).notNull()
                t.column("result", .blob).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("renderedByRunId", .integer)
            }
            try db.create(table: "runChunk") { t in
                t.belongsTo("run", onDelete: .cascade).notNull()
                t.column("position", .integer).notNull()
                t.column("key", .text).notNull().indexed()
                t.column("chapterNumber", .integer).notNull()
                t.column("state", .text).notNull()
                t.primaryKey(["runId", "position"])
            }
            try db.create(table: "lease") { t in
                t.primaryKey("jobId", .integer).references("job", onDelete: .cascade)
                t.column("runId", .integer)
                t.column("holder", .text).notNull()
                t.column("acquiredAt", .datetime).notNull()
                t.column("heartbeatAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
        }
        registerScheduleMigration(&migrator)
        registerQueueMigration(&migrator)
        migrator.registerMigration("v7") { db in
            // Runs that change nothing (#23): counted on the run they confirm, not rows of their own.
            try db.alter(table: "run") { t in
                t.add(column: "upToDateRuns", .integer).notNull().defaults(to: 0)
                t.add(column: "lastUpToDateAt", .datetime)
            }
        }
        registerServiceMigration(&migrator)
        registerRunRequestMigration(&migrator)
        return migrator
    }

    /// The job for a manifest, created on first use; its name and title are kept current.
    public func job(manifestPath: String, name: String, title: String?) async throws -> JobRecord {
        try await write { db in
            if let job = try JobRecord.filter(JobRecord.Columns.manifestPath == manifestPath).fetchOne(db) {
                guard let renamed = job.renamed(name, title: title) else { return job }
                try renamed.update(db)
                return renamed
            }
            var job = JobRecord(id: nil, name: name, manifestPath: manifestPath, title: title, createdAt: Date())
            try job.insert(db)
            return job
        }
    }

    /// Records that a run of `job` has started in this process.
    ///
    /// - parameters:
    ///     - resumes: The stopped run whose finished chunks this run continues from.
    ///     - forced: Whether the run ignores the chunk cache.
    public func startRun(job: JobRecord, trigger: Trigger, resumes: Int64?, forced: Bool) async throws -> RunRecord {
        try await write { db in
            var run = RunRecord(id: nil, jobId: job.id!, trigger: trigger, state: .running, startedAt: Date(), pid: getpid(),
                                wordsDone: 0, audioMsDone: 0, holder: ProcessIdentity.current.description, resumesRunId: resumes,
                                forced: forced)
            try run.insert(db)
            return run
        }
    }

    /// Saves a run's changed fields.
    public func update(_ run: RunRecord) async throws {
        try await write { db in try run.update(db) }
    }

    /// Saves a finished run together with its chapters, in one transaction.
    public func finish(_ run: RunRecord, chapters: [ChapterRecord]) async throws {
        try await write { db in
            try run.update(db)
            for var chapter in chapters { try chapter.insert(db) }
        }
    }

    public func foldUpToDate(_ run: RunRecord, into confirmed: Int64, at date: Date) async throws -> RunRecord {
        try await write { db in
            guard var kept = try RunRecord.fetchOne(db, key: confirmed) else {
                throw StoreError("cannot write the job store: run \(confirmed) is not in it")
            }
            kept = kept.confirmedUpToDate(at: date)
            try kept.update(db)
            if let id = run.id { _ = try RunRecord.deleteOne(db, key: id) }
            return kept
        }
    }

    /// Records why a daemon cannot load the job's manifest (nil: it loads again).
    public func setManifestError(jobId: Int64, _ error: String?) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE job SET manifestError = ? WHERE id = ? AND manifestError IS NOT ?", arguments: [error, jobId, error])
        }
    }

    /// Records why a daemon cannot load the manifest at `manifestPath`, creating its job (named
    /// `name`) if it has none, so that `lectern status` shows it; nil clears it.
    public func recordManifestError(manifestPath: String, name: String?, error: String?) async throws {
        try await write { db in
            if try JobRecord.filter(JobRecord.Columns.manifestPath == manifestPath).fetchOne(db) == nil {
                guard let error, let name else { return }
                var job = JobRecord(id: nil, name: name, manifestPath: manifestPath, title: nil, createdAt: Date(), manifestError: error)
                try job.insert(db)
                return
            }
            try db.execute(sql: "UPDATE job SET manifestError = ? WHERE manifestPath = ? AND manifestError IS NOT ?",
                           arguments: [error, manifestPath, error])
        }
    }

    public func jobs() async throws -> [JobRecord] {
        try await read { db in try JobRecord.order(JobRecord.Columns.name).fetchAll(db) }
    }

    /// A job's runs, newest first.
    public func runs(jobId: Int64, limit: Int) async throws -> [RunRecord] {
        try await read { db in try RunRecord.filter(RunRecord.Columns.jobId == jobId).order(RunRecord.Columns.id.desc).limit(limit).fetchAll(db) }
    }

    public func chapters(runId: Int64) async throws -> [ChapterRecord] {
        try await read { db in try ChapterRecord.filter(ChapterRecord.Columns.runId == runId).order(ChapterRecord.Columns.number).fetchAll(db) }
    }

    /// Runs a raw integrity check (`PRAGMA integrity_check`), returning SQLite's answer.
    public func integrityCheck() async throws -> String {
        try await read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }

    /// Runs `body` in one write transaction, after this process's other transactions on the store.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await gate.holding { try await mapping("write") { try await pool.write(body) } }
    }

    /// Runs `body` in one read transaction (on a reader connection: it waits for no writer).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await mapping("read") { try await pool.read(body) }
    }

    /// Runs `body` in one transaction on the writer connection that ``SQLiteTransaction``'s
    /// steps join: `BEGIN IMMEDIATE` (`DEFERRED` for `reading`), then `COMMIT`, or `ROLLBACK` when
    /// anything fails or the task is cancelled.
    func transaction<T: Sendable>(_ kind: Database.TransactionKind, _ body: (SQLiteTransaction) async throws -> T) async throws -> T {
        try await gate.holding {
            let transaction = SQLiteTransaction(store: self)
            _ = try await transaction.access { db in try db.beginTransaction(kind) }
            do {
                let result = try await body(transaction)
                _ = try await transaction.access { db in try db.commit() }
                return result
            } catch {
                // Not cancelled with the caller: the writer connection must not stay in the transaction.
                await Task.detached { [pool] in
                    _ = try? await pool.writeWithoutTransaction { db in if db.isInsideTransaction { try db.rollback() } }
                }.value
                throw error
            }
        }
    }

    /// `body`'s errors as ``StoreError``s naming the store and what could not be done to it.
    func mapping<T>(_ action: String, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as StoreError { throw error } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw StoreError("cannot \(action) the job store \(url.path): \(Self.reason(error))")
        }
    }

    /// SQLite's own words for a failure ("database or disk is full"), else the system's.
    static func reason(_ error: Error) -> String {
        if let db = error as? DatabaseError { return db.message ?? db.resultCode.description }
        return FileError.reason(error)
    }
}
