import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// ``PostgresJobStore``'s ``StoreTransaction``: row locks order the processes of every host;
/// chunk leases lapse by the server's clock (hosts' clocks differ).
extension PostgresTransaction: StoreTransaction {
    package func lockedLease(jobId: Int64) async throws -> LeaseRecord? {
        // The job's row, locked, orders the processes taking its lease at once.
        try await execute("SELECT id FROM job WHERE id = \(jobId) FOR NO KEY UPDATE")
        return try await execute("SELECT * FROM lease WHERE \"jobId\" = \(jobId)").first.map(LeaseRecord.init(row:))
    }

    package func leases(expiringAfter date: Date) async throws -> [LeaseRecord] {
        try await execute("SELECT * FROM lease WHERE \"expiresAt\" > \(date)").map(LeaseRecord.init(row:))
    }

    package func saveLease(_ lease: LeaseRecord) async throws {
        try await execute("""
            INSERT INTO lease ("jobId", "runId", holder, "acquiredAt", "heartbeatAt", "expiresAt")
            VALUES (\(lease.jobId), \(lease.runId), \(lease.holder), \(lease.acquiredAt), \(lease.heartbeatAt), \(lease.expiresAt))
            ON CONFLICT ("jobId") DO UPDATE SET "runId" = EXCLUDED."runId", holder = EXCLUDED.holder, "acquiredAt" = EXCLUDED."acquiredAt",
                "heartbeatAt" = EXCLUDED."heartbeatAt", "expiresAt" = EXCLUDED."expiresAt"
            """)
    }

    package func runningRuns(jobId: Int64) async throws -> [RunRecord] {
        try await execute("SELECT * FROM run WHERE \"jobId\" = \(jobId) AND state = 'running' ORDER BY id FOR UPDATE").map(RunRecord.init(row:))
    }

    package func saveRun(_ run: RunRecord) async throws {
        try await PostgresJobStore.update(run, self)
    }

    package func lockedChunk(id: Int64) async throws -> ChunkTask? {
        try await execute("SELECT * FROM \"chunkTask\" WHERE id = \(id) FOR UPDATE").first.map(ChunkTask.init(row:))
    }

    package func lapsedChunks() async throws -> [ChunkTask] {
        try await execute("""
            SELECT * FROM "chunkTask" WHERE state = 'claimed' AND "leaseExpiresAt" < now() AND attempts >= "maxAttempts"
            FOR UPDATE SKIP LOCKED
            """).map(ChunkTask.init(row:))
    }

    package func endAttempt(_ chunk: ChunkTask, state: ChunkTask.State, error: String, worker: String?) async throws {
        try await execute("""
            UPDATE "chunkTask" SET state = \(state.rawValue), error = \(error), worker = \(worker), "leaseExpiresAt" = NULL
            WHERE id = \(chunk.id)
            """)
        try await notifyQueue(runId: chunk.runId)
    }
}
