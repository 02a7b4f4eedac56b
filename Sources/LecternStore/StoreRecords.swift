import Foundation
import GRDB

/// A job: one manifest file, identified by its absolute path.
public struct JobRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job"
    public var id: Int64?
    public var name: String
    public var manifestPath: String
    public var title: String?
    public var createdAt: Date

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The states of a run: queued → running → succeeded | failed | cancelled | interrupted.
public enum RunState: String, Codable, Sendable, DatabaseValueConvertible {
    case queued, running, succeeded, failed, cancelled, interrupted
}

/// One `lectern run` of a job.
public struct RunRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "run"
    public var id: Int64?
    public var jobId: Int64
    /// What started the run: `manual`, `schedule` or `watch`.
    public var trigger: String
    public var state: RunState
    public var startedAt: Date
    public var endedAt: Date?
    public var error: String?
    /// The process running it, for detecting runs whose process died.
    public var pid: Int32
    public var chapterCount: Int?
    public var paragraphCount: Int?
    public var wordCount: Int?
    public var skippedCount: Int?
    public var wordsDone: Int
    public var audioMsDone: Int
    public var durationMs: Int?
    public var sampleCount: Int?
    public var mp3Path: String?
    public var timingsPath: String?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A chapter as rendered by a run.
public struct ChapterRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "chapter"
    public var id: Int64?
    public var runId: Int64
    public var number: Int
    public var title: String
    /// SHA-256 of everything that determines the chapter's audio (text, voices, pauses, audio settings).
    public var contentHash: String
    public var startMs: Int
    public var durationMs: Int
    public var sampleCount: Int

    public init(runId: Int64, number: Int, title: String, contentHash: String, startMs: Int, durationMs: Int, sampleCount: Int) {
        self.runId = runId
        self.number = number
        self.title = title
        self.contentHash = contentHash
        self.startMs = startMs
        self.durationMs = durationMs
        self.sampleCount = sampleCount
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}
