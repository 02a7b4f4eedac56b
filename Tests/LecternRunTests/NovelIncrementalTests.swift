import Foundation
import Testing
import LecternRunner
import LecternStore
import LecternTesting

/// Issue #4's headline case on a whole novel: Pride and Prejudice rendered once, one paragraph of
/// chapter 30 edited, and the re-run renders only chunks of chapter 30 while every later time
/// moves by exactly the change in chapter 30's length (rendered in process).
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct NovelIncrementalTests {
    @Test func editingOneParagraphOfChapter30RerendersOnlyChapter30() async throws {
        let ws = try JobFolder("novel")
        let original = try String(contentsOf: Corpus.file("text/pg1342-pride-and-prejudice.txt"), encoding: .utf8)
        try ws.write("pride.txt", original)
        // The fastest voice, LAME's fastest quality and no levelling keep the whole-book render
        // short (the test suite's one whole novel); none changes what is tested.
        let manifest = try ws.write("pride.yml", """
            title: Pride and Prejudice
            sources:
              - path: pride.txt
                chapters: { heading: '^((?:CHAPTER|Chapter) [IVXLC]+)\\.?\\]?$', skip_before_first: true }
                skip: ['^\\[(Illustration|_Copyright)']
            voice: { name: en-gb, wpm: 449 }
            audio: { bitrate: 56, quality: 9 }
            loudness: off
            """)
        let first = try await ws.run(manifest)
        let timings = ws.file("out/pride/pride.timings.json")
        let before = try Sidecar.load(timings)
        try #require(before.chapters.count == 61)

        let paragraph = "From the drawing-room they could distinguish nothing in the lane,"
        try #require(original.components(separatedBy: paragraph).count == 2, "the paragraph to edit is in the text once")
        try ws.write("pride.txt", original.replacingOccurrences(
            of: paragraph, with: "From the drawing-room, as Elizabeth soon learned to her amusement, they could distinguish nothing at all in the lane,"))
        let second = try await ws.run(manifest)
        let after = try Sidecar.load(timings)

        // Only chunks of chapter 30 were rendered (counted from the store).
        try #require(second.record.id != first.record.id)
        let rendered = second.renderedChapters
        let chapter30 = second.chunks.filter { $0.chapterNumber == 30 }
        #expect(!rendered.isEmpty && rendered.allSatisfy { $0 == 30 }, "rendered chunks of chapters \(rendered)")
        #expect(rendered.count < chapter30.count, "\(rendered.count) of chapter 30's \(chapter30.count) chunks rendered; boundaries after the edit should realign")
        #expect(second.record.chunksRendered == rendered.count && second.record.chunksReused == second.record.chunkCount! - rendered.count)
        let why = second.chapters.first { $0.number == 30 }?.change
        #expect(why == "text changed")

        // Chapters 31–61 move by exactly the change in chapter 30's length: in samples (store) …
        let old = first.chapters, new = second.chapters
        let delta = new[29].sampleCount - old[29].sampleCount
        #expect(delta > 0, "the longer paragraph makes chapter 30 longer")
        for n in 30..<61 {
            #expect(new[n].startSample - old[n].startSample == delta, "chapter \(n + 1) moved by \(new[n].startSample - old[n].startSample) samples, not \(delta)")
            #expect(new[n].sampleCount == old[n].sampleCount)
        }
        // … and in the sidecar's milliseconds, to the rounding of each time.
        let deltaMs = Double(delta) * 1000 / Double(after.sampleRate)
        let allowed: Set<Int> = [Int(deltaMs.rounded(.down)), Int(deltaMs.rounded(.up))]
        var checked = 0
        for c in 30..<61 {
            let a = after.chapters[c], b = before.chapters[c]
            var pairs = [(a.start, b.start), (a.end, b.end)]
            for (pa, pb) in zip(a.paragraphs, b.paragraphs) {
                pairs.append((pa.start, pb.start))
                pairs += zip(pa.words, pb.words).flatMap { [($0.start, $1.start), ($0.end, $1.end)] }
            }
            #expect(a.paragraphs.count == b.paragraphs.count && a.paragraphs.map(\.text) == b.paragraphs.map(\.text))
            for (x, y) in pairs where !allowed.contains(x - y) {
                Issue.record("chapter \(c + 1): a time moved by \(x - y) ms, not \(deltaMs) ms")
                break
            }
            checked += pairs.count
        }
        #expect(checked > 100_000, "times compared: \(checked)")
        // Chapters before 30 are untouched.
        for c in 0..<29 {
            #expect(after.chapters[c].start == before.chapters[c].start && after.chapters[c].end == before.chapters[c].end)
            #expect(after.chapters[c].paragraphs.flatMap(\.words).map(\.start) == before.chapters[c].paragraphs.flatMap(\.words).map(\.start))
        }
        #expect(after.sampleCount - before.sampleCount == delta)

        // The MP3's chapter marks agree with the sidecar (ffprobe reads the ID3 CHAP frames).
        let marks = try CheckTool.probe(ws.file("out/pride/pride.mp3"), ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        #expect(marks.count == 61)
        for (mark, chapter) in zip(marks, after.chapters) {
            let start = Double(mark["start_time"] as? String ?? "") ?? -1
            #expect(abs(start * 1000 - Double(chapter.start)) <= 1, "\(chapter.title): mark at \(start) s, sidecar \(chapter.start) ms")
        }
    }
}
