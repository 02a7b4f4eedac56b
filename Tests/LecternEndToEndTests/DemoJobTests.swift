import Foundation
import Testing

/// `make demo` narrates `Jobs/demo.yml` from the repository alone: its text is committed, and the
/// job finds the two chapters with their titles and leaves out the title page and contents.
struct DemoJobTests {
    @Test func theDemoJobReadsACommittedTextWithItsTwoChapters() throws {
        let manifest = Tool.packageRoot.appendingPathComponent("Jobs/demo.yml")
        let source = Tool.packageRoot.appendingPathComponent("Jobs/texts/alice-chapters-1-2.txt")
        #expect(FileManager.default.fileExists(atPath: source.path), "the demo's text is in the repository")
        let check = try Tool.run(Tool.lectern, ["check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        let titles = (report["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles == ["CHAPTER I. Down the Rabbit-Hole", "CHAPTER II. The Pool of Tears"])
        let reasons = (report["skipped"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        #expect(reasons.contains("contents list") && reasons.contains("title page"))
        #expect(!(report["output"] as? String ?? "").contains("shared"), "the output stays in the clone")
    }
}
