import Foundation

/// What `lectern serve` keeps in the job store, so that every `serve` process on one store sees
/// the same: API tokens (only their SHA-256 is stored), which owner each served job belongs to
/// with its folder and podcast-feed secret, and requests to cancel a run (the process rendering
/// it may be another `serve`). Part of ``JobStore``.
public protocol ServiceLedger: Sendable {
    /// Stores a new token; throws ``StoreError`` when its name is taken.
    func addToken(_ token: APITokenRecord) async throws
    /// The token whose SHA-256 is `hash`.
    func token(hash: String) async throws -> APITokenRecord?
    func tokens() async throws -> [APITokenRecord]
    /// Deletes the token named `name`; false if there is none.
    func revokeToken(name: String) async throws -> Bool

    /// Creates the job of the manifest at `manifestPath` and its served record, in one
    /// transaction (so a crash leaves both or neither); `served.jobId` is set from the new job.
    func addServedJob(_ served: ServedJobRecord, manifestPath: String, name: String, title: String?) async throws -> JobRecord
    /// Every served job, oldest first.
    func servedJobs() async throws -> [ServedJobRecord]
    func servedJob(jobId: Int64) async throws -> ServedJobRecord?
    func servedJob(feedSecret: String) async throws -> ServedJobRecord?
    /// Saves a served job's changed fields (owner and job id stay).
    func updateServedJob(_ job: ServedJobRecord) async throws
    /// Deletes the served job and its job with every run and chapter (one transaction).
    func deleteServedJob(jobId: Int64) async throws

    /// One job by its id.
    func job(id: Int64) async throws -> JobRecord?
    /// One run by its id.
    func run(id: Int64) async throws -> RunRecord?
    /// Asks whichever process renders run `runId` to cancel it.
    func requestCancel(runId: Int64, reason: String) async throws
    /// The cancellation requests among `runIds`, with their reasons.
    func cancelRequests(runIds: [Int64]) async throws -> [Int64: String]

    /// Queues a run of the job (``RunRequestRecord``), unless a run of it is queued or under way
    /// (a request of any `serve`, or a live lease of another process): checked and queued in one
    /// transaction, with the job locked.
    func requestRun(jobId: Int64) async throws -> RunRequestOutcome
    /// Runs `edit` (a change to the job's files) inside one transaction that finds no run of the
    /// job queued or under way, with the job locked as ``requestRun(jobId:)`` locks it, so an edit
    /// and a start of one job never overlap. Returns nil when it edited, else why it did not.
    func editIdleJob(jobId: Int64, _ edit: @Sendable () throws -> Void) async throws -> String?
    /// Deletes the served job and its job with every run and chapter, in one transaction that
    /// finds no run of the job queued or under way (as ``editIdleJob(jobId:_:)``). Returns nil
    /// when it deleted, else why it did not.
    func deleteIdleServedJob(jobId: Int64) async throws -> String?
    /// Claims the oldest waiting request for `holder`; nil when none waits.
    func claimRunRequest(holder: ProcessIdentity) async throws -> RunRequestRecord?
    /// Every request, waiting or claimed, oldest first.
    func runRequests() async throws -> [RunRequestRecord]
    /// Removes a request: its run has ended.
    func endRunRequest(id: Int64) async throws
    /// Removes the job's waiting request (its run is cancelled before it started); false when
    /// none waits.
    func withdrawRunRequest(jobId: Int64) async throws -> Bool
    /// Gives a request claimed by `holder` back to the queue, in its place (the claiming process
    /// died); false when `holder` no longer holds it.
    func releaseRunRequest(id: Int64, holder: String) async throws -> Bool
}

/// An API token of `lectern serve`: a name, whose jobs it sees (its owner), whether it is an
/// admin's (sees every job), and the SHA-256 of the secret — never the secret itself.
public struct APITokenRecord: Codable, Sendable, Equatable {
    public var name: String
    public var owner: String
    public var hash: String
    public var admin: Bool
    public var createdAt: Date

    public init(name: String, owner: String, hash: String, admin: Bool, createdAt: Date) {
        self.name = name
        self.owner = owner
        self.hash = hash
        self.admin = admin
        self.createdAt = createdAt
    }
}

/// A job `lectern serve` holds: its owner, its folder under the service's data folder, and the
/// secret in its podcast feed's address.
public struct ServedJobRecord: Codable, Sendable, Equatable {
    public var jobId: Int64
    public var owner: String
    /// The job's folder name under the service's `jobs/` folder.
    public var folder: String
    public var feedSecret: String
    public var createdAt: Date

    public init(jobId: Int64, owner: String, folder: String, feedSecret: String, createdAt: Date) {
        self.jobId = jobId
        self.owner = owner
        self.folder = folder
        self.feedSecret = feedSecret
        self.createdAt = createdAt
    }
}
