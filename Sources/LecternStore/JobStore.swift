import Foundation

/// The job store: the composition of six focused protocols — ``RunLedger`` (jobs, runs,
/// chapters), ``ChunkCatalog`` (chunk records), ``JobLeases``, ``ScheduleClaims``,
/// ``ChunkQueue`` and ``ServiceLedger`` (`lectern serve`'s tokens and jobs) — with two backends — ``SQLiteJobStore`` (one file, one host; the
/// default) and ``PostgresJobStore`` (shared by every host that names it). Chosen by
/// ``StoreAddress``.
///
/// Every state change is one transaction, so a crash leaves either the old state or the new, and
/// every claim (a lease, a due time, a change, a chunk) succeeds for exactly one caller. The rules
/// that do not depend on SQL are written once, in ``StoreRules``, above each backend's
/// ``StoreTransaction``.
public protocol JobStore: RunLedger, ChunkCatalog, JobLeases, ScheduleClaims, ChunkQueue, ServiceLedger, AnyObject {
    /// The store as messages and `lectern status` name it: the SQLite file's path, or the
    /// PostgreSQL address without its password.
    var name: String { get }
    /// This host's folder for what is never shared: the local chunk cache and failure notes.
    var localFolder: URL { get }
    /// Where a run leaves its ``FailureNote`` when the store cannot take its error.
    var notesFolder: URL { get }
    /// Whether other hosts may use this store (then chunks also go through the queue).
    var isShared: Bool { get }
}
