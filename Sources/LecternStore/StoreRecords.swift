import Foundation
import LecternSchedule
import GRDB

/// A job: one manifest file, identified by its absolute path.
public struct JobRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "job"
    public var id: Int64?
    public var name: String
    public var manifestPath: String
    public var title: String?
    public var createdAt: Date
    /// Why a daemon could not load the manifest, as it last tried (nil: it loads).
    public var manifestError: String? = nil

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Every field, for the store's backends (the PostgreSQL one is another module).
    package init(
        id: Int64? = nil,
        name: String,
        manifestPath: String,
        title: String? = nil,
        createdAt: Date,
        manifestError: String? = nil
    ) {
        self.id = id
        self.name = name
        self.manifestPath = manifestPath
        self.title = title
        self.createdAt = createdAt
        self.manifestError = manifestError
    }
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
    /// What started the run.
    public var trigger: Trigger
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
    /// The process that runs it (``ProcessIdentity``), to tell a live run from a dead one.
    public var holder: String?
    /// The interrupted, cancelled or failed run whose finished chunks this run continues from.
    public var resumesRunId: Int64?
    /// Whether the run ignored the chunk cache (`--force`).
    public var forced: Bool = false
    public var chunkCount: Int?
    /// Chunks synthesized and encoded by this run.
    public var chunksRendered: Int = 0
    /// Chunks taken from the cache.
    public var chunksReused: Int = 0
    /// A hash of everything that determines the run's outputs; equal hashes mean equal outputs.
    public var bookHash: String?
    /// Size and modification time of the outputs as written, to notice they were changed since.
    public var outputStamp: String?
    /// Later runs that found this run's outputs current and changed nothing: folded into this
    /// run (``RunLedger/foldUpToDate(_:into:at:)``) rather than recorded as runs of their own.
    public var upToDateRuns: Int = 0
    /// When the last of them ran.
    public var lastUpToDateAt: Date?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Every field, for the store's backends (the PostgreSQL one is another module).
    package init(
        id: Int64? = nil,
        jobId: Int64,
        trigger: Trigger,
        state: RunState,
        startedAt: Date,
        endedAt: Date? = nil,
        error: String? = nil,
        pid: Int32,
        chapterCount: Int? = nil,
        paragraphCount: Int? = nil,
        wordCount: Int? = nil,
        skippedCount: Int? = nil,
        wordsDone: Int,
        audioMsDone: Int,
        durationMs: Int? = nil,
        sampleCount: Int? = nil,
        mp3Path: String? = nil,
        timingsPath: String? = nil,
        holder: String? = nil,
        resumesRunId: Int64? = nil,
        forced: Bool = false,
        chunkCount: Int? = nil,
        chunksRendered: Int = 0,
        chunksReused: Int = 0,
        bookHash: String? = nil,
        outputStamp: String? = nil,
        upToDateRuns: Int = 0,
        lastUpToDateAt: Date? = nil
    ) {
        self.id = id
        self.jobId = jobId
        self.trigger = trigger
        self.state = state
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.error = error
        self.pid = pid
        self.chapterCount = chapterCount
        self.paragraphCount = paragraphCount
        self.wordCount = wordCount
        self.skippedCount = skippedCount
        self.wordsDone = wordsDone
        self.audioMsDone = audioMsDone
        self.durationMs = durationMs
        self.sampleCount = sampleCount
        self.mp3Path = mp3Path
        self.timingsPath = timingsPath
        self.holder = holder
        self.resumesRunId = resumesRunId
        self.forced = forced
        self.chunkCount = chunkCount
        self.chunksRendered = chunksRendered
        self.chunksReused = chunksReused
        self.bookHash = bookHash
        self.outputStamp = outputStamp
        self.upToDateRuns = upToDateRuns
        self.lastUpToDateAt = lastUpToDateAt
    }
}

extension RunRecord {
    /// Whether the run is recorded as running but the process running it has died.
    public var isOrphaned: Bool {
        guard state == .running else { return false }
        if let holder = holder.flatMap(ProcessIdentity.init) { return !holder.isAlive }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
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
    /// Where the chapter starts in the decoded book, in samples.
    public var startSample: Int
    /// Hashes of the parts of `contentHash`, to say why a chapter changed between runs.
    public var textHash: String
    public var voiceHash: String
    public var pauseHash: String
    public var settingsHash: String
    public var chunkCount: Int
    /// Chunks of this chapter the run rendered (the rest came from the cache).
    public var chunksRendered: Int
    /// Why the chapter differs from the job's previous run ("unchanged", "text changed", …).
    public var change: String?

    public init(runId: Int64, number: Int, title: String, contentHash: String, startMs: Int, durationMs: Int, sampleCount: Int,
                startSample: Int = 0, textHash: String = "", voiceHash: String = "", pauseHash: String = "", settingsHash: String = "",
                chunkCount: Int = 0, chunksRendered: Int = 0, change: String? = nil) {
        self.runId = runId
        self.number = number
        self.title = title
        self.contentHash = contentHash
        self.startMs = startMs
        self.durationMs = durationMs
        self.sampleCount = sampleCount
        self.startSample = startSample
        self.textHash = textHash
        self.voiceHash = voiceHash
        self.pauseHash = pauseHash
        self.settingsHash = settingsHash
        self.chunkCount = chunkCount
        self.chunksRendered = chunksRendered
        self.change = change
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension JobRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let manifestPath = Column(CodingKeys.manifestPath)
        static let name = Column(CodingKeys.name)
    }
}

extension RunRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let id = Column(CodingKeys.id)
        static let jobId = Column(CodingKeys.jobId)
        static let state = Column(CodingKeys.state)
    }
}

extension ChapterRecord {
    /// The columns the store's requests filter and order by, named by the record's coding keys.
    public enum Columns {
        static let runId = Column(CodingKeys.runId)
        static let number = Column(CodingKeys.number)
    }
}
