import Foundation
import Testing
import LecternCore

/// `matter: { front: read|skip, back: read|skip }` on an HTML or EPUB source: read into
/// ``ReadingRules/matter``; a bad value, an unknown side or a plain-text source is an error
/// naming the manifest's line and key.
@Suite struct MatterKeyTests {
    func load(_ source: String, files: [String]) throws -> Result<Manifest, ManifestError> {
        let dir = try TempDir()
        defer { dir.remove() }
        for f in files { try dir.write(f) }
        let url = try dir.write("book.yml", "title: T\nsources:\n  - path: \(files[0])\n    \(source)\n")
        do { return .success(try ManifestLoader(configDirectory: nil).load(url)) } catch let error as ManifestError { return .failure(error) }
    }

    @Test func matterIsReadPerSideAndSkippedByDefault() throws {
        let manifest = try load("matter: { back: read }", files: ["b.epub"]).get()
        #expect(manifest.sources[0].rules.matter == ReadingRules.Matter(front: .skip, back: .read))
        let plain = try load("tables: read", files: ["b.html"]).get()
        #expect(plain.sources[0].rules.matter == ReadingRules.Matter(front: .skip, back: .skip))
    }

    @Test(arguments: [
        ("matter: { front: maybe }", "b.epub", "sources[1].matter.front", "read or skip"),
        ("matter: { middle: read }", "b.html", "sources[1].matter.middle", "unknown key"),
        ("matter: { front: read }", "b.txt", "matter", "HTML, EPUB"),
    ])
    func badMatterNamesLineAndKey(line: String, file: String, key: String, message: String) throws {
        guard case .failure(let error) = try load(line, files: [file]) else {
            Issue.record("expected an error for \(line)")
            return
        }
        #expect(error.line == 4, "\(error)")
        #expect(error.key?.hasSuffix(key) == true, "\(error)")
        #expect(error.message.contains(message), "\(error.message)")
    }
}
