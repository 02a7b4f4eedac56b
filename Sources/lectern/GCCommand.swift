import ArgumentParser
import Foundation
import LecternCore
import LecternRunner
import LecternStore

/// `lectern gc [--dry-run]`: removes chunk cache entries that no job references any more.
///
/// A job references the chunks of its newest successful run and of every run after it (running,
/// or stopped and waiting to be continued). Also removed: chunk files the store does not know
/// (left by a crash between writing a chunk and recording it; only once they are an hour old, so
/// a run in progress keeps its newest chunk), temporary folders of processes that died, and
/// temporary files such processes left beside a job's outputs (`.NAME.PID.RANDOM.tmp`); with a chunk
/// folder hosts share, the same chunks there and its stale upload temporaries; and lost workers
/// (silent for more than three of their lease periods, which `lectern status` shows as lost).
struct GCCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove chunk cache entries that no job references.",
        discussion: "Example: lectern gc --dry-run"
    )

    @Flag(help: "List what would be removed, remove nothing.")
    var dryRun = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        await reportingErrors {
            let opened = try await store.open()
            let jobStore = opened.store
            let cache = ChunkCache(store: jobStore)
            let referenced = try await jobStore.referencedChunkKeys()
            let entries = try await jobStore.allCachedChunks()
            let unreferenced = entries.filter { !referenced.contains($0.key) }
            let known = Set(entries.map(\.key))
            let hourAgo = Date().addingTimeInterval(-3600)
            let orphans = cache.keysOnDisk().filter { key in
                guard !known.contains(key) else { return false }
                let modified = (try? FileManager.default.attributesOfItem(atPath: cache.url(for: key).path)[.modificationDate]) as? Date
                return (modified ?? .distantPast) < hourAgo
            }
            let bytes = unreferenced.reduce(0) { $0 + $1.bytes }
            if !dryRun {
                try await jobStore.forgetChunks(keys: unreferenced.map(\.key))
                for key in unreferenced.map(\.key) + orphans { cache.remove(key: key) }
            }
            // The chunk folder hosts share: the entries removed above, and temporaries of uploads a
            // host never finished (by age: another host's processes cannot be asked).
            var sharedRemoved: [String] = []
            if let shared = opened.shared {
                if !dryRun {
                    for key in unreferenced.map(\.key) {
                        try shared.remove(key: key)
                        try shared.remove(key: ChunkCache.sharedPCMKey(for: key))  // a kept PCM, if the chunk had one
                    }
                }
                sharedRemoved = unreferenced.map { "\($0.key) in \(shared.description)" }
                sharedRemoved += shared.removeStaleTemporaries(olderThan: 3600, dryRun: dryRun).map(\.path)
            }
            // Lost workers (killed, their host gone or cut off) leave `lectern status`; one that
            // was only cut off registers again with its next heartbeat.
            let now = Date()
            let silent = try await jobStore.workers().filter { $0.isLost(at: now) }
            if !dryRun { for worker in silent { try await jobStore.removeWorker(id: worker.id) } }
            let temporaries = cache.removeStaleTemporaries(dryRun: dryRun)
            let (outputs, inputs) = try await files(of: jobStore)
            let strays = OutputFiles.removeStaleTemporaries(of: outputs, protecting: inputs, dryRun: dryRun)
            let verb = dryRun ? "would remove" : "removed"
            for key in unreferenced.map(\.key) { print("\(verb) \(cache.url(for: key).path)") }
            for key in orphans { print("\(verb) \(cache.url(for: key).path) (not in the store)") }
            for folder in temporaries { print("\(verb) \(folder.path) (temporary folder of a process that ended)") }
            for file in strays { print("\(verb) \(file.path) (temporary output of a process that ended)") }
            for item in sharedRemoved { print("\(verb) \(item) (shared chunk folder)") }
            for worker in silent { print("\(verb) worker \(worker.host) pid \(worker.pid) (lost: no heartbeat for \(Int(now.timeIntervalSince(worker.heartbeatAt))) s, over 3 lease periods)") }
            print(String(format: "%@ %d cache entries (%.1f MB), %d unrecorded files, %d temporary folders, %d temporary outputs; %d entries kept",
                         verb, unreferenced.count, Double(bytes) / 1_000_000, orphans.count, temporaries.count, strays.count,
                         entries.count - unreferenced.count))
        }
    }

    /// Every job's outputs — as its manifest names them now (if it loads) and as its runs wrote
    /// them — and every input its manifest names (which no clean-up removes, whatever its name).
    func files(of store: any JobStore) async throws -> (outputs: [URL], inputs: [URL]) {
        var files: [URL] = [], inputs: [URL] = []
        for job in try await store.jobs() {
            var loader = ManifestLoader()
            loader.checksFiles = false
            if let manifest = try? loader.load(URL(fileURLWithPath: job.manifestPath)) {
                files += manifest.outputURLs + [manifest.outputDirectory.appendingPathComponent("\(manifest.name).chunks")]
                inputs += manifest.inputs.map(\.url)
            }
            for run in try await store.runs(jobId: job.id!, limit: 1000) {
                files += [run.mp3Path, run.timingsPath].compactMap { $0 }.map { URL(fileURLWithPath: $0) }
            }
        }
        return (files, inputs)
    }
}
