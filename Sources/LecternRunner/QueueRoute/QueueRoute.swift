import Foundation
import Logging
import LecternCore
import LecternSpeech
import LecternStore

/// The render stage of a run whose chunks go through the store's ``ChunkQueue``: it publishes
/// the chunks the cache lacks, renders its own share on this host (``QueueWorker`` limited to
/// this run, unless it has no local workers), and waits for the rest — woken by the queue's
/// notifications — fetching each finished chunk from the shared ``ChunkStore`` into this host's
/// cache (its SHA-256 checked) and placing it on the book's timeline. The book is assembled here.
///
/// However the stage ends, the run's chunks are withdrawn from the queue.
struct QueueRoute {
    let store: any JobStore
    let chunks: any ChunkStore
    /// Worker processes rendering on this host (0: workers elsewhere do all of it).
    let localWorkers: Int
    let priority: Int
    /// Attempts each chunk gets before it fails the run (the manifest's `chunk_attempts`).
    let chunkAttempts: Int
    let leaseDuration: TimeInterval
    /// How long the wait for chunks rides out a store that does not answer.
    let storePatience: TimeInterval
    let executable: URL?
    let control: RunControl
    let logger: Logger

    /// Renders `requests` (one per distinct key) and calls `deliver` once per finished chunk,
    /// with the chunk's index among the book's chunks.
    func render(_ requests: [ChunkRequest], keys: [String], runId: Int64, cache: ChunkCache,
                deliver: (ChunkResult) async throws -> Void) async throws {
        let encoder = JSONEncoder()
        let tasks = try requests.enumerated().map { ordinal, request in
            var published = request
            published.output = ""
            return ChunkTask(runId: runId, key: keys[request.chunk.index], request: try encoder.encode(published),
                             priority: priority, ordinal: ordinal, maxAttempts: chunkAttempts)
        }
        let indexOfKey = Dictionary(requests.map { (keys[$0.chunk.index], $0.chunk.index) }, uniquingKeysWith: { first, _ in first })
        try await store.publishChunks(tasks)
        do {
            try await place(tasks, indexOfKey: indexOfKey, runId: runId, cache: cache, deliver: deliver)
        } catch {
            try? await store.withdrawChunks(runId: runId)
            throw error
        }
        try? await store.withdrawChunks(runId: runId)
    }

    /// Takes the run's chunks as workers finish them, rendering `localWorkers` of them here.
    private func place(_ tasks: [ChunkTask], indexOfKey: [String: Int], runId: Int64, cache: ChunkCache,
                       deliver: (ChunkResult) async throws -> Void) async throws {
        let share = localWorkers > 0 ? QueueWorker(
            store: store, chunks: chunks, cache: cache,
            options: QueueWorker.Options(slots: localWorkers, leaseDuration: leaseDuration, runId: runId, idleWait: 1),
            executable: executable, identity: "\(ProcessIdentity.current.description):run-\(runId)", logger: logger) : nil
        let sharing = share.map { share in
            control.attach(share)
            return Task { [logger] in
                do { try await share.run() } catch {
                    logger.warning("this host's share of the chunks stopped", metadata: ["error": "\(error)"])
                }
            }
        }
        do {
            try await collect(tasks, indexOfKey: indexOfKey, runId: runId, cache: cache, deliver: deliver)
        } catch {
            await stop(share, sharing)
            throw error
        }
        await stop(share, sharing)
    }

    /// Stops this host's share of the work and waits until it has.
    private func stop(_ share: QueueWorker?, _ sharing: Task<Void, Never>?) async {
        guard let share else { return }
        control.attach(nil)
        share.stop()
        await sharing?.value
    }

    /// Places the run's chunks as the queue reports them finished.
    private func collect(_ tasks: [ChunkTask], indexOfKey: [String: Int], runId: Int64, cache: ChunkCache,
                         deliver: (ChunkResult) async throws -> Void) async throws {
        var placed = Set<String>()
        let decoder = JSONDecoder()
        var outage = StoreOutage(storeName: store.name, patience: storePatience, control: control, logger: logger)
        while placed.count < tasks.count {
            try control.check()
            // Only chunks finished since the last look: each is read once, then removed.
            let finished = try await outage.run { try await store.finishedChunks(runId: runId) }
            if let failed = finished.first(where: { $0.state == .failed }) {
                throw RunError(failed.error ?? "a worker could not render chunk \(failed.key)")
            }
            if finished.isEmpty {
                // A worker that died (or was cut off) on a chunk's last attempt fails it here, with
                // no other worker to claim it.
                if try await outage.run({ try await store.failExhaustedChunks() }) > 0 { continue }
                let depth = try await outage.run { try await store.queueDepth()[runId] }
                if (depth.map { $0.queued + $0.claimed + $0.done } ?? 0) == 0 {
                    throw RunError("\(tasks.count - placed.count) of the run's chunks were removed from the queue of \(store.name)")
                }
                await store.waitForQueueChange(timeout: 1)
                continue
            }
            let entries = try await outage.run { try await store.cachedChunks(keys: Set(finished.map(\.key))) }
            for task in finished where !placed.contains(task.key) {
                guard let entry = entries[task.key], let sha256 = entry.sha256 else {
                    throw RunError("chunk \(task.key) is done in the queue but has no cache entry in \(store.name)")
                }
                // From the shared folder (a network file system that may hang): not on a task's thread.
                let (key, expected, chunks) = (task.key, ChunkDigest(bytes: entry.bytes, sha256: sha256), self.chunks)
                var result = try decoder.decode(ChunkResult.self, from: entry.result)
                let pcm = result.pcmBytes.flatMap { bytes in result.pcmSHA256.map { ChunkDigest(bytes: bytes, sha256: $0) } }
                _ = try await OffPool.run {
                    if let pcm { _ = try cache.fetchPCM(key: key, expected: pcm, from: chunks) }
                    return try cache.fetch(key: key, expected: expected, from: chunks)
                }
                result.index = indexOfKey[task.key]!
                placed.insert(task.key)
                try await deliver(result)
            }
            try await outage.run { try await store.removeChunks(ids: finished.compactMap(\.id)) }
        }
    }
}
