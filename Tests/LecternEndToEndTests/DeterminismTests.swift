import Foundation
import Testing

/// Same input, same bytes: one job rendered with 1, 2 and 3 workers, then twice more with
/// `--force`, writes byte-identical MP3, JSON, VTT, SRT, read-along page and narrated EPUB. With
/// several workers each renders several chunks, in an order that changes from run to run, so this
/// fails if a chunk's audio depends on what its worker rendered before (libespeak-ng keeps state
/// from one synthesis to the next; the engine reloads it per chunk).
struct DeterminismTests {
    @Test func everyOutputIsTheSameWhateverTheWorkersAndTheCache() throws {
        let ws = try Workspace("determinism")
        // The committed demo text (two chapters of Alice), at the fastest exact rate: several chunks.
        let text = try String(contentsOf: Tool.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt"), encoding: .utf8)
        try ws.write("alice.txt", text)
        let manifest = try ws.write("alice.yml", """
            title: Alice
            output: out
            sources: [alice.txt]
            voice: { name: en-gb, rate: 1.0 }
            styles:
              quote: { pitch: 1.2 }
            timings: [json, vtt, srt, html, epub]
            """)
        let names = ["alice.mp3", "alice.timings.json", "alice.vtt", "alice.srt", "alice.html", "alice.epub"]
        var first: [String: String]?
        var chunkCounts: Set<Int> = []
        for arguments in [["--workers", "1"], ["--workers", "2", "--force"], ["--workers", "3", "--force"],
                          ["--workers", "2", "--force"], ["--workers", "3", "--force"]] {
            let run = try Tool.lectern(["run", "--quiet", manifest.path] + arguments, db: ws.db)
            try #require(run.status == 0, "\(arguments): \(run.stderr)")
            var digests: [String: String] = [:]
            for name in names {
                let result = try Tool.run("sha256sum", [ws.url.appendingPathComponent("out/\(name)").path])
                digests[name] = String(result.stdout.prefix(64))
            }
            if let first {
                for name in names { #expect(digests[name] == first[name], "\(name) differs with \(arguments)") }
            } else {
                first = digests
            }
            let status = try Tool.lectern(["status", "--json", "alice"], db: ws.db)
            let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            let runs = (json?["jobs"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]] ?? []
            if let count = runs.first?["chunks"] as? Int { chunkCounts.insert(count) }
        }
        // The proof needs workers that render more than one chunk each.
        let chunks = try #require(chunkCounts.first, "status --json gave no chunk count")
        #expect(chunks >= 6, "only \(chunks) chunks: too few for the workers to render several each")
    }
}
