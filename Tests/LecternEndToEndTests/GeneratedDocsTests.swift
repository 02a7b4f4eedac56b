import Foundation
import Testing
import LecternCore

/// What `lectern docs` generates from the manifest's schema and the commands — README's manifest
/// reference, lectern-manifest(5), lectern(1)'s ENVIRONMENT, FILES, EXIT STATUS and SEE ALSO —
/// is what is committed, and `lectern init` writes every key, commented.
@Suite struct GeneratedDocsTests {
    @Test func theCommittedDocsAreCurrent() throws {
        let check = try Tool.run(Tool.lectern, ["docs", "--check", "--root", Tool.packageRoot.path])
        #expect(check.status == 0, "\(check.stderr) (run `make docs`)")
        let manual = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/lectern.1"), encoding: .utf8)
        for section in [".Sh ENVIRONMENT", ".Sh FILES", ".Sh \"EXIT STATUS\"", ".Sh \"SEE ALSO\"", ".Xr lectern-manifest 5", ".It Ev LECTERN_CONFIG", ".It 64"] {
            #expect(manual.contains(section + "\n"), "\(section) missing from docs/lectern.1")
        }
        // The store's defaults are said once, not under each command's --store.
        #expect(manual.components(separatedBy: "$LECTERN_DB").count - 1 <= 3, "the store paragraph repeats in docs/lectern.1")
    }

    /// A copy with a stale reference and a lectern(1) as ArgumentParser writes it: `--check` names
    /// them and fails; `docs` writes them; then `--check` passes and `docs` changes nothing more.
    @Test func staleDocsAreNamedThenRegenerated() throws {
        let ws = try Workspace("docs")
        let root = Tool.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        try ws.write("README.md", readme.replacingOccurrences(of: "| `voice.rate` |", with: "| `voice.speed` |"))
        let manual = try String(contentsOf: root.appendingPathComponent("docs/lectern.1"), encoding: .utf8)
        let generated = manual.components(separatedBy: "\n.Sh ENVIRONMENT\n")[0] + "\n.Sh \"EXIT STATUS\"\n"
        try ws.write("docs/lectern.1", generated)
        try ws.write("docs/lectern-manifest.5", try String(contentsOf: root.appendingPathComponent("docs/lectern-manifest.5"), encoding: .utf8))
        let stale = try Tool.run(Tool.lectern, ["docs", "--check", "--root", ws.url.path])
        #expect(stale.status == 1 && stale.stderr.contains("README.md") && stale.stderr.contains("docs/lectern.1")
                && !stale.stderr.contains("lectern-manifest.5"), "\(stale.stderr)")
        #expect(try Tool.run(Tool.lectern, ["docs", "--root", ws.url.path]).status == 0)
        #expect(try String(contentsOf: ws.url.appendingPathComponent("README.md"), encoding: .utf8) == readme)
        #expect(try String(contentsOf: ws.url.appendingPathComponent("docs/lectern.1"), encoding: .utf8) == manual)
        let again = try Tool.run(Tool.lectern, ["docs", "--check", "--root", ws.url.path])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func initWritesEveryKeyCommented() throws {
        let ws = try Workspace("init-keys")
        let file = try ws.write("small.txt", "Title: Small\n\nCHAPTER I.\n\nSome words to read here.\n")
        let target = ws.url.appendingPathComponent("small.yml")
        let made = try Tool.run(Tool.lectern, ["init", file.path, "-o", target.path])
        try #require(made.status == 0, "\(made.stderr)")
        let yaml = try String(contentsOf: target, encoding: .utf8)
        #expect(yaml.hasSuffix(ManifestReference.template()), "\(yaml)")
        // The comments change nothing: the manifest still loads.
        let check = try Tool.run(Tool.lectern, ["check", "--json", target.path])
        #expect(check.status == 0, "\(check.stderr)")
    }
}
