import Foundation
import Testing
import LecternCore
import LecternSpeech
import LecternExport
@testable import LecternRunner

/// The timeline carries each planned chapter's part into the sidecar and into the chapter spans
/// the MP3's chapter marks are made from.
@Suite struct TimelinePartsTests {
    static let parts: [String?] = ["Book I", "Book I", nil, "Book II"]

    @Test func sidecarAndSpansKeepThePlannedParts() throws {
        let voice = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)
        let plan = NarrationPlan(chapters: Self.parts.enumerated().map { index, part in
            PlannedChapter(number: index + 1, title: "Chapter \(index + 1)", pause: Pause(),
                           utterances: [Utterance(kind: .paragraph, text: "Hello there.", voice: voice, preDelay: 0, postDelay: 0)], part: part)
        }, skipped: [])
        // A chunk per chapter: 40 frames of 576 samples, speech from sample 1000 for 10000 samples.
        let chunks = plan.chapters.indices.map { index in
            RenderChunk(index: index, chapter: index, items: [
                .init(utterance: 0, textOffset: 0, text: "Hello there.", voice: voice, silenceBefore: 1000, silenceAfter: 11000, wordCount: 2),
            ])
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let sidecar = try TimingSidecarWriter(url: url, title: "Novel", author: nil, audio: "novel.mp3", sampleRate: 22050)
        var timeline = Timeline(plan: plan, chunks: chunks, sampleRate: 22050, sidecar: sidecar,
                                fingerprint: { ChapterFingerprint($0, settings: "test") })
        for index in chunks.indices.reversed() {  // out of order: the timeline waits for the earlier ones
            try timeline.add(ChunkResult(index: index, sampleCount: 22000, audioFrames: 40, samplesPerFrame: 576, encoderDelay: 576,
                                         byteCount: 10_000, tagBytes: 100,
                                         items: [.init(start: 0, speechStart: 1000, speechLength: 10000, marks: [[0, 0], [6, 5000]])]))
        }
        let total = try timeline.finish()
        try sidecar.commit(sampleCount: total, wordCount: 8, skipped: [])

        #expect(timeline.spans.map(\.part) == Self.parts)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["part"] as? String } == Self.parts)
        let parts = try #require(json["parts"] as? [[String: Any]])
        #expect(parts.map { $0["title"] as? String } == ["Book I", "Book II"])
        #expect(parts.map { $0["chapters"] as? [Int] } == [[1, 2], [4]])
        #expect(parts.map { $0["start"] as? Int } == [chapters[0]["start"] as? Int, chapters[3]["start"] as? Int])
        #expect(parts.map { $0["end"] as? Int } == [chapters[1]["end"] as? Int, chapters[3]["end"] as? Int])
    }
}
