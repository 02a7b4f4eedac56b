import Foundation
import LecternCore
@testable import LecternExport

/// A small book written through ``TimingSidecarWriter``: a prologue outside any part, two
/// chapters of "Part One & <Beginnings>", one of "Part Two", an epilogue outside any part; each
/// chapter a sentence of two words, 1000 ms long.
enum PartsFixture {
    static let chapters: [(title: String, part: String?)] = [
        ("Prologue", nil), ("Arrival", "Part One & <Beginnings>"), ("Night", "Part One & <Beginnings>"),
        ("Return", "Part Two"), ("Epilogue", nil),
    ]

    /// The sidecar, with the parts or (`withParts` false) with every chapter outside any part.
    static func document(withParts: Bool = true) throws -> TimingDocument {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let timer = UtteranceTimer(sampleRate: 1000)
        let writer = try TimingSidecarWriter(url: url, title: "Novel", author: nil, audio: "novel.mp3", sampleRate: 1000)
        for (index, chapter) in chapters.enumerated() {
            let start = index * 1000
            try writer.beginChapter(number: index + 1, title: chapter.title, start: start, part: withParts ? chapter.part : nil)
            try writer.append(timer.paragraph(kind: .paragraph, text: "Hello there.", voice: "en", marks: [(0, 0), (6, 300)],
                                              speechStart: start + 100, speechLength: 800))
            try writer.endChapter(end: start + 1000)
        }
        try writer.commit(sampleCount: chapters.count * 1000, wordCount: chapters.count * 2, skipped: [])
        return try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: url))
    }
}
