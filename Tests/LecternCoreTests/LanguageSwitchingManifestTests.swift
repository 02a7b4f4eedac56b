import Foundation
import Testing
import LecternCore

/// `language_switching:` takes false (one voice), true (declared languages, the default) or detect.
@Suite struct LanguageSwitchingManifestTests {
    private func load(_ value: String?) throws -> Manifest {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("book.txt")
        let url = try dir.write("book.yml", "title: Book\nsources: [book.txt]\n" + (value.map { "language_switching: \($0)\n" } ?? ""))
        return try ManifestLoader(configDirectory: nil).load(url)
    }

    @Test func eachValueReadsAsItsMode() throws {
        #expect(try load(nil).languageSwitching == .detect, "a careful narrator hears another language unprompted")
        #expect(try load("true").languageSwitching == .declared)
        #expect(try load("false").languageSwitching == .off)
        #expect(try load("detect").languageSwitching == .detect)
        #expect(try load("detect").switchesLanguages)
        #expect(try !load("false").switchesLanguages)
    }

    @Test func anotherValueIsAnErrorNamingLineAndKey() throws {
        for value in ["guess", "[detect]", "3"] {
            do {
                _ = try load(value)
                Issue.record("expected a ManifestError for \(value)")
            } catch let error as ManifestError {
                #expect(error.line == 3 && error.key == "language_switching", "\(error)")
                #expect(error.message.contains("detect"), "\(error)")
            }
        }
    }
}
