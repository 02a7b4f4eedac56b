import Foundation
import GRDB

/// ``SQLiteJobStore``'s ``StoreTransaction``: one GRDB transaction. SQLite has a single writer,
/// so what a write transaction reads stays as it read it until it ends.
package struct SQLiteTransaction: StoreTransaction {
    let db: Database

    package func lockedLease(jobId: Int64) throws -> LeaseRecord? {
        try LeaseRecord.fetchOne(db, key: jobId)
    }

    package func leases(expiringAfter date: Date) throws -> [LeaseRecord] {
        try LeaseRecord.filter(Column("expiresAt") > date).fetchAll(db)
    }

    package func saveLease(_ lease: LeaseRecord) throws {
        try lease.save(db)
    }

    package func runningRuns(jobId: Int64) throws -> [RunRecord] {
        try RunRecord.filter(Column("jobId") == jobId && Column("state") == RunState.running.rawValue).order(Column("id")).fetchAll(db)
    }

    package func saveRun(_ run: RunRecord) throws {
        try run.update(db)
    }

    package func lockedChunk(id: Int64) throws -> ChunkTask? {
        try ChunkTask.fetchOne(db, key: id)
    }

    /// Lapsed by this host's clock (the store's only host).
    package func lapsedChunks() throws -> [ChunkTask] {
        try ChunkTask.fetchAll(db, sql: """
            SELECT * FROM chunkTask WHERE state = 'claimed' AND leaseExpiresAt < ? AND attempts >= maxAttempts
            """, arguments: [Date()])
    }

    package func endAttempt(_ chunk: ChunkTask, state: ChunkTask.State, error: String, worker: String?) throws {
        try db.execute(sql: "UPDATE chunkTask SET state = ?, error = ?, worker = ?, leaseExpiresAt = NULL WHERE id = ?",
                       arguments: [state, error, worker, chunk.id])
    }
}
