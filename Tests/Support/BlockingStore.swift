import Foundation
import LecternStore
import LecternPostgres

/// The job store as the end-to-end tests read it between waits for a `lectern` process: the
/// same operations, each run on ``TestThreads`` while the calling test's thread waits. Those tests
/// block their thread anyway (on the process they drive), and so never need a thread of the
/// shared pool to read what the process recorded.
public struct BlockingStore: Sendable {
    public let store: any JobStore

    public init(_ store: any JobStore) { self.store = store }

    /// The SQLite store at `url`.
    public init(url: URL) throws { store = try SQLiteJobStore(url: url) }

    /// The store at `address` (SQLite or PostgreSQL), with `localFolder` as this host's folder.
    public init(_ address: StoreAddress, localFolder: URL) throws {
        store = try TestThreads.shared.wait { try await address.open(localFolder: localFolder) }
    }

    private func wait<T: Sendable>(_ body: @escaping @Sendable (any JobStore) async throws -> T) throws -> T {
        let store = self.store
        return try TestThreads.shared.wait { try await body(store) }
    }

    public var name: String { store.name }

    public func job(manifestPath: String, name: String, title: String?) throws -> JobRecord {
        try wait { try await $0.job(manifestPath: manifestPath, name: name, title: title) }
    }

    public func jobs() throws -> [JobRecord] { try wait { try await $0.jobs() } }

    public func runs(jobId: Int64, limit: Int = 20) throws -> [RunRecord] { try wait { try await $0.runs(jobId: jobId, limit: limit) } }

    public func chapters(runId: Int64) throws -> [ChapterRecord] { try wait { try await $0.chapters(runId: runId) } }

    public func runChunks(runId: Int64) throws -> [RunChunkRecord] { try wait { try await $0.runChunks(runId: runId) } }

    public func lease(jobId: Int64) throws -> LeaseRecord? { try wait { try await $0.lease(jobId: jobId) } }

    public func workers() throws -> [WorkerRecord] { try wait { try await $0.workers() } }

    public func referencedChunkKeys() throws -> Set<String> { try wait { try await $0.referencedChunkKeys() } }

    public func allCachedChunks() throws -> [(key: String, bytes: Int)] { try wait { try await $0.allCachedChunks() } }

    public func integrityCheck() throws -> String { try wait { try await $0.integrityCheck() } }

    @discardableResult
    public func registerSchedule(jobId: Int64, expression: String?, timeZone: String?, watch: Bool, watchVersion: String?,
                                 now: Date) throws -> ScheduleRecord {
        try wait {
            try await $0.registerSchedule(jobId: jobId, expression: expression, timeZone: timeZone, watch: watch,
                                          watchVersion: watchVersion, now: now)
        }
    }

    /// Closes a PostgreSQL store's connections.
    public func close() throws {
        try wait { await ($0 as? PostgresJobStore)?.close() }
    }
}
