import Foundation
import Testing
import LecternStore
import LecternTestSupport
import LecternTesting

/// Reads a job store that the `lectern` binary writes, to assert what runs did.
struct StoreProbe {
    let store: BlockingStore

    init(_ db: URL) throws { store = try BlockingStore(url: db) }

    /// Every run of every job, oldest first.
    func runs() throws -> [RunRecord] {
        try store.jobs().flatMap { try store.runs(jobId: $0.id!, limit: 1000) }.sorted { $0.id! < $1.id! }
    }

    func lastRun() throws -> RunRecord {
        guard let run = try runs().last else { throw TestFailure("no run recorded") }
        return run
    }

    /// The chunks a run rendered itself (not reused), as (key, chapter number).
    func rendered(by run: RunRecord) throws -> [(key: String, chapter: Int)] {
        try store.runChunks(runId: run.id!).filter { $0.state == .rendered }.map { ($0.key, $0.chapterNumber) }
    }

    func chunks(of run: RunRecord) throws -> [RunChunkRecord] { try store.runChunks(runId: run.id!) }

    func chapters(of run: RunRecord) throws -> [ChapterRecord] { try store.chapters(runId: run.id!) }
}

/// Temporary files a run may leave when killed: `.NAME.PID.RANDOM.tmp` beside outputs and anything
/// in the chunk cache's `tmp` folder.
func temporaryFiles(in folders: [URL]) -> [String] {
    folders.flatMap { folder -> [String] in
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.hasSuffix(".tmp") || (path.hasPrefix("cache/tmp/") && path.split(separator: "/").count > 2)
        }.map { folder.appendingPathComponent($0).path }
    }
}
