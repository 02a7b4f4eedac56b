import Foundation
import LecternCore
import LecternStore
import PostgresNIO

/// Reading the store's records from PostgreSQL rows, by column name.
extension PostgresRandomAccessRow {
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    /// A column holding a closed set's raw value (a run's `state` or `trigger`); an unknown value is an error.
    func enumValue<T: RawRepresentable>(_ column: String, as type: T.Type = T.self) throws -> T where T.RawValue == String {
        let text = try get(column, as: String.self)
        guard let value = T(rawValue: text) else { throw StoreError("the job store holds an unknown \(column) \"\(text)\"") }
        return value
    }
}

extension JobRecord {
    init(row: PostgresRandomAccessRow) throws {
        self.init(id: try row.get("id"), name: try row.get("name"), manifestPath: try row.get("manifestPath"),
                  title: try row.get("title"), createdAt: try row.get("createdAt"), manifestError: try row.get("manifestError"))
    }
}

extension RunRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(id: try r.get("id"), jobId: try r.get("jobId"), trigger: try r.enumValue("trigger"), state: try r.enumValue("state"),
                  startedAt: try r.get("startedAt"), endedAt: try r.get("endedAt"), error: try r.get("error"),
                  pid: Int32(truncatingIfNeeded: try r.get("pid", as: Int64.self)),
                  chapterCount: try r.get("chapterCount"), paragraphCount: try r.get("paragraphCount"),
                  wordCount: try r.get("wordCount"), skippedCount: try r.get("skippedCount"), wordsDone: try r.get("wordsDone"),
                  audioMsDone: try r.get("audioMsDone"), durationMs: try r.get("durationMs"), sampleCount: try r.get("sampleCount"),
                  mp3Path: try r.get("mp3Path"), timingsPath: try r.get("timingsPath"), holder: try r.get("holder"),
                  resumesRunId: try r.get("resumesRunId"), forced: try r.get("forced"), chunkCount: try r.get("chunkCount"),
                  chunksRendered: try r.get("chunksRendered"), chunksReused: try r.get("chunksReused"),
                  bookHash: try r.get("bookHash"), outputStamp: try r.get("outputStamp"),
                  upToDateRuns: try r.get("upToDateRuns"), lastUpToDateAt: try r.get("lastUpToDateAt"))
    }
}

extension ChapterRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(runId: try r.get("runId"), number: try r.get("number"), title: try r.get("title"),
                  contentHash: try r.get("contentHash"), startMs: try r.get("startMs"), durationMs: try r.get("durationMs"),
                  sampleCount: try r.get("sampleCount"), startSample: try r.get("startSample"), textHash: try r.get("textHash"),
                  voiceHash: try r.get("voiceHash"), pauseHash: try r.get("pauseHash"), settingsHash: try r.get("settingsHash"),
                  chunkCount: try r.get("chunkCount"), chunksRendered: try r.get("chunksRendered"), change: try r.get("change"))
        id = try r.get("id")
    }
}

extension CachedChunkRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(key: try r.get("key"), bytes: try r.get("bytes"), audioFrames: try r.get("audioFrames"),
                  result: try r.get("result"), createdAt: try r.get("createdAt"), renderedByRunId: try r.get("renderedByRunId"),
                  sha256: try r.get("sha256"))
    }
}

extension RunChunkRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(runId: try r.get("runId"), position: try r.get("position"), key: try r.get("key"),
                  chapterNumber: try r.get("chapterNumber"), state: try r.enumValue("state"))
    }
}

extension LeaseRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(jobId: try r.get("jobId"), runId: try r.get("runId"), holder: try r.get("holder"),
                  acquiredAt: try r.get("acquiredAt"), heartbeatAt: try r.get("heartbeatAt"), expiresAt: try r.get("expiresAt"))
    }
}

extension ScheduleRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(jobId: try r.get("jobId"), expression: try r.get("expression"), timeZone: try r.get("timeZone"),
                  watch: try r.get("watch"), firstSeen: try r.get("firstSeen"), servedThrough: try r.get("servedThrough"),
                  watchVersion: try r.get("watchVersion"), watchClaimant: try r.get("watchClaimant"),
                  servedVersion: try r.get("servedVersion"), resumedRunId: try r.get("resumedRunId"), failures: try r.get("failures"),
                  lastFailureAt: try r.get("lastFailureAt"), lastError: try r.get("lastError"),
                  retriedFailures: try r.get("retriedFailures"), nextDue: try r.get("nextDue"), updatedAt: try r.get("updatedAt"))
    }
}

extension ChunkTask {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(runId: try r.get("runId"), key: try r.get("key"), request: try r.get("request"), priority: try r.get("priority"),
                  ordinal: try r.get("ordinal"))
        id = try r.get("id")
        state = try r.enumValue("state")
        worker = try r.get("worker")
        leaseExpiresAt = try r.get("leaseExpiresAt")
        attempts = try r.get("attempts")
        error = try r.get("error")
        maxAttempts = try r.get("maxAttempts")
    }
}

extension WorkerRecord {
    init(row r: PostgresRandomAccessRow) throws {
        self.init(id: try r.get("id"), host: try r.get("host"), pid: Int32(truncatingIfNeeded: try r.get("pid", as: Int64.self)),
                  slots: try r.get("slots"), startedAt: try r.get("startedAt"), heartbeatAt: try r.get("heartbeatAt"),
                  chunk: try r.get("chunk"), chunksDone: try r.get("chunksDone"),
                  leaseSeconds: try r.get("leaseSeconds"))
    }
}
