import Foundation
import Testing
import LecternCore
import LecternTesting

/// What a user sees, locked: the demo's rendered bytes and every corpus book's narration script
/// (`check --text`) against the SHA-256 sums in `Tests/Fixtures/unchanged-outputs.sha256`.
///
/// A refactoring (#40) changes none of them, and this test says so. A change meant to alter what is
/// heard or written (a reading rule, an encoder setting) alters a sum on purpose: read the new
/// outputs the failure names (kept in `.build/unchanged-outputs/`), then write the sums anew with
/// `LECTERN_UPDATE_UNCHANGED=1` set for this suite (`make unchanged-outputs`) and commit them with the change.
@Suite(.serialized) struct UnchangedOutputTests {
    static let fixture = Tool.packageRoot.appendingPathComponent("Tests/Fixtures/unchanged-outputs.sha256")
    static let kept = Tool.packageRoot.appendingPathComponent(".build/unchanged-outputs")
    static var updating: Bool { ProcessInfo.processInfo.environment["LECTERN_UPDATE_UNCHANGED"] == "1" }

    /// The demo job rendered from a copy of `Jobs/` (its outputs land in `out/demo` beside it).
    @Test func theDemoRendersTheSameBytes() throws {
        let ws = try Workspace("unchanged-demo")
        let jobs = Tool.packageRoot.appendingPathComponent("Jobs")
        try ws.write("Jobs/demo.yml", String(contentsOf: jobs.appendingPathComponent("demo.yml"), encoding: .utf8))
        try ws.write("Jobs/texts/alice-chapters-1-2.txt",
                     String(contentsOf: jobs.appendingPathComponent("texts/alice-chapters-1-2.txt"), encoding: .utf8))
        let run = try Tool.lectern(["run", "--quiet", ws.url.appendingPathComponent("Jobs/demo.yml").path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let out = ws.url.appendingPathComponent("out/demo")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(outputs == ["demo.html", "demo.mp3", "demo.timings.json"], "\(outputs)")
        try Self.compare(outputs.map { ("demo/\($0)", try Data(contentsOf: out.appendingPathComponent($0))) }, prefix: "demo/")
    }

    /// Every corpus document's narration script, read with no manifest.
    @Test(.enabled(if: Corpus.available, "../shared/corpus is absent")) func everyCorpusBookReadsTheSameScript() throws {
        let extensions: Set = ["txt", "htm", "html", "epub", "md"]
        let files = (FileManager.default.enumerator(atPath: Corpus.root.path)?.allObjects as? [String] ?? [])
            .filter { extensions.contains(($0 as NSString).pathExtension) && ($0 as NSString).lastPathComponent != "README.md" }
            .sorted()
        try #require(files.count >= 20, "the corpus holds \(files.count) documents")
        let scripts = try files.map { ("corpus/\($0)", Data(try Corpus.script($0).utf8)) }
        try Self.compare(scripts, prefix: "corpus/")
    }

    /// Compares the outputs named `prefix…` with the fixture's sums (or writes them, when updating),
    /// keeping each output that differs where the failure says.
    static func compare(_ outputs: [(name: String, data: Data)], prefix: String) throws {
        let text = (try? String(contentsOf: fixture, encoding: .utf8)) ?? ""
        var locked: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2 { locked[String(fields[1])] = String(fields[0]) }
        }
        let sums = Dictionary(uniqueKeysWithValues: outputs.map { output -> (String, String) in
            var hasher = SHA256()
            hasher.update(output.data)
            return (output.name, hasher.hexDigest())
        })
        if updating {
            locked = locked.filter { !$0.key.hasPrefix(prefix) }.merging(sums) { $1 }
            let header = text.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: "\n")
            let body = locked.keys.sorted().map { "\(locked[$0]!) \($0)" }.joined(separator: "\n")
            try (header + "\n" + body + "\n").write(to: fixture, atomically: true, encoding: .utf8)
            return
        }
        let expected = locked.filter { $0.key.hasPrefix(prefix) }
        #expect(Set(expected.keys) == Set(sums.keys), "outputs \(sums.keys.sorted()) against the locked \(expected.keys.sorted())")
        for output in outputs where expected[output.name] != sums[output.name] {
            let copy = kept.appendingPathComponent(output.name)
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try output.data.write(to: copy)
            Issue.record("\(output.name) changed (SHA-256 \(sums[output.name]!), locked \(expected[output.name] ?? "none")): the new one is \(copy.path); if the change is meant, see UnchangedOutputTests")
        }
    }
}
