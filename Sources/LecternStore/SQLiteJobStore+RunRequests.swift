import Foundation
import GRDB

/// `lectern serve`'s run requests (``RunRequestRecord``) in the SQLite store.
extension SQLiteJobStore {
    static func registerRunRequestMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9") { db in
            // Runs of `lectern serve` queued in the store (#38): they outlive the process, in order.
            try db.create(table: "runRequest") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("jobId", .integer).notNull().indexed().references("job", onDelete: .cascade)
                t.column("requestedAt", .datetime).notNull()
                t.column("holder", .text)
                t.column("claimedAt", .datetime)
            }
        }
    }

    public func requestRun(jobId: Int64) async throws -> RunRequestOutcome { try await queueRun(jobId: jobId) }

    public func editIdleJob(jobId: Int64, _ edit: @Sendable () throws -> Void) async throws -> String? {
        try await editIdle(jobId: jobId, edit)
    }

    public func deleteIdleServedJob(jobId: Int64) async throws -> String? { try await deleteIdle(jobId: jobId) }

    public func claimRunRequest(holder: ProcessIdentity) async throws -> RunRequestRecord? {
        // Asked every second by every `serve`: most often nothing waits, and a read takes no lock.
        guard try await read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM runRequest WHERE holder IS NULL)") ?? false })
        else { return nil }
        return try await write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM runRequest WHERE holder IS NULL ORDER BY id LIMIT 1") else { return nil }
            try db.execute(sql: "UPDATE runRequest SET holder = ?, claimedAt = ? WHERE id = ?", arguments: [holder.description, Date(), id])
            return try Row.fetchOne(db, sql: "SELECT * FROM runRequest WHERE id = ?", arguments: [id]).map(Self.runRequest)
        }
    }

    public func runRequests() async throws -> [RunRequestRecord] {
        try await read { db in try Row.fetchAll(db, sql: "SELECT * FROM runRequest ORDER BY id").map(Self.runRequest) }
    }

    public func endRunRequest(id: Int64) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM runRequest WHERE id = ?", arguments: [id]) }
    }

    public func withdrawRunRequest(jobId: Int64) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM runRequest WHERE jobId = ? AND holder IS NULL", arguments: [jobId])
            return db.changesCount > 0
        }
    }

    public func releaseRunRequest(id: Int64, holder: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE runRequest SET holder = NULL, claimedAt = NULL WHERE id = ? AND holder = ?", arguments: [id, holder])
            return db.changesCount > 0
        }
    }

    static func runRequest(_ row: Row) -> RunRequestRecord {
        RunRequestRecord(id: row["id"], jobId: row["jobId"], requestedAt: row["requestedAt"], holder: row["holder"], claimedAt: row["claimedAt"])
    }
}

extension SQLiteTransaction {
    package func runRequestCount(jobId: Int64) async throws -> Int {
        try await access { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM runRequest WHERE jobId = ?", arguments: [jobId]) ?? 0 }
    }

    package func deleteServedJobRows(jobId: Int64) async throws {
        try await access { db in
            try db.execute(sql: "DELETE FROM servedJob WHERE jobId = ?", arguments: [jobId])
            try db.execute(sql: "DELETE FROM job WHERE id = ?", arguments: [jobId])
        }
    }

    package func addRunRequest(jobId: Int64, at date: Date) async throws -> RunRequestRecord {
        try await access { db in
            try db.execute(sql: "INSERT INTO runRequest (jobId, requestedAt) VALUES (?, ?)", arguments: [jobId, date])
            return RunRequestRecord(id: db.lastInsertedRowID, jobId: jobId, requestedAt: date, holder: nil, claimedAt: nil)
        }
    }
}
