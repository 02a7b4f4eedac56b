import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore {
    public func publishChunks(_ tasks: [ChunkTask]) async throws {
        guard !tasks.isEmpty else { return }
        try await write { db in
            try await db.insert(into: "chunkTask", columns: ["runId", "key", "request", "priority", "ordinal", "state", "worker",
                                                       "leaseExpiresAt", "attempts", "error", "maxAttempts"], rows: tasks) { t, b in
                b.append(t.runId); b.append(t.key); try b.append(t.request); b.append(t.priority); b.append(t.ordinal)
                b.append(t.state.rawValue); b.append(t.worker); b.append(t.leaseExpiresAt); b.append(t.attempts); b.append(t.error)
                b.append(t.maxAttempts)
            }
            for runId in Set(tasks.map(\.runId)).sorted() { try await db.notifyQueue(runId: runId) }
        }
    }

    /// Claims with `FOR UPDATE SKIP LOCKED`: concurrent claimers pass over the chunk another is
    /// claiming instead of waiting for it. The lease ends at the server's `now()` plus
    /// `leaseDuration`, and expiry is judged by the same clock.
    public func claimChunk(worker: String, leaseDuration: TimeInterval, runId: Int64?) async throws -> ChunkTask? {
        try await write { db in
            try await Self.failLapsedChunks(db)
            return try await db.execute("""
                UPDATE "chunkTask" SET state = 'claimed', worker = \(worker), "leaseExpiresAt" = now() + make_interval(secs => \(leaseDuration)),
                    attempts = attempts + 1
                WHERE id = (SELECT t.id FROM "chunkTask" t JOIN run r ON r.id = t."runId"
                            WHERE r.state = 'running' AND (t.state = 'queued' OR (t.state = 'claimed' AND t."leaseExpiresAt" < now()))
                              AND (\(runId)::bigint IS NULL OR t."runId" = \(runId))
                            ORDER BY t.priority DESC, t.ordinal, t.id LIMIT 1
                            FOR UPDATE OF t SKIP LOCKED)
                RETURNING *
                """).first.map(ChunkTask.init(row:))
        }
    }

    public func renewChunkLease(taskId: Int64, worker: String, leaseDuration: TimeInterval) async throws -> Bool {
        try await write { db in
            try await db.changes("""
                UPDATE "chunkTask" SET "leaseExpiresAt" = now() + make_interval(secs => \(leaseDuration))
                WHERE id = \(taskId) AND worker = \(worker) AND state = 'claimed'
                """) == 1
        }
    }

    public func completeChunk(taskId: Int64, worker: String, entry: CachedChunkRecord) async throws -> Bool {
        try await write { db in
            guard let row = try await db.execute("SELECT * FROM \"chunkTask\" WHERE id = \(taskId) FOR UPDATE").first else { return false }
            let task = try ChunkTask(row: row)
            guard task.state == .queued || task.state == .claimed else { return false }
            try await Self.save(entry, db, replacing: false)
            try await db.execute("UPDATE \"chunkTask\" SET state = 'done', worker = \(worker), \"leaseExpiresAt\" = NULL WHERE id = \(taskId)")
            try await db.execute("""
                UPDATE "runChunk" SET state = 'rendered' WHERE "runId" = \(task.runId) AND key = \(task.key) AND state = 'pending'
                """)
            try await db.execute("UPDATE worker SET \"chunksDone\" = \"chunksDone\" + 1 WHERE id = \(worker)")
            try await db.notifyQueue(runId: task.runId)
            return true
        }
    }

    public func failChunk(taskId: Int64, worker: String, error: String) async throws {
        try await write { db in
            for row in try await db.execute("""
                UPDATE "chunkTask" SET state = 'failed', error = \(error), "leaseExpiresAt" = NULL
                WHERE id = \(taskId) AND state = 'claimed' AND worker = \(worker) RETURNING "runId"
                """) {
                try await db.notifyQueue(runId: try row[0].decode(Int64.self))
            }
        }
    }

    public func releaseChunk(taskId: Int64, worker: String) async throws {
        try await write { db in
            for row in try await db.execute("""
                UPDATE "chunkTask" SET state = 'queued', worker = NULL, "leaseExpiresAt" = NULL, attempts = greatest(0, attempts - 1)
                WHERE id = \(taskId) AND state = 'claimed' AND worker = \(worker) RETURNING "runId"
                """) {
                try await db.notifyQueue(runId: try row[0].decode(Int64.self))
            }
        }
    }

    public func retryChunk(taskId: Int64, worker: String, error: String) async throws -> ChunkTask.State? {
        try await failAttempt(taskId: taskId, worker: worker, error: error)
    }

    public func failExhaustedChunks() async throws -> Int {
        try await failLapsedChunks()
    }

    public func chunkTasks(runId: Int64) async throws -> [ChunkTask] {
        try await read { db in
            try await db.execute("SELECT * FROM \"chunkTask\" WHERE \"runId\" = \(runId) ORDER BY ordinal, id").map(ChunkTask.init(row:))
        }
    }

    public func finishedChunks(runId: Int64) async throws -> [ChunkTask] {
        try await read { db in
            try await db.execute("""
                SELECT * FROM "chunkTask" WHERE "runId" = \(runId) AND state IN ('done', 'failed') ORDER BY ordinal, id
                """).map(ChunkTask.init(row:))
        }
    }

    public func removeChunks(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await write { db in try await db.execute("DELETE FROM \"chunkTask\" WHERE id = ANY(\(ids))") }
    }

    public func withdrawChunks(runId: Int64) async throws {
        try await write { db in try await db.execute("DELETE FROM \"chunkTask\" WHERE \"runId\" = \(runId)") }
    }

    public func registerWorker(_ worker: WorkerRecord) async throws {
        try await write { db in
            try await db.insert(into: "worker", columns: ["id", "host", "pid", "slots", "startedAt", "heartbeatAt", "chunk", "chunksDone",
                                                    "leaseSeconds"],
                          rows: [worker], suffix: """
                 ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, slots = EXCLUDED.slots,
                    "startedAt" = EXCLUDED."startedAt", "heartbeatAt" = EXCLUDED."heartbeatAt", chunk = EXCLUDED.chunk,
                    "chunksDone" = EXCLUDED."chunksDone", "leaseSeconds" = EXCLUDED."leaseSeconds"
                """) { w, b in
                b.append(w.id); b.append(w.host); b.append(Int64(w.pid)); b.append(w.slots); b.append(w.startedAt)
                b.append(w.heartbeatAt); b.append(w.chunk); b.append(w.chunksDone); b.append(w.leaseSeconds)
            }
        }
    }

    public func workerHeartbeat(id: String, chunk: String?) async throws -> Bool {
        try await write { db in try await db.changes("UPDATE worker SET \"heartbeatAt\" = \(Date()), chunk = \(chunk) WHERE id = \(id)") == 1 }
    }

    public func removeWorker(id: String) async throws {
        try await write { db in try await db.execute("DELETE FROM worker WHERE id = \(id)") }
    }

    public func workers() async throws -> [WorkerRecord] {
        try await read { db in try await db.execute("SELECT * FROM worker ORDER BY host COLLATE \"C\", pid").map(WorkerRecord.init(row:)) }
    }

    public func queueDepth() async throws -> [Int64: QueueDepth] {
        try await read { db in
            var depth = QueueDepth.byRun(try await db.execute("""
                SELECT t."runId", t.state, count(*) AS n FROM "chunkTask" t JOIN run r ON r.id = t."runId"
                WHERE r.state = 'running' GROUP BY t."runId", t.state
                """).map { (try $0.get("runId", as: Int64.self), try $0.get("state", as: String.self), try $0.get("n", as: Int.self)) })
            for row in try await db.execute("""
                SELECT t."runId", t.error FROM "chunkTask" t JOIN run r ON r.id = t."runId"
                WHERE r.state = 'running' AND t.error IS NOT NULL AND t.state IN ('queued', 'claimed') ORDER BY t.attempts, t.id
                """) {
                depth[try row.get("runId", as: Int64.self)]?.lastError = try row.get("error", as: String.self)
            }
            return depth
        }
    }

    /// Waits for a `lectern_queue` notification on the store's listening connection, or until
    /// `timeout` passes (without a listening connection, a short wait: callers poll).
    public func waitForQueueChange(timeout: TimeInterval) async {
        await listener.wait(timeout: timeout)
    }
}
