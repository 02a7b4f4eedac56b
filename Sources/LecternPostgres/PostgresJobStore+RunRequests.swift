import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// `lectern serve`'s run requests (``RunRequestRecord``) in the PostgreSQL store: every `serve`
/// on the store takes from the same queue, oldest first, each request once.
extension PostgresJobStore {
    public func requestRun(jobId: Int64) async throws -> RunRequestOutcome { try await queueRun(jobId: jobId) }

    public func editIdleJob(jobId: Int64, _ edit: @Sendable () throws -> Void) async throws -> String? {
        try await editIdle(jobId: jobId, edit)
    }

    public func deleteIdleServedJob(jobId: Int64) async throws -> String? { try await deleteIdle(jobId: jobId) }

    public func claimRunRequest(holder: ProcessIdentity) async throws -> RunRequestRecord? {
        try await write { db in
            try await db.execute("""
                UPDATE "runRequest" SET holder = \(holder.description), "claimedAt" = \(Date())
                WHERE id = (SELECT id FROM "runRequest" WHERE holder IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING *
                """).first.map(Self.runRequest)
        }
    }

    public func runRequests() async throws -> [RunRequestRecord] {
        try await read { db in try await db.execute("SELECT * FROM \"runRequest\" ORDER BY id").map(Self.runRequest) }
    }

    public func endRunRequest(id: Int64) async throws {
        try await write { db in try await db.execute("DELETE FROM \"runRequest\" WHERE id = \(id)") }
    }

    public func withdrawRunRequest(jobId: Int64) async throws -> Bool {
        try await write { db in try await db.changes("DELETE FROM \"runRequest\" WHERE \"jobId\" = \(jobId) AND holder IS NULL") > 0 }
    }

    public func releaseRunRequest(id: Int64, holder: String) async throws -> Bool {
        try await write { db in
            try await db.changes("UPDATE \"runRequest\" SET holder = NULL, \"claimedAt\" = NULL WHERE id = \(id) AND holder = \(holder)") > 0
        }
    }

    static func runRequest(_ row: PostgresRandomAccessRow) throws -> RunRequestRecord {
        RunRequestRecord(id: try row.get("id"), jobId: try row.get("jobId"), requestedAt: try row.get("requestedAt"),
                         holder: try row.get("holder"), claimedAt: try row.get("claimedAt"))
    }
}

extension PostgresTransaction {
    package func runRequestCount(jobId: Int64) async throws -> Int {
        try await value("SELECT count(*) FROM \"runRequest\" WHERE \"jobId\" = \(jobId)", as: Int64.self).map(Int.init) ?? 0
    }

    package func deleteServedJobRows(jobId: Int64) async throws {
        try await execute("DELETE FROM \"servedJob\" WHERE \"jobId\" = \(jobId)")
        try await execute("DELETE FROM job WHERE id = \(jobId)")
    }

    package func addRunRequest(jobId: Int64, at date: Date) async throws -> RunRequestRecord {
        try PostgresJobStore.runRequest(try await one("""
            INSERT INTO "runRequest" ("jobId", "requestedAt") VALUES (\(jobId), \(date)) RETURNING *
            """))
    }
}
