import Foundation
import GRDB

extension SQLiteJobStore {
    /// The cache entries among `keys` (any that the cache does not have are left out).
    public func cachedChunks(keys: Set<String>) async throws -> [String: CachedChunkRecord] {
        try await read { db in
            var found: [String: CachedChunkRecord] = [:]
            // SQLite limits bound parameters; ask in batches.
            let all = Array(keys)
            for start in stride(from: 0, to: all.count, by: 500) {
                let batch = Array(all[start..<min(all.count, start + 500)])
                for record in try CachedChunkRecord.filter(keys: batch).fetchAll(db) { found[record.key] = record }
            }
            return found
        }
    }

    /// Records a run's chunks, in book order, as the run plans them.
    public func planChunks(_ chunks: [RunChunkRecord], for run: RunRecord) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM runChunk WHERE runId = ?", arguments: [run.id])
            for chunk in chunks { try chunk.insert(db) }
            try run.update(db)
        }
    }

    /// Records a chunk rendered by `run`: the cache entry (whose file is already durable) and the
    /// run's chunk row, in one transaction.
    public func recordRendered(_ entry: CachedChunkRecord, runId: Int64, position: Int) async throws {
        try await write { db in
            try entry.save(db)
            try db.execute(sql: "UPDATE runChunk SET state = ? WHERE runId = ? AND position = ?",
                           arguments: [RunChunkRecord.State.rendered.rawValue, runId, position])
        }
    }

    /// Forgets a cache entry whose file is missing or damaged.
    public func forgetChunk(key: String) async throws {
        try await write { db in _ = try CachedChunkRecord.deleteOne(db, key: key) }
    }

    /// A run's chunks in book order.
    public func runChunks(runId: Int64) async throws -> [RunChunkRecord] {
        try await read { db in try RunChunkRecord.filter(RunChunkRecord.Columns.runId == runId).order(RunChunkRecord.Columns.position).fetchAll(db) }
    }

    /// The newest run of a job in one of `states`.
    public func latestRun(jobId: Int64, states: Set<RunState>) async throws -> RunRecord? {
        try await read { db in
            try RunRecord.filter(RunRecord.Columns.jobId == jobId && states.contains(RunRecord.Columns.state))
                .order(RunRecord.Columns.id.desc).fetchOne(db)
        }
    }

    /// Cache keys that some job still needs: every key of each job's newest successful run, and of
    /// every run newer than that one (running, or stopped and waiting to be resumed).
    public func referencedChunkKeys() async throws -> Set<String> {
        try await read { db in
            let keys = try String.fetchAll(db, sql: """
                SELECT DISTINCT rc.key FROM runChunk rc JOIN run r ON r.id = rc.runId
                WHERE r.id >= COALESCE((SELECT MAX(s.id) FROM run s WHERE s.jobId = r.jobId AND s.state = 'succeeded'), 0)
                """)
            return Set(keys)
        }
    }

    /// Every cache entry (key and size).
    public func allCachedChunks() async throws -> [(key: String, bytes: Int)] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT key, bytes FROM cachedChunk").map { ($0["key"], $0["bytes"]) }
        }
    }

    /// Removes cache entries from the store (their files are the caller's).
    public func forgetChunks(keys: [String]) async throws {
        try await write { db in
            for start in stride(from: 0, to: keys.count, by: 500) {
                _ = try CachedChunkRecord.deleteAll(db, keys: Array(keys[start..<min(keys.count, start + 500)]))
            }
        }
    }
}
