import Foundation

/// The daemons' schedules and claims: each due time, change, resumption and retry is claimed by
/// exactly one daemon, on any host. Part of ``JobStore``.
public protocol ScheduleClaims: Sendable {
    /// Records what a job's manifest asks for, creating its row the first time; returns it.
    func registerSchedule(jobId: Int64, expression: String?, timeZone: String?, watch: Bool, watchVersion: String?,
                          now: Date) async throws -> ScheduleRecord
    func schedule(jobId: Int64) async throws -> ScheduleRecord?
    /// Every schedule row, by job id.
    func schedules() async throws -> [Int64: ScheduleRecord]
    /// Claims the due time `due`: true for exactly one caller, only if no run was started for it
    /// (or a later one) yet.
    func claimDue(jobId: Int64, through due: Date) async throws -> Bool
    /// Claims the change to `version` of the job's files: true for exactly one caller per version.
    func claimChange(jobId: Int64, version: String, claimant: ProcessIdentity) async throws -> Bool
    /// Gives back a change claimed by a daemon that died before a run rendered it; returns the row.
    func reopenUnservedChange(jobId: Int64) async throws -> ScheduleRecord?
    /// Claims the resumption of the interrupted run `runId`: true for exactly one caller.
    func claimResume(jobId: Int64, runId: Int64) async throws -> Bool
    /// The job's latest run if a daemon started it and it stopped before it ended, not yet resumed.
    func interruptedRun(jobId: Int64) async throws -> RunRecord?
    /// Claims the retry after the job's `failures`-th failure: true for exactly one caller.
    func claimRetry(jobId: Int64, failures: Int) async throws -> Bool
    /// Records how a daemon's run of the job ended (see ``SQLiteJobStore``'s documentation).
    func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date, servedVersion: String?) async throws
    /// Records when the job is next due (nil: not scheduled).
    func setNextDue(jobId: Int64, _ date: Date?) async throws
    /// Forgets the schedule of a job whose manifest is gone (its runs stay).
    func removeSchedule(jobId: Int64) async throws
}

extension ScheduleClaims {
    public func claimChange(jobId: Int64, version: String) async throws -> Bool {
        try await claimChange(jobId: jobId, version: version, claimant: .current)
    }

    public func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date) async throws {
        try await recordOutcome(jobId: jobId, error: error, wasRetry: wasRetry, at: date, servedVersion: nil)
    }
}
