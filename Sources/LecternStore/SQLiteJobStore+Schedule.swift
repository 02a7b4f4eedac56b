import Foundation
import GRDB

extension SQLiteJobStore {
    static func registerScheduleMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3") { db in
            // The daemon (#7): schedules, what they have served, failures and retries.
            try db.create(table: "schedule") { t in
                t.primaryKey("jobId", .integer).references("job", onDelete: .cascade)
                t.column("expression", .text)
                t.column("timeZone", .text)
                t.column("watch", .boolean).notNull().defaults(to: false)
                t.column("firstSeen", .datetime).notNull()
                t.column("servedThrough", .datetime)
                t.column("watchVersion", .text)
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("lastFailureAt", .datetime)
                t.column("lastError", .text)
                t.column("retriedFailures", .integer).notNull().defaults(to: 0)
                t.column("nextDue", .datetime)
                t.column("updatedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v4") { db in
            // Crash recovery (#17): changes served only by a successful run, resumed runs,
            // manifests the daemon cannot load.
            try db.alter(table: "schedule") { t in
                t.add(column: "watchClaimant", .text)
                t.add(column: "servedVersion", .text)
                t.add(column: "resumedRunId", .integer)
            }
            try db.execute(sql: "UPDATE schedule SET servedVersion = watchVersion")
            try db.alter(table: "job") { t in
                t.add(column: "manifestError", .text)
            }
        }
    }

    /// Records what a job's manifest asks for, creating its row (seen now, `watchVersion` as
    /// given) the first time; returns the row.
    public func registerSchedule(jobId: Int64, expression: String?, timeZone: String?, watch: Bool, watchVersion: String?,
                                 now: Date) async throws -> ScheduleRecord {
        try await write { db in
            if let row = try ScheduleRecord.fetchOne(db, key: jobId) {
                guard let registered = row.registering(expression: expression, timeZone: timeZone, watch: watch, now: now) else { return row }
                try registered.update(db)
                return registered
            }
            var row = ScheduleRecord(jobId: jobId, expression: expression, timeZone: timeZone, watch: watch, firstSeen: now,
                                     servedThrough: nil, watchVersion: watchVersion, watchClaimant: nil, servedVersion: watchVersion,
                                     resumedRunId: nil, failures: 0, lastFailureAt: nil, lastError: nil,
                                     retriedFailures: 0, nextDue: nil, updatedAt: now)
            try row.insert(db)
            return row
        }
    }

    /// The job's schedule row, if a daemon has seen it.
    public func schedule(jobId: Int64) async throws -> ScheduleRecord? {
        try await read { db in try ScheduleRecord.fetchOne(db, key: jobId) }
    }

    /// Every schedule row, by job id.
    public func schedules() async throws -> [Int64: ScheduleRecord] {
        try await read { db in Dictionary(uniqueKeysWithValues: try ScheduleRecord.fetchAll(db).map { ($0.jobId, $0) }) }
    }

    /// Claims the due time `due` for this caller: true for exactly one caller, and only if no run
    /// was started for it (or a later one) yet.
    public func claimDue(jobId: Int64, through due: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE schedule SET servedThrough = ?, updatedAt = ? WHERE jobId = ? AND (servedThrough IS NULL OR servedThrough < ?)",
                           arguments: [due, Date(), jobId, due])
            return db.changesCount == 1
        }
    }

    /// Claims the change to `version` of the job's files for `claimant` (a daemon): true for
    /// exactly one caller per version.
    public func claimChange(jobId: Int64, version: String, claimant: ProcessIdentity) async throws -> Bool {
        try await write { db in
            try db.execute(sql: """
                UPDATE schedule SET watchVersion = ?, watchClaimant = ?, updatedAt = ? WHERE jobId = ? AND watchVersion IS NOT ?
                """, arguments: [version, claimant.description, Date(), jobId, version])
            return db.changesCount == 1
        }
    }

    /// Gives back a change claimed by a daemon that has died before a run rendered it, so that
    /// the next daemon claims and renders it again (a change is served only by a success);
    /// returns the row.
    public func reopenUnservedChange(jobId: Int64) async throws -> ScheduleRecord? {
        try await write { db in
            guard let row = try ScheduleRecord.fetchOne(db, key: jobId) else { return nil }
            guard let reopened = row.reopeningUnservedChange else { return row }
            try reopened.update(db)
            return reopened
        }
    }

    /// Claims the resumption of the interrupted run `runId`: true for exactly one caller.
    public func claimResume(jobId: Int64, runId: Int64) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE schedule SET resumedRunId = ?, updatedAt = ? WHERE jobId = ? AND resumedRunId IS NOT ?",
                           arguments: [runId, Date(), jobId, runId])
            return db.changesCount == 1
        }
    }

    /// The job's latest run if it was started by a daemon (`schedule` or `watch`) and stopped
    /// before it ended (its process died, or it was interrupted or cancelled), and no daemon has
    /// resumed it yet: the run a daemon starting up continues.
    public func interruptedRun(jobId: Int64) async throws -> RunRecord? {
        try await read { db in
            guard let run = try RunRecord.filter(RunRecord.Columns.jobId == jobId).order(RunRecord.Columns.id.desc).fetchOne(db) else { return nil }
            let resumed = try Int64.fetchOne(db, sql: "SELECT resumedRunId FROM schedule WHERE jobId = ?", arguments: [jobId])
            return run.isResumable(resumed: resumed) ? run : nil
        }
    }

    /// Claims the retry after the job's `failures`-th failure: true for exactly one caller.
    public func claimRetry(jobId: Int64, failures: Int) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE schedule SET retriedFailures = ?, updatedAt = ? WHERE jobId = ? AND retriedFailures < ? AND failures = ?",
                           arguments: [failures, Date(), jobId, failures, failures])
            return db.changesCount == 1
        }
    }

    /// Records how a daemon's run of the job ended: a success clears the failures; a failure
    /// counts one more (or, for a run that was not a retry, starts a new count of 1, so every
    /// scheduled run gets its own retries) and keeps the error.
    ///
    /// - parameter servedVersion: The watched files' fingerprint the run rendered; a success
    ///   marks it served.
    public func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date, servedVersion: String?) async throws {
        try await write { db in
            if let error, wasRetry {
                try db.execute(sql: "UPDATE schedule SET failures = failures + 1, lastFailureAt = ?, lastError = ?, updatedAt = ? WHERE jobId = ?",
                               arguments: [date, error, date, jobId])
            } else if let error {
                try db.execute(sql: "UPDATE schedule SET failures = 1, retriedFailures = 0, lastFailureAt = ?, lastError = ?, updatedAt = ? WHERE jobId = ?",
                               arguments: [date, error, date, jobId])
            } else {
                try db.execute(sql: """
                    UPDATE schedule SET failures = 0, retriedFailures = 0, lastError = NULL, updatedAt = ?,
                    servedVersion = coalesce(?, servedVersion) WHERE jobId = ?
                    """, arguments: [date, servedVersion, jobId])
            }
        }
    }

    /// Records when the job is next due (nil: not scheduled), for `lectern status`.
    public func setNextDue(jobId: Int64, _ date: Date?) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE schedule SET nextDue = ? WHERE jobId = ?", arguments: [date, jobId])
        }
    }

    /// Forgets the schedule of a job whose manifest is gone (its runs stay).
    public func removeSchedule(jobId: Int64) async throws {
        try await write { db in _ = try ScheduleRecord.deleteOne(db, key: jobId) }
    }
}
