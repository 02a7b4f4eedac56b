import Foundation
import LecternCore
import Testing
@testable import LecternExport

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
                          skipped: [SkippedText(source: "b.md", chapter: 1, reason: .codeBlock, text: "x = 1")])

        let doc = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: url))
        #expect(doc.format == "lectern-timings" && doc.version == TimingDocument.currentVersion)
        #expect(doc.title == "Tëst “Book”" && doc.author == "A. Author" && doc.audio == "book.mp3")
        #expect(doc.sampleCount == 2500 && doc.durationMs == 2500 && doc.wordCount == 3)
        #expect(doc.chapters.map(\.title) == ["One", "Two"])
        #expect(doc.chapters.map(\.end) == [2000, 2500])
        #expect(doc.chapters[0].paragraphs.map(\.text) == ["One", "Hello there."])
        #expect(doc.chapters[0].paragraphs[1].sentences[0].words.map(\.start) == [900, 1100])
        #expect(doc.chapters[1].paragraphs.isEmpty)
        #expect(doc.skipped.first?.reason == .codeBlock)
    }

    /// Writes chapters with the given parts, each 1000 ms (with a gap of 10 ms between), and
    /// returns the committed file as JSONSerialization reads it.
    func sidecar(parts: [String?]) throws -> [String: Any] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try TimingSidecarWriter(url: url, title: "Novel", author: nil, audio: "novel.mp3", sampleRate: 1000)
        for (index, part) in parts.enumerated() {
            try writer.beginChapter(number: index + 1, title: "Chapter \(index + 1)", start: index * 1010 + 10, part: part)
            try writer.endChapter(end: index * 1010 + 1010)
        }
        try writer.commit(sampleCount: parts.count * 1010 + 10, wordCount: 0, skipped: [])
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test func chaptersNameTheirPartAndTheDocumentListsThePartsWithTheirChaptersAndSpan() throws {
        let json = try sidecar(parts: [nil, "Book I", "Book I", "Book I", "Book Ⅱ “Winter”", "Book Ⅱ “Winter”", nil, "Book I"])
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["part"] as? String } == [nil, "Book I", "Book I", "Book I", "Book Ⅱ “Winter”", "Book Ⅱ “Winter”", nil, "Book I"])
        #expect(chapters[0].keys.contains("part") == false && chapters[6].keys.contains("part") == false)
        let parts = try #require(json["parts"] as? [[String: Any]])
        #expect(parts.map { $0["title"] as? String } == ["Book I", "Book Ⅱ “Winter”", "Book I"])
        #expect(parts.map { $0["chapters"] as? [Int] } == [[2, 3, 4], [5, 6], [8]])
        for part in parts {
            let numbers = try #require(part["chapters"] as? [Int])
            let first = try #require(chapters.first { $0["number"] as? Int == numbers.first })
            let last = try #require(chapters.first { $0["number"] as? Int == numbers.last })
            #expect(part["start"] as? Int == first["start"] as? Int)
            #expect(part["end"] as? Int == last["end"] as? Int)
            #expect(Set(part.keys) == ["title", "start", "end", "chapters"])
        }
        #expect(parts.map { $0["start"] as? Int } == [1020, 4050, 7080])
        #expect(parts.map { $0["end"] as? Int } == [4040, 6060, 8080])
    }

    @Test func aBookWithoutPartsHasNoPartKeys() throws {
        let json = try sidecar(parts: [nil, nil, nil])
        #expect(json["parts"] == nil)
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.count == 3)
        #expect(chapters.allSatisfy { Set($0.keys) == ["number", "title", "start", "end", "paragraphs"] })
    }

    @Test func partsDecodeIntoTheDocumentSchema() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try TimingSidecarWriter(url: url, title: "Novel", author: nil, audio: "novel.mp3", sampleRate: 1000)
        try writer.beginChapter(number: 1, title: "One", start: 0, part: "Part One")
        try writer.endChapter(end: 500)
        try writer.beginChapter(number: 2, title: "Two", start: 500)
        try writer.endChapter(end: 900)
        try writer.commit(sampleCount: 900, wordCount: 0, skipped: [])
        let doc = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: url))
        #expect(doc.chapters.map(\.part) == ["Part One", nil])
        #expect(doc.parts == [PartTiming(title: "Part One", start: 0, end: 500, chapters: [1])])
    }

    @Test func discardedSidecarLeavesNoFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        let writer = try TimingSidecarWriter(url: url, title: "T", author: nil, audio: "a.mp3", sampleRate: 22050)
        let temporary = writer.temporaryURL
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
    }
}
