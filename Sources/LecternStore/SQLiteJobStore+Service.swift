import Foundation
import GRDB

/// `lectern serve`'s records (``ServiceLedger``) in the SQLite store.
extension SQLiteJobStore {
    static func registerServiceMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8") { db in
            // `lectern serve` (#27): API tokens (hashed), served jobs and their owners, cancel requests.
            try db.create(table: "apiToken") { t in
                t.primaryKey("name", .text)
                t.column("owner", .text).notNull()
                t.column("hash", .text).notNull().unique()
                t.column("admin", .boolean).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "servedJob") { t in
                t.primaryKey("jobId", .integer).references("job", onDelete: .cascade)
                t.column("owner", .text).notNull().indexed()
                t.column("folder", .text).notNull().unique()
                t.column("feedSecret", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "runCancel") { t in
                t.primaryKey("runId", .integer).references("run", onDelete: .cascade)
                t.column("reason", .text).notNull()
                t.column("requestedAt", .datetime).notNull()
            }
        }
    }

    public func addToken(_ token: APITokenRecord) async throws {
        try await write { db in
            if try Row.fetchOne(db, sql: "SELECT 1 FROM apiToken WHERE name = ?", arguments: [token.name]) != nil {
                throw StoreError("a token named \(token.name) exists already")
            }
            try db.execute(sql: "INSERT INTO apiToken (name, owner, hash, admin, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [token.name, token.owner, token.hash, token.admin, token.createdAt])
        }
    }

    public func token(hash: String) async throws -> APITokenRecord? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM apiToken WHERE hash = ?", arguments: [hash]).map(Self.token) }
    }

    public func tokens() async throws -> [APITokenRecord] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM apiToken ORDER BY name").map(Self.token) }
    }

    public func revokeToken(name: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM apiToken WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    public func addServedJob(_ served: ServedJobRecord, manifestPath: String, name: String, title: String?) async throws -> JobRecord {
        try await write { db in
            if try JobRecord.filter(JobRecord.Columns.manifestPath == manifestPath).fetchOne(db) != nil {
                throw StoreError("the job store has a job for \(manifestPath) already")
            }
            var job = JobRecord(name: name, manifestPath: manifestPath, title: title, createdAt: served.createdAt)
            try job.insert(db)
            try db.execute(sql: "INSERT INTO servedJob (jobId, owner, folder, feedSecret, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [job.id, served.owner, served.folder, served.feedSecret, served.createdAt])
            return job
        }
    }

    public func servedJobs() async throws -> [ServedJobRecord] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM servedJob ORDER BY createdAt, jobId").map(Self.servedJob) }
    }

    public func servedJob(jobId: Int64) async throws -> ServedJobRecord? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM servedJob WHERE jobId = ?", arguments: [jobId]).map(Self.servedJob) }
    }

    public func servedJob(feedSecret: String) async throws -> ServedJobRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM servedJob WHERE feedSecret = ?", arguments: [feedSecret]).map(Self.servedJob)
        }
    }

    public func updateServedJob(_ job: ServedJobRecord) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE servedJob SET folder = ?, feedSecret = ? WHERE jobId = ?",
                           arguments: [job.folder, job.feedSecret, job.jobId])
        }
    }

    public func deleteServedJob(jobId: Int64) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM servedJob WHERE jobId = ?", arguments: [jobId])
            try db.execute(sql: "DELETE FROM job WHERE id = ?", arguments: [jobId])
        }
    }

    public func job(id: Int64) async throws -> JobRecord? {
        try await read { db in try JobRecord.fetchOne(db, key: id) }
    }

    public func run(id: Int64) async throws -> RunRecord? {
        try await read { db in try RunRecord.fetchOne(db, key: id) }
    }

    public func requestCancel(runId: Int64, reason: String) async throws {
        try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO runCancel (runId, reason, requestedAt) VALUES (?, ?, ?)",
                           arguments: [runId, reason, Date()])
        }
    }

    public func cancelRequests(runIds: [Int64]) async throws -> [Int64: String] {
        guard !runIds.isEmpty else { return [:] }
        return try await read { db in
            let marks = runIds.map { _ in "?" }.joined(separator: ",")
            let rows = try Row.fetchAll(db, sql: "SELECT runId, reason FROM runCancel WHERE runId IN (\(marks))",
                                        arguments: StatementArguments(runIds))
            return Dictionary(rows.map { ($0["runId"] as Int64, $0["reason"] as String) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static func token(_ row: Row) -> APITokenRecord {
        APITokenRecord(name: row["name"], owner: row["owner"], hash: row["hash"], admin: row["admin"], createdAt: row["createdAt"])
    }

    static func servedJob(_ row: Row) -> ServedJobRecord {
        ServedJobRecord(jobId: row["jobId"], owner: row["owner"], folder: row["folder"], feedSecret: row["feedSecret"],
                        createdAt: row["createdAt"])
    }
}
