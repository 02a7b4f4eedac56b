import Foundation
import Testing
import LecternCore

/// The documentation generated from the manifest's schema is the one committed (regenerate it
/// with `make docs`), and the manual pages are clean under `mandoc -T lint`.
@Suite struct ManifestReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theREADMEsReferenceIsCurrent() throws {
        let readme = try Self.read("README.md")
        let current = try #require(ManifestReference.updatingREADME(readme), "README.md lacks the manifest-reference markers")
        #expect(current == readme, "README.md's manifest reference is stale: run `make docs`")
        for key in ManifestSchema.keys {
            #expect(readme.contains("| `\(key.path)` |"), "\(key.path) missing from README.md")
        }
    }

    @Test func theManifestManualPageIsCurrent() throws {
        let page = try Self.read("docs/lectern-manifest.5")
        let date = try #require(ManifestReference.manPageDate(page))
        #expect(page == ManifestReference.manPage(date: date), "docs/lectern-manifest.5 is stale: run `make docs`")
        for key in ManifestSchema.keys {
            #expect(page.contains(".B " + RoffText.escaped(key.path) + "\n"), "\(key.path) missing from lectern-manifest(5)")
        }
    }

    /// lectern-manifest(5) without a message at all; lectern(1) without a warning (ArgumentParser
    /// writes some of its lines longer than 80 bytes, a style message).
    @Test(arguments: [("docs/lectern-manifest.5", "style"), ("docs/lectern.1", "warning")])
    func theManualPagesAreCleanUnderMandocLint(path: String, level: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mandoc")
        process.arguments = ["-T", "lint", "-W", level, Self.root.appendingPathComponent(path).path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && text.isEmpty, "\(path):\n\(text)")
    }

    @Test func theTemplateCommentsEveryManifestKey() {
        let template = ManifestReference.template()
        let lines = template.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("#") })
        // (A key under `*`, such as `pauses.*.before`, is in its parent's example: `paragraph: { before: 0.2, … }`.)
        for key in ManifestSchema.keys where !key.onlyInDefaults && !key.path.contains("*") {
            let written = lines.contains { line in
                let yaml = line.dropFirst().trimmingCharacters(in: .whitespaces)
                return yaml.hasPrefix(key.name + ":") || yaml.hasPrefix("- " + key.name + ":")
            }
            #expect(written, "\(key.path) missing from the template:\n\(template)")
        }
    }

    @Test func roffTextPutsEachSentenceOnItsOwnLineWithin80Bytes() {
        let lines = RoffText.lines("A `code` span. Then \\ a backslash, an arrow → and a long run of words that goes on and on past the width of a terminal line. .dot")
        #expect(lines.first == "A \\fBcode\\fR span.")
        #expect(lines.allSatisfy { $0.utf8.count <= 80 })
        #expect(lines.joined(separator: " ").contains("\\e a backslash, an arrow \\[u2192] and"))
        #expect(lines.last == "\\&.dot")
    }
}
