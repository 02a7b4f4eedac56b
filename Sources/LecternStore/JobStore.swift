import Foundation

/// The job store: jobs, runs, chapters, leases, schedule claims, chunk records and the chunk
/// queue, behind one protocol with two backends — ``SQLiteJobStore`` (one file, one host; the
/// default) and ``PostgresJobStore`` (shared by every host that names it). Chosen by
/// ``StoreAddress``.
///
/// Every state change is one transaction, so a crash leaves either the old state or the new, and
/// every claim (a lease, a due time, a change, a chunk) succeeds for exactly one caller.
public protocol JobStore: ChunkQueue, AnyObject {
    /// The store as messages and `lectern status` name it: the SQLite file's path, or the
    /// PostgreSQL address without its password.
    var name: String { get }
    /// This host's folder for what is never shared: the local chunk cache and failure notes.
    var localFolder: URL { get }
    /// Where a run leaves its ``FailureNote`` when the store cannot take its error.
    var notesFolder: URL { get }
    /// Whether other hosts may use this store (then chunks also go through the queue).
    var isShared: Bool { get }

    // MARK: Jobs, runs and chapters

    /// The job for a manifest, created on first use; its name and title are kept current.
    func job(manifestPath: String, name: String, title: String?) throws -> JobRecord
    /// Records that a run of `job` has started in this process (`resumes`: the stopped run whose
    /// finished chunks it continues from; `forced`: it ignores the chunk cache).
    func startRun(job: JobRecord, trigger: String, resumes: Int64?, forced: Bool) throws -> RunRecord
    /// Saves a run's changed fields.
    func update(_ run: RunRecord) throws
    /// Saves a finished run together with its chapters, in one transaction.
    func finish(_ run: RunRecord, chapters: [ChapterRecord]) throws
    /// Records why a daemon cannot load the job's manifest (nil: it loads again).
    func setManifestError(jobId: Int64, _ error: String?) throws
    /// Records why a daemon cannot load the manifest at `manifestPath`, creating its job if it
    /// has none (so that `lectern status` shows it); nil clears it.
    func recordManifestError(manifestPath: String, name: String?, error: String?) throws
    func jobs() throws -> [JobRecord]
    /// A job's runs, newest first.
    func runs(jobId: Int64, limit: Int) throws -> [RunRecord]
    func chapters(runId: Int64) throws -> [ChapterRecord]
    /// The newest run of a job in one of `states`.
    func latestRun(jobId: Int64, states: Set<RunState>) throws -> RunRecord?
    /// The backend's own consistency check: "ok" when sound.
    func integrityCheck() throws -> String

    // MARK: Chunk records

    /// The cache entries among `keys` (any the store does not have are left out).
    func cachedChunks(keys: Set<String>) throws -> [String: CachedChunkRecord]
    /// Records a run's chunks, in book order, as the run plans them (and the run's row).
    func planChunks(_ chunks: [RunChunkRecord], for run: RunRecord) throws
    /// Records a chunk rendered by the run itself: the cache entry (whose file is already
    /// durable) and the run's chunk row, in one transaction.
    func recordRendered(_ entry: CachedChunkRecord, runId: Int64, position: Int) throws
    /// Forgets a cache entry whose file is missing or damaged.
    func forgetChunk(key: String) throws
    /// A run's chunks in book order.
    func runChunks(runId: Int64) throws -> [RunChunkRecord]
    /// Cache keys some job still needs: every key of each job's newest successful run and of
    /// every run newer than that one.
    func referencedChunkKeys() throws -> Set<String>
    /// Every cache entry (key and size).
    func allCachedChunks() throws -> [(key: String, bytes: Int)]
    /// Removes cache entries from the store (their files are the caller's).
    func forgetChunks(keys: [String]) throws

    // MARK: Leases

    /// Takes the job's lease for `holder`, unless a live process holds it; a dead or expired
    /// holder's lease is taken over and its runs left `running` are settled, in one transaction.
    func acquireLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> LeaseOutcome
    /// Records the job's runs whose process died while running them as ended (failed with their
    /// ``FailureNote``'s message, else interrupted); returns them.
    @discardableResult
    func settleOrphanedRuns(jobId: Int64) throws -> [RunRecord]
    /// Records which run the lease is for.
    func attachLease(jobId: Int64, holder: ProcessIdentity, runId: Int64) throws
    /// Extends the lease; false if `holder` no longer holds it.
    func renewLease(jobId: Int64, holder: ProcessIdentity, duration: TimeInterval) throws -> Bool
    /// Gives the lease up (if `holder` still holds it).
    func releaseLease(jobId: Int64, holder: ProcessIdentity) throws
    /// The jobs whose lease has not expired and whose holder is alive.
    func leasedJobIds(at date: Date) throws -> Set<Int64>
    func lease(jobId: Int64) throws -> LeaseRecord?

    // MARK: Schedules (the daemons' claims)

    /// Records what a job's manifest asks for, creating its row the first time; returns it.
    func registerSchedule(jobId: Int64, expression: String?, timeZone: String?, watch: Bool, watchVersion: String?,
                          now: Date) throws -> ScheduleRecord
    func schedule(jobId: Int64) throws -> ScheduleRecord?
    /// Every schedule row, by job id.
    func schedules() throws -> [Int64: ScheduleRecord]
    /// Claims the due time `due`: true for exactly one caller, only if no run was started for it
    /// (or a later one) yet.
    func claimDue(jobId: Int64, through due: Date) throws -> Bool
    /// Claims the change to `version` of the job's files: true for exactly one caller per version.
    func claimChange(jobId: Int64, version: String, claimant: ProcessIdentity) throws -> Bool
    /// Gives back a change claimed by a daemon that died before a run rendered it; returns the row.
    func reopenUnservedChange(jobId: Int64) throws -> ScheduleRecord?
    /// Claims the resumption of the interrupted run `runId`: true for exactly one caller.
    func claimResume(jobId: Int64, runId: Int64) throws -> Bool
    /// The job's latest run if a daemon started it and it stopped before it ended, not yet resumed.
    func interruptedRun(jobId: Int64) throws -> RunRecord?
    /// Claims the retry after the job's `failures`-th failure: true for exactly one caller.
    func claimRetry(jobId: Int64, failures: Int) throws -> Bool
    /// Records how a daemon's run of the job ended (see ``SQLiteJobStore``'s documentation).
    func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date, servedVersion: String?) throws
    /// Records when the job is next due (nil: not scheduled).
    func setNextDue(jobId: Int64, _ date: Date?) throws
    /// Forgets the schedule of a job whose manifest is gone (its runs stay).
    func removeSchedule(jobId: Int64) throws
}

extension JobStore {
    public func startRun(job: JobRecord, trigger: String = "manual", resumes: Int64? = nil) throws -> RunRecord {
        try startRun(job: job, trigger: trigger, resumes: resumes, forced: false)
    }

    public func runs(jobId: Int64) throws -> [RunRecord] { try runs(jobId: jobId, limit: 20) }

    public func leasedJobIds() throws -> Set<Int64> { try leasedJobIds(at: Date()) }

    public func claimChange(jobId: Int64, version: String) throws -> Bool {
        try claimChange(jobId: jobId, version: version, claimant: .current)
    }

    public func recordOutcome(jobId: Int64, error: String?, wasRetry: Bool, at date: Date) throws {
        try recordOutcome(jobId: jobId, error: error, wasRetry: wasRetry, at: date, servedVersion: nil)
    }
}
