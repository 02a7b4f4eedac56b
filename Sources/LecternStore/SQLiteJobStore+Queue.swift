import Foundation
import GRDB

extension SQLiteJobStore {
    static func registerQueueMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5") { db in
            // Many hosts (#15): the chunk queue, its workers, and each cached chunk's content hash.
            try db.create(table: "chunkTask") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("run", onDelete: .cascade).notNull()
                t.column("key", .text).notNull()
                t.column("request", .blob).notNull()
                t.column("priority", .integer).notNull().defaults(to: 0)
                t.column("ordinal", .integer).notNull()
                t.column("state", .text).notNull()
                t.column("worker", .text)
                t.column("leaseExpiresAt", .datetime)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("error", .text)
            }
            try db.create(index: "chunkTask_claim", on: "chunkTask", columns: ["state", "priority", "ordinal"])
            try db.create(table: "worker") { t in
                t.primaryKey("id", .text)
                t.column("host", .text).notNull()
                t.column("pid", .integer).notNull()
                t.column("slots", .integer).notNull()
                t.column("startedAt", .datetime).notNull()
                t.column("heartbeatAt", .datetime).notNull()
                t.column("chunk", .text)
                t.column("chunksDone", .integer).notNull().defaults(to: 0)
            }
            try db.alter(table: "cachedChunk") { t in
                t.add(column: "sha256", .text)
            }
        }
        migrator.registerMigration("v6") { db in
            // Bounded retries (#22): each chunk's attempt limit, each worker's lease period.
            try db.alter(table: "chunkTask") { t in
                t.add(column: "maxAttempts", .integer).notNull().defaults(to: ChunkTask.defaultMaxAttempts)
            }
            try db.alter(table: "worker") { t in
                t.add(column: "leaseSeconds", .double).notNull().defaults(to: 30)
            }
        }
    }

    public func publishChunks(_ tasks: [ChunkTask]) async throws {
        try await write { db in
            for var task in tasks { try task.insert(db) }
        }
    }

    public func claimChunk(worker: String, leaseDuration: TimeInterval, runId: Int64?) async throws -> ChunkTask? {
        try await writing { transaction in
            try await Self.failLapsedChunks(transaction)
            return try await transaction.access { db in
                let now = Date()
                return try ChunkTask.fetchOne(db, sql: """
                    UPDATE chunkTask SET state = 'claimed', worker = ?, leaseExpiresAt = ?, attempts = attempts + 1
                    WHERE id = (SELECT t.id FROM chunkTask t JOIN run r ON r.id = t.runId
                                WHERE r.state = 'running' AND (t.state = 'queued' OR (t.state = 'claimed' AND t.leaseExpiresAt < ?))
                                  AND (? IS NULL OR t.runId = ?)
                                ORDER BY t.priority DESC, t.ordinal, t.id LIMIT 1)
                    RETURNING *
                    """, arguments: [worker, now.addingTimeInterval(leaseDuration), now, runId, runId])
            }
        }
    }

    public func renewChunkLease(taskId: Int64, worker: String, leaseDuration: TimeInterval) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE chunkTask SET leaseExpiresAt = ? WHERE id = ? AND worker = ? AND state = 'claimed'",
                           arguments: [Date().addingTimeInterval(leaseDuration), taskId, worker])
            return db.changesCount == 1
        }
    }

    public func completeChunk(taskId: Int64, worker: String, entry: CachedChunkRecord) async throws -> Bool {
        try await write { db in
            guard let task = try ChunkTask.fetchOne(db, key: taskId), task.state == .queued || task.state == .claimed else { return false }
            try entry.insert(db, onConflict: .ignore)
            try db.execute(sql: "UPDATE chunkTask SET state = 'done', worker = ?, leaseExpiresAt = NULL WHERE id = ?",
                           arguments: [worker, taskId])
            try db.execute(sql: "UPDATE runChunk SET state = 'rendered' WHERE runId = ? AND key = ? AND state = 'pending'",
                           arguments: [task.runId, task.key])
            try db.execute(sql: "UPDATE worker SET chunksDone = chunksDone + 1 WHERE id = ?", arguments: [worker])
            return true
        }
    }

    public func failChunk(taskId: Int64, worker: String, error: String) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE chunkTask SET state = 'failed', error = ?, leaseExpiresAt = NULL WHERE id = ? AND state = 'claimed' AND worker = ?",
                           arguments: [error, taskId, worker])
        }
    }

    public func releaseChunk(taskId: Int64, worker: String) async throws {
        try await write { db in
            try db.execute(sql: """
                UPDATE chunkTask SET state = 'queued', worker = NULL, leaseExpiresAt = NULL, attempts = max(0, attempts - 1)
                WHERE id = ? AND state = 'claimed' AND worker = ?
                """, arguments: [taskId, worker])
        }
    }

    public func retryChunk(taskId: Int64, worker: String, error: String) async throws -> ChunkTask.State? {
        try await failAttempt(taskId: taskId, worker: worker, error: error)
    }

    public func failExhaustedChunks() async throws -> Int {
        try await failLapsedChunks()
    }

    public func chunkTasks(runId: Int64) async throws -> [ChunkTask] {
        try await read { db in try ChunkTask.filter(ChunkTask.Columns.runId == runId).order(ChunkTask.Columns.ordinal, ChunkTask.Columns.id).fetchAll(db) }
    }

    public func finishedChunks(runId: Int64) async throws -> [ChunkTask] {
        try await read { db in
            try ChunkTask.filter(ChunkTask.Columns.runId == runId && [ChunkTask.State.done, .failed].contains(ChunkTask.Columns.state))
                .order(ChunkTask.Columns.ordinal, ChunkTask.Columns.id).fetchAll(db)
        }
    }

    public func removeChunks(ids: [Int64]) async throws {
        try await write { db in
            for start in stride(from: 0, to: ids.count, by: 500) {
                _ = try ChunkTask.deleteAll(db, keys: Array(ids[start..<min(ids.count, start + 500)]))
            }
        }
    }

    public func withdrawChunks(runId: Int64) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM chunkTask WHERE runId = ?", arguments: [runId]) }
    }

    public func registerWorker(_ worker: WorkerRecord) async throws {
        try await write { db in try worker.save(db) }
    }

    public func workerHeartbeat(id: String, chunk: String?) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE worker SET heartbeatAt = ?, chunk = ? WHERE id = ?", arguments: [Date(), chunk, id])
            return db.changesCount == 1
        }
    }

    public func removeWorker(id: String) async throws {
        try await write { db in _ = try WorkerRecord.deleteOne(db, key: id) }
    }

    public func workers() async throws -> [WorkerRecord] {
        try await read { db in try WorkerRecord.order(WorkerRecord.Columns.host, WorkerRecord.Columns.pid).fetchAll(db) }
    }

    public func queueDepth() async throws -> [Int64: QueueDepth] {
        try await read { db in
            var depth = QueueDepth.byRun(try Row.fetchAll(db, sql: """
                SELECT t.runId, t.state, count(*) AS n FROM chunkTask t JOIN run r ON r.id = t.runId
                WHERE r.state = 'running' GROUP BY t.runId, t.state
                """).map { (runId: $0["runId"], state: $0["state"], count: $0["n"]) })
            for row in try Row.fetchAll(db, sql: """
                SELECT t.runId, t.error FROM chunkTask t JOIN run r ON r.id = t.runId
                WHERE r.state = 'running' AND t.error IS NOT NULL AND t.state IN ('queued', 'claimed') ORDER BY t.attempts, t.id
                """) {
                depth[row["runId"]]?.lastError = row["error"]
            }
            return depth
        }
    }

    /// SQLite has no notifications: waits out the timeout (callers poll).
    public func waitForQueueChange(timeout: TimeInterval) async {
        try? await Task.sleep(for: .seconds(min(timeout, 0.2)))
    }
}
