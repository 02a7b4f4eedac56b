import Foundation
import LecternCore
import LecternStore
import PostgresNIO

extension PostgresJobStore {
    public func registerSchedule(jobId: Int64, expression: String?, timeZone: String?, watch: Bool, watchVersion: String?,
                                 now: Date) async throws -> ScheduleRecord {
        try await write { db in
            // The job's row, locked, orders daemons registering it at once (the first creates the row).
            try await db.execute("SELECT id FROM job WHERE id = \(jobId) FOR NO KEY UPDATE")
            if let row = try await db.execute("SELECT * FROM schedule WHERE \"jobId\" = \(jobId)").first {
                let schedule = try ScheduleRecord(row: row)
                guard let registered = schedule.registering(expression: expression, timeZone: timeZone, watch: watch, now: now) else {
                    return schedule
                }
                try await db.execute("""
                    UPDATE schedule SET expression = \(expression), "timeZone" = \(timeZone), watch = \(watch), "updatedAt" = \(now)
                    WHERE "jobId" = \(jobId)
                    """)
                return registered
            }
            return try await ScheduleRecord(row: try db.one("""
                INSERT INTO schedule ("jobId", expression, "timeZone", watch, "firstSeen", "watchVersion", "servedVersion", failures,
                                      "retriedFailures", "updatedAt")
                VALUES (\(jobId), \(expression), \(timeZone), \(watch), \(now), \(watchVersion), \(watchVersion), 0, 0, \(now))
                RETURNING *
                """))
        }
    }

    public func schedule(jobId: Int64) async throws -> ScheduleRecord? {
        try await read { db in try await db.execute("SELECT * FROM schedule WHERE \"jobId\" = \(jobId)").first.map(ScheduleRecord.init(row:)) }
    }

    public func schedules() async throws -> [Int64: ScheduleRecord] {
        try await read { db in
            await Dictionary(uniqueKeysWithValues: try db.execute("SELECT * FROM schedule").map(ScheduleRecord.init(row:)).map { ($0.jobId, $0) })
        }
    }

    // Each claim is one UPDATE whose condition the server checks again on the row it locks, so
    // of many callers at once exactly one changes the row.

    public func claimDue(jobId: Int64, through due: Date) async throws -> Bool {
        try await write { db in
            try await db.changes("""
                UPDATE schedule SET "servedThrough" = \(due), "updatedAt" = \(Date())
                WHERE "jobId" = \(jobId) AND ("servedThrough" IS NULL OR "servedThrough" < \(due))
                """) == 1
        }
    }

    public func claimChange(jobId: Int64, version: String, claimant: ProcessIdentity) async throws -> Bool {
        try await write { db in
            try await db.changes("""
                UPDATE schedule SET "watchVersion" = \(version), "watchClaimant" = \(claimant.description), "updatedAt" = \(Date())
                WHERE "jobId" = \(jobId) AND "watchVersion" IS DISTINCT FROM \(version)
                """) == 1
        }
    }

    public func reopenUnservedChange(jobId: Int64) async throws -> ScheduleRecord? {
        try await write { db in
            guard let found = try await db.execute("SELECT * FROM schedule WHERE \"jobId\" = \(jobId) FOR UPDATE").first else { return nil }
            let row = try ScheduleRecord(row: found)
            guard let reopened = row.reopeningUnservedChange else { return row }
            try await db.execute("UPDATE schedule SET \"watchVersion\" = \(reopened.watchVersion), \"watchClaimant\" = NULL WHERE \"jobId\" = \(jobId)")
            return reopened
        }
    }

    public func claimResume(jobId: Int64, runId: Int64) async throws -> Bool {
        try await write { db in
            try await db.changes("""
                UPDATE schedule SET "resumedRunId" = \(runId), "updatedAt" = \(Date())
                WHERE "jobId" = \(jobId) AND "resumedRunId" IS DISTINCT FROM \(runId)
                """) == 1
        }
    }

    public func interruptedRun(jobId: Int64) async throws -> RunRecord? {
        try await read { db in
            guard let found = try await db.execute("SELECT * FROM run WHERE \"jobId\" = \(jobId) ORDER BY id DESC LIMIT 1").first else { return nil }
            let run = try RunRecord(row: found)
            let resumed = try await db.value("SELECT \"resumedRunId\" FROM schedule WHERE \"jobId\" = \(jobId)", as: Int64.self)
            return run.isResumable(resumed: resumed) ? run : nil
        }
    }

    public func claimRetry(jobId: Int64, failures: Int) async throws -> Bool {
        try await write { db in
            try await db.changes("""
                UPDATE schedule SET "retriedFailures" = \(failures), "updatedAt" = \(Date())
                WHERE "jobId" = \(jobId) AND "retriedFailures" < \(failures) AND failures = \(failures)
                """) == 1
        }
    }

    public func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date, servedVersion: String?) async throws {
        try await write { db in
            if let error, wasRetry {
                try await db.execute("""
                    UPDATE schedule SET failures = failures + 1, "lastFailureAt" = \(date), "lastError" = \(error), "updatedAt" = \(date)
                    WHERE "jobId" = \(jobId)
                    """)
            } else if let error {
                try await db.execute("""
                    UPDATE schedule SET failures = 1, "retriedFailures" = 0, "lastFailureAt" = \(date), "lastError" = \(error),
                        "updatedAt" = \(date) WHERE "jobId" = \(jobId)
                    """)
            } else {
                try await db.execute("""
                    UPDATE schedule SET failures = 0, "retriedFailures" = 0, "lastError" = NULL, "updatedAt" = \(date),
                        "servedVersion" = COALESCE(\(servedVersion), "servedVersion") WHERE "jobId" = \(jobId)
                    """)
            }
        }
    }

    public func setNextDue(jobId: Int64, _ date: Date?) async throws {
        try await write { db in try await db.execute("UPDATE schedule SET \"nextDue\" = \(date) WHERE \"jobId\" = \(jobId)") }
    }

    public func removeSchedule(jobId: Int64) async throws {
        try await write { db in try await db.execute("DELETE FROM schedule WHERE \"jobId\" = \(jobId)") }
    }
}
