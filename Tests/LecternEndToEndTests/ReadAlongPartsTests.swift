import Foundation
import LecternCore
import LecternExport
import Testing

/// The read-along page of a book in parts, opened in headless Chromium: the chapter list holds a
/// part's chapters in an `li.part` under the part's title, the other chapters stay at the top,
/// and the current chapter is still marked inside a part. (No reader makes parts yet, so the
/// sidecar is written here through ``TimingSidecarWriter``.)
@Suite(.enabled(if: Chromium.path != nil, "needs headless Chromium (Debian package `chromium`) to open the read-along page"))
struct ReadAlongPartsTests {
    static let chapters: [(title: String, part: String?)] = [
        ("Prologue", nil), ("Arrival", "Book I & <Dawn>"), ("Night", "Book I & <Dawn>"), ("Return", "Book II"), ("Epilogue", nil),
    ]

    @Test func chapterListNestsEachPartsChaptersUnderItsTitle() throws {
        let ws = try Workspace("readalong-parts")
        let sidecar = ws.url.appendingPathComponent("novel.timings.json")
        let timer = UtteranceTimer(sampleRate: 1000)
        let writer = try TimingSidecarWriter(url: sidecar, title: "Novel", author: nil, audio: "novel.mp3", sampleRate: 1000)
        for (index, chapter) in Self.chapters.enumerated() {
            try writer.beginChapter(number: index + 1, title: chapter.title, start: index * 1000, part: chapter.part)
            try writer.append(timer.paragraph(kind: .paragraph, text: "Hello there.", voice: "en", marks: [(0, 0), (6, 300)],
                                              speechStart: index * 1000 + 100, speechLength: 800))
            try writer.endChapter(end: index * 1000 + 1000)
        }
        try writer.commit(sampleCount: 5000, wordCount: 10, skipped: [])
        let document = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: sidecar))
        let page = try ws.write("novel.html", ReadAlongPage.html(for: document, audio: "novel.mp3"))

        // 2.5 s: the second word of chapter 3, "Night", the second chapter of Book I.
        let output = try Chromium.dumpAll([page.absoluteString + "?t=2.500"], profiles: ws.url)[0].get()
        let consoleLines = output.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(consoleLines.isEmpty, "the page logged to the console: \(consoleLines)")
        let dom = DumpedDOM(output.stdout)
        try #require(dom.elements.first { $0.tag == "body" }?.attributes["data-ready"] == "1", "the page did not finish loading")

        let nav = try #require(dom.element(id: "chapters"))
        let list = try #require(dom.elements.first { $0.tag == "ol" && dom.contains($0, within: nav) })
        let links = dom.elements.filter { $0.attributes["data-chapter"] != nil }
        #expect(links.map(dom.textContent(of:)) == Self.chapters.map(\.title))
        #expect(links.map { $0.attributes["href"] } == (0..<5).map { "#c\($0)" })
        let parts = dom.elements(withClass: "part")
        #expect(parts.map(\.tag) == ["li", "li"])
        #expect(parts.allSatisfy { dom.contains($0, within: list) })
        let titles = parts.map { part in dom.elements.first { $0.tag == "span" && dom.contains($0, within: part) }.map(dom.textContent(of:)) }
        #expect(titles == ["Book I & <Dawn>", "Book II"])
        #expect(parts.map { part in links.filter { dom.contains($0, within: part) }.map(dom.textContent(of:)) } == [["Arrival", "Night"], ["Return"]])
        // Every chapter link is in an li of its own, in an ol: the top list or its part's.
        let items = dom.elements.filter { $0.tag == "li" && !$0.classes.contains("part") }
        #expect(items.count == 5 && zip(items, links).allSatisfy { dom.contains($1, within: $0) })
        #expect(dom.elements(withClass: "current-chapter").map { $0.attributes["data-chapter"] } == ["2"])
        #expect(dom.elements(withClass: "current-word").map(\.id) == ["w5"])
    }
}
