import Foundation
import GRDB

/// A job's schedule as the daemons keep it: what its manifest asks for, which due times and
/// changes have been served, and its failures. Every daemon on the same store reads and claims
/// through this row, so each due run, change and retry is started by exactly one of them.
public struct ScheduleRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "schedule"
    public var jobId: Int64
    /// The manifest's cron expression, time zone and `watch`, as last loaded.
    public var expression: String?
    public var timeZone: String?
    public var watch: Bool
    /// When a daemon first saw the job (no run before this was ever missed).
    public var firstSeen: Date
    /// The latest due time a run was started for (or skipped, with `catchup: none`).
    public var servedThrough: Date?
    /// The fingerprint (sizes and times) of the manifest and sources a run was last started for
    /// (claimed), and the daemon that claimed it.
    public var watchVersion: String?
    public var watchClaimant: String?
    /// The fingerprint a run last rendered successfully: a change counts as served only then.
    public var servedVersion: String?
    /// The interrupted run a daemon last started a run to resume (claimed once).
    public var resumedRunId: Int64?
    /// Consecutive failed runs since the last success, when the last one ended, and its error.
    public var failures: Int
    public var lastFailureAt: Date?
    public var lastError: String?
    /// The number of failures whose retry a daemon has started.
    public var retriedFailures: Int
    /// When the job is next due, as the daemon last computed it (for `lectern status`).
    public var nextDue: Date?
    public var updatedAt: Date

    /// Every field, for the store's backends (the PostgreSQL one is another module).
    package init(
        jobId: Int64,
        expression: String? = nil,
        timeZone: String? = nil,
        watch: Bool,
        firstSeen: Date,
        servedThrough: Date? = nil,
        watchVersion: String? = nil,
        watchClaimant: String? = nil,
        servedVersion: String? = nil,
        resumedRunId: Int64? = nil,
        failures: Int,
        lastFailureAt: Date? = nil,
        lastError: String? = nil,
        retriedFailures: Int,
        nextDue: Date? = nil,
        updatedAt: Date
    ) {
        self.jobId = jobId
        self.expression = expression
        self.timeZone = timeZone
        self.watch = watch
        self.firstSeen = firstSeen
        self.servedThrough = servedThrough
        self.watchVersion = watchVersion
        self.watchClaimant = watchClaimant
        self.servedVersion = servedVersion
        self.resumedRunId = resumedRunId
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.lastError = lastError
        self.retriedFailures = retriedFailures
        self.nextDue = nextDue
        self.updatedAt = updatedAt
    }
}
