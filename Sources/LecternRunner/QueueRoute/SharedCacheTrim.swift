import Foundation
import LecternStore

/// Keeps this host's copies of shared chunks within a limit: the copies used longest ago go
/// first (the shared chunk folder keeps every chunk), never those of a run still running — a
/// run of this host may be placing or assembling them — nor the ones the caller names.
struct SharedCacheTrim {
    let store: any JobStore
    let cache: ChunkCache
    let limit: Int

    @discardableResult
    func trim<Keys: Sequence>(keeping keys: Keys) async -> [String] where Keys.Element == String {
        guard cache.bytesOnDisk() > limit else { return [] }
        var keep = Set(keys)
        for job in (try? await store.jobs()) ?? [] {
            for run in (try? await store.runs(jobId: job.id!, limit: 3)) ?? [] where run.state == .running {
                keep.formUnion(((try? await store.runChunks(runId: run.id!)) ?? []).map(\.key))
            }
        }
        return cache.trim(toBytes: limit, keeping: keep)
    }
}
