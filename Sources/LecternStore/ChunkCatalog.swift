import Foundation

/// The chunk cache's entries and each run's chunks in book order: what a run reuses, what it
/// plans and renders, and what `lectern gc` may remove. Part of ``JobStore``.
public protocol ChunkCatalog: Sendable {
    /// The cache entries among `keys` (any the store does not have are left out).
    func cachedChunks(keys: Set<String>) async throws -> [String: CachedChunkRecord]
    /// Records a run's chunks, in book order, as the run plans them (and the run's row).
    func planChunks(_ chunks: [RunChunkRecord], for run: RunRecord) async throws
    /// Records a chunk rendered by the run itself: the cache entry (whose file is already
    /// durable) and the run's chunk row, in one transaction.
    func recordRendered(_ entry: CachedChunkRecord, runId: Int64, position: Int) async throws
    /// Forgets a cache entry whose file is missing or damaged.
    func forgetChunk(key: String) async throws
    /// A run's chunks in book order.
    func runChunks(runId: Int64) async throws -> [RunChunkRecord]
    /// Cache keys some job still needs: every key of each job's newest successful run and of
    /// every run newer than that one.
    func referencedChunkKeys() async throws -> Set<String>
    /// Every cache entry (key and size).
    func allCachedChunks() async throws -> [(key: String, bytes: Int)]
    /// Removes cache entries from the store (their files are the caller's).
    func forgetChunks(keys: [String]) async throws
}
