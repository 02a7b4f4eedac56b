import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// `lectern serve`'s records (``ServiceLedger``) in the PostgreSQL store: every `serve` process
/// naming the store sees the same tokens, jobs and cancel requests.
extension PostgresJobStore {
    public func addToken(_ token: APITokenRecord) async throws {
        try await write { db in
            let inserted = try await db.changes("""
                INSERT INTO "apiToken" (name, owner, hash, admin, "createdAt")
                VALUES (\(token.name), \(token.owner), \(token.hash), \(token.admin), \(token.createdAt)) ON CONFLICT (name) DO NOTHING
                """)
            if inserted == 0 { throw StoreError("a token named \(token.name) exists already") }
        }
    }

    public func token(hash: String) async throws -> APITokenRecord? {
        try await read { db in try await db.execute("SELECT * FROM \"apiToken\" WHERE hash = \(hash)").first.map(Self.token) }
    }

    public func tokens() async throws -> [APITokenRecord] {
        try await read { db in try await db.execute("SELECT * FROM \"apiToken\" ORDER BY name").map(Self.token) }
    }

    public func revokeToken(name: String) async throws -> Bool {
        try await write { db in try await db.changes("DELETE FROM \"apiToken\" WHERE name = \(name)") > 0 }
    }

    public func addServedJob(_ served: ServedJobRecord, manifestPath: String, name: String, title: String?) async throws -> JobRecord {
        try await write { db in
            guard let row = try await db.execute("""
                INSERT INTO job (name, "manifestPath", title, "createdAt") VALUES (\(name), \(manifestPath), \(title), \(served.createdAt))
                ON CONFLICT ("manifestPath") DO NOTHING RETURNING *
                """).first else {
                throw StoreError("the job store has a job for \(manifestPath) already")
            }
            let job = try JobRecord(row: row)
            try await db.execute("""
                INSERT INTO "servedJob" ("jobId", owner, folder, "feedSecret", "createdAt")
                VALUES (\(job.id!), \(served.owner), \(served.folder), \(served.feedSecret), \(served.createdAt))
                """)
            return job
        }
    }

    public func servedJobs() async throws -> [ServedJobRecord] {
        try await read { db in try await db.execute("SELECT * FROM \"servedJob\" ORDER BY \"createdAt\", \"jobId\"").map(Self.servedJob) }
    }

    public func servedJob(jobId: Int64) async throws -> ServedJobRecord? {
        try await read { db in try await db.execute("SELECT * FROM \"servedJob\" WHERE \"jobId\" = \(jobId)").first.map(Self.servedJob) }
    }

    public func servedJob(feedSecret: String) async throws -> ServedJobRecord? {
        try await read { db in
            try await db.execute("SELECT * FROM \"servedJob\" WHERE \"feedSecret\" = \(feedSecret)").first.map(Self.servedJob)
        }
    }

    public func updateServedJob(_ job: ServedJobRecord) async throws {
        try await write { db in
            try await db.execute("UPDATE \"servedJob\" SET folder = \(job.folder), \"feedSecret\" = \(job.feedSecret) WHERE \"jobId\" = \(job.jobId)")
        }
    }

    public func deleteServedJob(jobId: Int64) async throws {
        try await write { db in
            try await db.execute("DELETE FROM \"servedJob\" WHERE \"jobId\" = \(jobId)")
            try await db.execute("DELETE FROM job WHERE id = \(jobId)")
        }
    }

    public func job(id: Int64) async throws -> JobRecord? {
        try await read { db in try await db.execute("SELECT * FROM job WHERE id = \(id)").first.map(JobRecord.init(row:)) }
    }

    public func run(id: Int64) async throws -> RunRecord? {
        try await read { db in try await db.execute("SELECT * FROM run WHERE id = \(id)").first.map(RunRecord.init(row:)) }
    }

    public func requestCancel(runId: Int64, reason: String) async throws {
        try await write { db in
            try await db.execute("""
                INSERT INTO "runCancel" ("runId", reason, "requestedAt") VALUES (\(runId), \(reason), \(Date())) ON CONFLICT DO NOTHING
                """)
        }
    }

    public func cancelRequests(runIds: [Int64]) async throws -> [Int64: String] {
        guard !runIds.isEmpty else { return [:] }
        return try await read { db in
            var found: [Int64: String] = [:]
            for row in try await db.execute("SELECT \"runId\", reason FROM \"runCancel\" WHERE \"runId\" = ANY(\(runIds))") {
                found[try row.get("runId")] = try row.get("reason")
            }
            return found
        }
    }

    static func token(_ row: PostgresRandomAccessRow) throws -> APITokenRecord {
        APITokenRecord(name: try row.get("name"), owner: try row.get("owner"), hash: try row.get("hash"), admin: try row.get("admin"),
                       createdAt: try row.get("createdAt"))
    }

    static func servedJob(_ row: PostgresRandomAccessRow) throws -> ServedJobRecord {
        ServedJobRecord(jobId: try row.get("jobId"), owner: try row.get("owner"), folder: try row.get("folder"),
                        feedSecret: try row.get("feedSecret"), createdAt: try row.get("createdAt"))
    }
}
