import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore {
    public func cachedChunks(keys: Set<String>) async throws -> [String: CachedChunkRecord] {
        guard !keys.isEmpty else { return [:] }
        return try await read { db in
            var found: [String: CachedChunkRecord] = [:]
            for row in try await db.execute("SELECT * FROM \"cachedChunk\" WHERE key = ANY(\(Array(keys)))") {
                let record = try CachedChunkRecord(row: row)
                found[record.key] = record
            }
            return found
        }
    }

    public func planChunks(_ chunks: [RunChunkRecord], for run: RunRecord) async throws {
        try await write { db in
            try await db.execute("DELETE FROM \"runChunk\" WHERE \"runId\" = \(run.id)")
            try await db.insert(into: "runChunk", columns: ["runId", "position", "key", "chapterNumber", "state"], rows: chunks) { c, b in
                b.append(c.runId); b.append(c.position); b.append(c.key); b.append(c.chapterNumber); b.append(c.state.rawValue)
            }
            try await Self.update(run, db)
        }
    }

    public func recordRendered(_ entry: CachedChunkRecord, runId: Int64, position: Int) async throws {
        try await write { db in
            try await Self.save(entry, db, replacing: true)
            try await db.execute("""
                UPDATE "runChunk" SET state = \(RunChunkRecord.State.rendered.rawValue) WHERE "runId" = \(runId) AND position = \(position)
                """)
        }
    }

    /// Inserts a cache entry; an entry already there under its key is replaced, or kept.
    static func save(_ entry: CachedChunkRecord, _ db: PostgresTransaction, replacing: Bool) async throws {
        let onConflict = replacing ? """
             ON CONFLICT (key) DO UPDATE SET bytes = EXCLUDED.bytes, "audioFrames" = EXCLUDED."audioFrames", result = EXCLUDED.result,
                "createdAt" = EXCLUDED."createdAt", "renderedByRunId" = EXCLUDED."renderedByRunId", sha256 = EXCLUDED.sha256
            """ : " ON CONFLICT (key) DO NOTHING"
        try await db.insert(into: "cachedChunk", columns: ["key", "bytes", "audioFrames", "result", "createdAt", "renderedByRunId", "sha256"],
                      rows: [entry], suffix: onConflict) { e, b in
            b.append(e.key); b.append(e.bytes); b.append(e.audioFrames); try b.append(e.result); b.append(e.createdAt)
            b.append(e.renderedByRunId); b.append(e.sha256)
        }
    }

    public func forgetChunk(key: String) async throws {
        try await write { db in try await db.execute("DELETE FROM \"cachedChunk\" WHERE key = \(key)") }
    }

    public func runChunks(runId: Int64) async throws -> [RunChunkRecord] {
        try await read { db in
            try await db.execute("SELECT * FROM \"runChunk\" WHERE \"runId\" = \(runId) ORDER BY position").map(RunChunkRecord.init(row:))
        }
    }

    public func referencedChunkKeys() async throws -> Set<String> {
        try await read { db in
            await Set(try db.execute("""
                SELECT DISTINCT rc.key FROM "runChunk" rc JOIN run r ON r.id = rc."runId"
                WHERE r.id >= COALESCE((SELECT MAX(s.id) FROM run s WHERE s."jobId" = r."jobId" AND s.state = 'succeeded'), 0)
                """).map { try $0[0].decode(String.self) })
        }
    }

    public func allCachedChunks() async throws -> [(key: String, bytes: Int)] {
        try await read { db in
            try await db.execute("SELECT key, bytes FROM \"cachedChunk\"").map { (try $0["key"].decode(String.self), try $0["bytes"].decode(Int.self)) }
        }
    }

    public func forgetChunks(keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await write { db in try await db.execute("DELETE FROM \"cachedChunk\" WHERE key = ANY(\(keys))") }
    }
}
