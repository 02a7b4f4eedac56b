import Foundation
import LecternSchedule

/// The record of jobs, their runs and the chapters each run rendered: what `lectern status`
/// shows and what a run writes as it goes. Part of ``JobStore``.
public protocol RunLedger: Sendable {
    /// The job for a manifest, created on first use; its name and title are kept current.
    func job(manifestPath: String, name: String, title: String?) async throws -> JobRecord
    /// Records that a run of `job` has started in this process (`resumes`: the stopped run whose
    /// finished chunks it continues from; `forced`: it ignores the chunk cache).
    func startRun(job: JobRecord, trigger: Trigger, resumes: Int64?, forced: Bool) async throws -> RunRecord
    /// Saves a run's changed fields.
    func update(_ run: RunRecord) async throws
    /// Saves a finished run together with its chapters, in one transaction.
    func finish(_ run: RunRecord, chapters: [ChapterRecord]) async throws
    /// Folds `run`, which found the outputs of run `confirmed` current and changed nothing, into
    /// that run: `run`'s row goes, and `confirmed` counts one more such run at `date` (in one
    /// transaction). Returns the confirmed run as stored.
    func foldUpToDate(_ run: RunRecord, into confirmed: Int64, at date: Date) async throws -> RunRecord
    /// Records why a daemon cannot load the job's manifest (nil: it loads again).
    func setManifestError(jobId: Int64, _ error: String?) async throws
    /// Records why a daemon cannot load the manifest at `manifestPath`, creating its job if it
    /// has none (so that `lectern status` shows it); nil clears it.
    func recordManifestError(manifestPath: String, name: String?, error: String?) async throws
    func jobs() async throws -> [JobRecord]
    /// A job's runs, newest first.
    func runs(jobId: Int64, limit: Int) async throws -> [RunRecord]
    func chapters(runId: Int64) async throws -> [ChapterRecord]
    /// The newest run of a job in one of `states`.
    func latestRun(jobId: Int64, states: Set<RunState>) async throws -> RunRecord?
    /// The backend's own consistency check: "ok" when sound.
    func integrityCheck() async throws -> String
}

extension RunLedger {
    public func startRun(job: JobRecord, trigger: Trigger = .manual, resumes: Int64? = nil) async throws -> RunRecord {
        try await startRun(job: job, trigger: trigger, resumes: resumes, forced: false)
    }

    public func runs(jobId: Int64) async throws -> [RunRecord] { try await runs(jobId: jobId, limit: 20) }
}
