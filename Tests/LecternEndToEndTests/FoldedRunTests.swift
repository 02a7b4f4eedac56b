import Foundation
import Testing
import LecternTestSupport

/// A run that finds nothing to do (its outputs current) is not a new run in the store: it is
/// folded into the run that made those outputs, as a count and the time of the last such check;
/// a run that renders is a run of its own again.
struct FoldedRunTests {
    private func runs(_ ws: Workspace) throws -> [[String: Any]] {
        let status = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path, "--json", "--runs", "20"])
        try #require(status.status == 0, "\(status.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any] ?? [:]
        let jobs = report["jobs"] as? [[String: Any]] ?? []
        try #require(jobs.count == 1, "\(status.stdout)")
        return jobs[0]["runs"] as? [[String: Any]] ?? []
    }

    @Test func runsThatChangeNothingAreCountedOnTheRunTheyConfirm() throws {
        let ws = try Workspace("folded")
        let book = try ws.write("book.txt", "CHAPTER I. One\n\nThe first version of the only paragraph.\n")
        let manifest = try ws.write("book.yml", "title: Folded\nsources: [book.txt]\n")
        let first = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(first.status == 0, "\(first.stderr)")
        let rendered = try runs(ws)
        try #require(rendered.count == 1)
        let renderedId = rendered[0]["id"] as? Int
        #expect((rendered[0]["upToDateRuns"] as? Int ?? 0) == 0)

        for _ in 0..<3 {
            let again = try Tool.lectern(["run", "--json", manifest.path], db: ws.db)
            try #require(again.status == 0, "\(again.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(report.first?["upToDate"] as? Bool == true && report.first?["run"] as? Int == renderedId, "\(again.stdout)")
        }
        let folded = try runs(ws)
        #expect(folded.count == 1, "runs that changed nothing were recorded as runs: \(folded.map { $0["id"] ?? "" })")
        #expect(folded.first?["upToDateRuns"] as? Int == 3)
        let checkedAt = folded.first?["lastUpToDateAt"] as? String
        let endedAt = folded.first?["endedAt"] as? String
        #expect(checkedAt != nil && endedAt != nil && checkedAt! >= endedAt!, "\(folded)")
        let text = try Tool.run(Tool.lectern, ["status", "--db", ws.db.path])
        #expect(text.stdout.contains("up to date 3 more times"), "\(text.stdout)")

        try Data("CHAPTER I. One\n\nThe second version of the only paragraph.\n".utf8).write(to: book)
        let edited = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(edited.status == 0, "\(edited.stderr)")
        let after = try runs(ws)
        #expect(after.count == 2 && (after.first?["upToDateRuns"] as? Int ?? 0) == 0, "\(after)")
        #expect(after.last?["upToDateRuns"] as? Int == 3)
    }
}
