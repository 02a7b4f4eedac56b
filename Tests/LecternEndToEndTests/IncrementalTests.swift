import Foundation
import Testing
import LecternStore
import LecternTesting

/// `lectern gc` after incremental runs of ``HarbourBook`` removes only what no job references.
/// (Incremental rendering itself is tested in process: LecternRunTests' `IncrementalRunTests`.)
struct IncrementalTests {
    /// Writes the book's sources and a manifest naming `order` of them, with optional extra YAML.
    @discardableResult
    static func writeBook(_ ws: Workspace, order: [Int], extra: String = "") throws -> URL {
        try HarbourBook.write(in: ws.url, order: order, extra: extra)
    }

    /// Runs the job and returns the run's record and the chapter numbers of the chunks it rendered.
    static func render(_ ws: Workspace, _ manifest: URL, _ arguments: [String] = []) throws -> (run: RunRecord, rendered: [Int]) {
        let result = try Tool.lectern(["run", "--quiet"] + arguments + [manifest.path], db: ws.db)
        try #require(result.status == 0, "\(result.stderr)")
        let probe = try StoreProbe(ws.db)
        let run = try probe.lastRun()
        return (run, try probe.rendered(by: run).map(\.chapter))
    }

    @Test func gcRemovesOnlyWhatNoJobReferences() throws {
        let ws = try Workspace("gc")
        let manifest = try Self.writeBook(ws, order: [1, 2])
        _ = try Self.render(ws, manifest)
        try ws.write("ch1.md", HarbourBook.markdown("The Harbour", ["Only one paragraph is left in this chapter now."]))
        let second = try Self.render(ws, manifest)
        let probe = try StoreProbe(ws.db)
        let firstRun = try probe.runs()[0]
        let stale = try Set(probe.chunks(of: firstRun).map(\.key)).subtracting(probe.chunks(of: second.run).map(\.key))
        try #require(!stale.isEmpty)

        let dry = try Tool.lectern(["gc", "--dry-run"], db: ws.db)
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("would remove \(stale.count) cache entries"), "\(dry.stdout)")
        let cacheFiles = { Set(ChunkCache(directory: ws.url.appendingPathComponent("cache")).keysOnDisk()) }
        #expect(cacheFiles().isSuperset(of: stale), "a dry run removes nothing")

        let gc = try Tool.lectern(["gc"], db: ws.db)
        #expect(gc.status == 0 && gc.stdout.contains("removed \(stale.count) cache entries"), "\(gc.stdout)")
        #expect(cacheFiles().isDisjoint(with: stale))
        #expect(cacheFiles().isSuperset(of: try probe.chunks(of: second.run).map(\.key)))
        let again = try Self.render(ws, manifest)
        #expect(again.run.id == second.run.id && again.run.upToDateRuns == 1, "what the job references is still cached")
    }
}
