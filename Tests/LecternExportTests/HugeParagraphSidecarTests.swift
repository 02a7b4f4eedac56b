import Foundation
import LecternCore
import LecternText
import Testing
@testable import LecternExport

/// A paragraph of many thousand words is written into the sidecar a piece at a time, with the
/// very bytes the encoder gives for it whole.
@Suite struct HugeParagraphSidecarTests {
    /// The sidecar's bytes for one chapter holding `paragraphs`.
    func sidecar(_ paragraphs: [ParagraphTiming]) throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sidecar-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try TimingSidecarWriter(url: url, title: "Huge", author: nil, audio: "huge.mp3", sampleRate: 1000)
        try writer.beginChapter(number: 1, title: "One", start: 0)
        for p in paragraphs { try writer.append(p) }
        try writer.endChapter(end: 10_000_000)
        try writer.commit(sampleCount: 10_000_000, wordCount: 0, skipped: [])
        return try Data(contentsOf: url)
    }

    /// What the sidecar holds for the paragraphs when each is encoded whole.
    func whole(_ paragraphs: [ParagraphTiming]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for (i, p) in paragraphs.enumerated() {
            if i > 0 { data.append(Data(",".utf8)) }
            data.append(try encoder.encode(p))
        }
        return data
    }

    func paragraph(words: Int, fullStopEvery: Int?) -> ParagraphTiming {
        // Text that itself holds the keys the writer looks for, quoted, and a slash.
        var text = "He wrote \"sentences\":[] and \"words\":[] on a/b. "
        for i in 0..<words { text += "word\(i % 50)" + (fullStopEvery.map { i % $0 == $0 - 1 ? ". " : " " } ?? " ") }
        let tokens = WordTokenizer.tokens(in: text)
        let marks = tokens.enumerated().map { (offset: $0.element.start, sample: $0.offset * 100) }
        var p = UtteranceTimer(sampleRate: 1000).paragraph(kind: .paragraph, text: text, voice: "en-us", marks: marks, speechStart: 500,
                                                           speechLength: tokens.count * 100 + 50,
                                                           spans: [VoiceSpan(offset: 0, length: 8, voice: "de", language: "de")],
                                                           pronounced: [Pronunciation(offset: 3, length: 5, spoken: "[[\"sentences\":[]]]")])
        p.language = "en-GB"
        return p
    }

    @Test func aHugeParagraphIsWrittenWithTheBytesOfItsWholeEncoding() throws {
        let paragraphs = [paragraph(words: 10, fullStopEvery: nil),
                          paragraph(words: 9_000, fullStopEvery: nil),  // one sentence of 9,000 words
                          paragraph(words: 9_000, fullStopEvery: 7),  // 1,300 sentences
                          paragraph(words: 2_001, fullStopEvery: nil)]
        let data = try sidecar(paragraphs)
        let expected = try whole(paragraphs)
        #expect(data.range(of: expected) != nil, "the paragraphs' bytes differ from their whole encoding")
        let document = try JSONDecoder().decode(TimingDocument.self, from: data)
        #expect(document.chapters[0].paragraphs == paragraphs)
    }
}
