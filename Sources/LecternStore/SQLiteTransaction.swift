import Foundation
import GRDB

/// ``SQLiteJobStore``'s ``StoreTransaction``: one transaction on the pool's writer connection,
/// held open across the rules' steps (`BEGIN IMMEDIATE` … `COMMIT`) while the store's
/// ``AsyncGate`` keeps this process's other writes out. SQLite has a single writer, so what a
/// write transaction reads stays as it read it until it ends.
package struct SQLiteTransaction: StoreTransaction {
    let store: SQLiteJobStore

    /// Runs `body` on the writer connection, inside the open transaction.
    func access<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await store.mapping("write") { try await store.pool.writeWithoutTransaction(body) }
    }

    package func lockedLease(jobId: Int64) async throws -> LeaseRecord? {
        try await access { db in try LeaseRecord.fetchOne(db, key: jobId) }
    }

    package func leases(expiringAfter date: Date) async throws -> [LeaseRecord] {
        try await access { db in try LeaseRecord.filter(LeaseRecord.Columns.expiresAt > date).fetchAll(db) }
    }

    package func saveLease(_ lease: LeaseRecord) async throws {
        try await access { db in try lease.save(db) }
    }

    package func runningRuns(jobId: Int64) async throws -> [RunRecord] {
        try await access { db in
            try RunRecord.filter(RunRecord.Columns.jobId == jobId && RunRecord.Columns.state == RunState.running).order(RunRecord.Columns.id).fetchAll(db)
        }
    }

    package func saveRun(_ run: RunRecord) async throws {
        try await access { db in try run.update(db) }
    }

    package func lockedChunk(id: Int64) async throws -> ChunkTask? {
        try await access { db in try ChunkTask.fetchOne(db, key: id) }
    }

    /// Lapsed by this host's clock (the store's only host).
    package func lapsedChunks() async throws -> [ChunkTask] {
        try await access { db in
            try ChunkTask.fetchAll(db, sql: """
                SELECT * FROM chunkTask WHERE state = 'claimed' AND leaseExpiresAt < ? AND attempts >= maxAttempts
                """, arguments: [Date()])
        }
    }

    package func endAttempt(_ chunk: ChunkTask, state: ChunkTask.State, error: String, worker: String?) async throws {
        try await access { db in
            try db.execute(sql: "UPDATE chunkTask SET state = ?, error = ?, worker = ?, leaseExpiresAt = NULL WHERE id = ?",
                           arguments: [state, error, worker, chunk.id])
        }
    }
}
