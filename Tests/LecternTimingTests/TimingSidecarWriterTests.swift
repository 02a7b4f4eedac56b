import Foundation
import LecternCore
import Testing
@testable import LecternTiming

@Suite struct TimingSidecarWriterTests {
    @Test func streamedSidecarDecodesAsTheDocumentSchema() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let timer = UtteranceTimer(sampleRate: 1000)
        let writer = try TimingSidecarWriter(url: url, title: "Tëst “Book”", author: "A. Author", audio: "book.mp3", sampleRate: 1000)
        try writer.beginChapter(number: 1, title: "One", start: 0)
        try writer.append(timer.paragraph(kind: .heading, text: "One", voice: "en", marks: [(0, 0)], speechStart: 100, speechLength: 300))
        try writer.append(timer.paragraph(kind: .paragraph, text: "Hello there.", voice: "en", marks: [(0, 0), (6, 200)],
                                          speechStart: 900, speechLength: 500))
        try writer.endChapter(end: 2000)
        try writer.beginChapter(number: 2, title: "Two", start: 2000)
        try writer.endChapter(end: 2500)
        #expect(!FileManager.default.fileExists(atPath: url.path), "nothing is visible before commit")
        try writer.commit(sampleCount: 2500, wordCount: 3,
                          skipped: [SkippedText(source: "b.md", chapter: 1, reason: "code block", text: "x = 1")])

        let doc = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: url))
        #expect(doc.format == "lectern-timings" && doc.version == 1)
        #expect(doc.title == "Tëst “Book”" && doc.author == "A. Author" && doc.audio == "book.mp3")
        #expect(doc.sampleCount == 2500 && doc.durationMs == 2500 && doc.wordCount == 3)
        #expect(doc.chapters.map(\.title) == ["One", "Two"])
        #expect(doc.chapters.map(\.end) == [2000, 2500])
        #expect(doc.chapters[0].paragraphs.map(\.text) == ["One", "Hello there."])
        #expect(doc.chapters[0].paragraphs[1].sentences[0].words.map(\.start) == [900, 1100])
        #expect(doc.chapters[1].paragraphs.isEmpty)
        #expect(doc.skipped.first?.reason == "code block")
    }

    @Test func discardedSidecarLeavesNoFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        let writer = try TimingSidecarWriter(url: url, title: "T", author: nil, audio: "a.mp3", sampleRate: 22050)
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: AtomicFile.temporaryURL(for: url).path))
    }
}
