import Testing
import LecternCore
@testable import LecternSpeech

/// Chunk boundaries: bounded in length, and content-defined, so an edit changes only the chunks
/// around it.
struct ChunkPlannerTests {
    static let voice = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)

    /// A chapter of 300 different paragraphs of 20 to 60 words.
    static func chapter(editing edited: Int? = nil) -> PlannedChapter {
        let utterances = (0..<300).map { i -> Utterance in
            var words = (0..<(20 + (i * 37) % 41)).map { "word\(($0 * 7 + i) % 97)" }
            if i == edited { words += ["and", "a", "few", "words", "more", "than", "before"] }
            return Utterance(kind: .paragraph, text: "Paragraph \(i): " + words.joined(separator: " ") + ".", voice: voice,
                             preDelay: 0.1, postDelay: 0.6)
        }
        return PlannedChapter(number: 1, title: "One", pause: Pause(before: 0.5, after: 1.5), utterances: utterances)
    }

    static func chunks(_ chapter: PlannedChapter) -> [RenderChunk] {
        ChunkPlanner(sampleRate: 22050).chunks(for: NarrationPlan(chapters: [chapter], skipped: []))
    }

    /// A chunk's content, without its position.
    static func content(_ chunk: RenderChunk) -> [String] { chunk.items.map(\.text) }

    @Test func chunksStayWithinTheLimitAndCoverEveryUtteranceInOrder() {
        let planner = ChunkPlanner(sampleRate: 22050)
        let chunks = Self.chunks(Self.chapter())
        #expect(chunks.count > 10)
        #expect(chunks.flatMap { $0.items.map(\.utterance) } == Array(0..<300))
        for chunk in chunks where chunk.items.count > 1 {
            #expect(chunk.items.reduce(0) { $0 + planner.estimatedSeconds($1) } <= planner.maximumSeconds)
        }
        // Content-defined cuts make chunks shorter than the maximum on average, not all at it.
        #expect(chunks.dropLast().contains { c in c.items.reduce(0) { $0 + planner.estimatedSeconds($1) } < planner.maximumSeconds * 0.8 })
    }

    @Test func anEditChangesOnlyTheChunksAroundIt() {
        let before = Self.chunks(Self.chapter()).map(Self.content)
        let after = Self.chunks(Self.chapter(editing: 40)).map(Self.content)
        let changed = after.filter { !before.contains($0) }
        #expect(!changed.isEmpty)
        #expect(changed.count <= 3, "\(changed.count) of \(after.count) chunks differ after editing one paragraph")
        #expect(Set(after).subtracting(changed).count == after.count - changed.count)
    }
}
