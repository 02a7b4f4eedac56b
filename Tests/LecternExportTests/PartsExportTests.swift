import Foundation
import Testing
@testable import LecternExport

/// The WebVTT notes, the read-along page's data and the EPUB navigation of a book in parts, and
/// of the same book without them.
@Suite struct PartsExportTests {
    static func notes(_ document: TimingDocument) -> [String] {
        WebVTTWriter.render(document).split(separator: "\n").filter { $0.hasPrefix("NOTE") }.map(String.init)
    }

    @Test func webVTTNotesNameTheChaptersPart() throws {
        #expect(Self.notes(try PartsFixture.document()) == [
            "NOTE Chapter 1: Prologue", "NOTE Part One & <Beginnings>, Chapter 2: Arrival", "NOTE Part One & <Beginnings>, Chapter 3: Night",
            "NOTE Part Two, Chapter 4: Return", "NOTE Chapter 5: Epilogue",
        ])
        #expect(Self.notes(try PartsFixture.document(withParts: false)) == (1...5).map { "NOTE Chapter \($0): \(PartsFixture.chapters[$0 - 1].title)" })
    }

    @Test func readAlongDataGivesAChapterInAPartTheTitleOfItsPart() throws {
        func chapters(_ document: TimingDocument) throws -> [[Any]] {
            let data = ReadAlongPage.data(for: document)
            #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
            return try #require((try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])?["c"] as? [[Any]])
        }
        let parted = try chapters(try PartsFixture.document())
        #expect(parted.map(\.count) == [4, 5, 5, 5, 4])
        #expect(parted.map { $0.count > 4 ? $0[4] as? String : nil } == PartsFixture.chapters.map(\.part))
        #expect(try chapters(try PartsFixture.document(withParts: false)).allSatisfy { $0.count == 4 })
    }

    @Test func navigationWithoutPartsIsAFlatList() throws {
        let nav = EPUBPackageDocument.navigation(title: "Novel", language: "en", chapters: [("One", "text/chapter-001.xhtml", nil), ("Two", "text/chapter-002.xhtml", nil)])
        #expect(nav == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
            <head><meta charset="utf-8"/><title>Novel</title></head>
            <body>
            <nav epub:type="toc" id="toc"><h1>Contents</h1>
            <ol>
            <li><a href="text/chapter-001.xhtml">One</a></li>
            <li><a href="text/chapter-002.xhtml">Two</a></li>
            </ol>
            </nav>
            </body>
            </html>

            """)
    }

    @Test func navigationListsAPartsChaptersUnderItsTitleAndPassesEPUBCheck() throws {
        let document = try PartsFixture.document()
        let entries = document.chapters.map { ($0.title, String(format: "text/chapter-%03d.xhtml", $0.number), $0.part) }
        let nav = EPUBPackageDocument.navigation(title: "Novel", language: "en", chapters: entries)
        let list = try #require(nav.range(of: "<ol>\n")).upperBound
        #expect(nav[list...].hasPrefix("""
            <li><a href="text/chapter-001.xhtml">Prologue</a></li>
            <li><span>Part One &amp; &lt;Beginnings&gt;</span>
            <ol>
            <li><a href="text/chapter-002.xhtml">Arrival</a></li>
            <li><a href="text/chapter-003.xhtml">Night</a></li>
            </ol></li>
            <li><span>Part Two</span>
            <ol>
            <li><a href="text/chapter-004.xhtml">Return</a></li>
            </ol></li>
            <li><a href="text/chapter-005.xhtml">Epilogue</a></li>
            </ol>
            </nav>
            """))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nav-\(UUID().uuidString).xhtml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(nav.utf8).write(to: file)
        let check = try run("java", ["-jar", "/usr/share/java/epubcheck.jar", "--mode", "nav", "-v", "3.0", file.path])
        #expect(check.status == 0 && check.output.contains("No errors or warnings detected"), "epubcheck: \(check.output)")
    }

    /// Runs a program from PATH and returns its exit status and its stdout and stderr together.
    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
