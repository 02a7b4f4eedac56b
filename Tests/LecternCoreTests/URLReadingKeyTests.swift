import Foundation
import Testing
import LecternCore

/// The manifest's `urls:` (how URLs and e-mail addresses are read), over `Config/defaults.yml`.
@Suite struct URLReadingKeyTests {
    @Test func theManifestSaysHowURLsAreRead() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("book.txt")
        let loader = ManifestLoader(configDirectory: nil)
        #expect(try loader.load(dir.write("a.yml", "title: T\nsources: [book.txt]\n")).urls == .domain)
        #expect(try loader.load(dir.write("b.yml", "title: T\nsources: [book.txt]\nurls: skip\n")).urls == .skip)
        let error = try #require(throws: ManifestError.self) {
            try loader.load(dir.write("c.yml", "title: T\nsources: [book.txt]\nurls: spell\n"))
        }
        #expect(error.line == 3)
        #expect(error.key == "urls")
        #expect(error.message.contains("found \"spell\""))
        // Config/defaults.yml may say it too; the manifest wins.
        try dir.write("Config/defaults.yml", "urls: read\n")
        let configured = ManifestLoader(configDirectory: dir.url.appendingPathComponent("Config"))
        #expect(try configured.load(dir.write("d.yml", "title: T\nsources: [book.txt]\n")).urls == .read)
        #expect(try configured.load(dir.write("e.yml", "title: T\nsources: [book.txt]\nurls: domain\n")).urls == .domain)
    }
}
