import Foundation
import Testing
import LecternRunner
import LecternStore
import LecternTesting

/// Incremental rendering on ``HarbourBook``, four Markdown sources of one chapter each: every kind
/// of change re-renders only the chunks it must (counted from the store), the outputs stay exact,
/// and an unchanged job writes nothing.
struct IncrementalRunTests {
    @Test func eachChangeRerendersOnlyWhatItMust() async throws {
        let job = try JobFolder("incremental")
        let mp3 = job.file("out/harbour/harbour.mp3")
        let timings = job.file("out/harbour/harbour.timings.json")
        var manifest = try HarbourBook.write(in: job.url, order: [1, 2, 3, 4])

        let first = try await job.run(manifest)
        #expect(first.record.chunksRendered == first.record.chunkCount && first.record.chunksReused == 0)
        #expect(Set(first.renderedChapters) == [1, 2, 3, 4])

        // No change: nothing rendered, nothing written.
        let before = try FileManager.default.attributesOfItem(atPath: mp3.path)[.modificationDate] as? Date
        // The run is not a run of its own: it is counted on the first, which it found current.
        let same = try await job.run(manifest)
        #expect(same.summary.upToDate)
        #expect(same.record.id == first.record.id && same.record.upToDateRuns == 1 && same.renderedChapters == first.renderedChapters)
        #expect(try FileManager.default.attributesOfItem(atPath: mp3.path)[.modificationDate] as? Date == before)

        // A chapter's title: only that chapter's first chunk (the heading is spoken).
        try job.write("ch2.md", HarbourBook.markdown("The Old Lighthouse", HarbourBook.chapters[1].1))
        let retitled = try await job.run(manifest)
        #expect(retitled.renderedChapters == [2], "rendered chunks of chapters \(retitled.renderedChapters)")
        #expect(try BookChecks.chapterTitles(mp3) == ["The Harbour", "The Old Lighthouse", "The Storm", "The Morning"])
        let why = retitled.chapters.first { $0.number == 2 }?.change
        #expect(why?.contains("title changed") == true && why?.contains("text changed") == true, "\(why ?? "nil")")

        // A new chapter at the end: only its chunks.
        try job.write("ch5.md", HarbourBook.markdown("The Visitor", ["A stranger arrived on the noon ferry and asked about the light."]))
        manifest = try HarbourBook.write(in: job.url, order: [1, 2, 3, 4, 5])
        let added = try await job.run(manifest)
        #expect(Set(added.renderedChapters) == [5], "rendered chunks of chapters \(added.renderedChapters)")

        // A chapter removed, and the sources reordered: nothing to render, chapters follow the new order.
        manifest = try HarbourBook.write(in: job.url, order: [4, 2, 3, 5])
        let moved = try await job.run(manifest)
        #expect(moved.renderedChapters.isEmpty, "rendered chunks of chapters \(moved.renderedChapters)")
        #expect(try BookChecks.chapterTitles(mp3) == ["The Morning", "The Old Lighthouse", "The Storm", "The Visitor"])
        let changes = moved.chapters.map(\.change)
        #expect(changes.first == "moved from chapter 4", "\(changes)")

        // One chapter's voice: only that chapter.
        manifest = try HarbourBook.write(in: job.url, order: [4, 2, 3, 5], extra: "overrides:\n  - { chapter: 3, voice: { pitch: 1.3 } }\n")
        let revoiced = try await job.run(manifest)
        #expect(Set(revoiced.renderedChapters) == [3], "rendered chunks of chapters \(revoiced.renderedChapters)")
        let revoicedWhy = revoiced.chapters.first { $0.number == 3 }?.change
        #expect(revoicedWhy == "voice changed")

        // The result is exact: duration, onsets, every word.
        let sidecar = try Sidecar.load(timings)
        let pcm = try CheckTool.decode(mp3)
        BookChecks.expectDurationMatches(pcm, sidecar)
        let picks = sidecar.chapters.indices.flatMap { c in (1..<sidecar.chapters[c].paragraphs.count).map { (chapter: c, paragraph: $0) } }
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) == picks.count)
        let input = try [4, 2, 3, 5].map { try String(contentsOf: job.file("ch\($0).md"), encoding: .utf8) }
            .joined(separator: "\n").replacingOccurrences(of: "# ", with: "")
        BookChecks.expectWordCoverage(input: input, sidecar)
        let mp3val = try CheckTool.run("mp3val", [mp3.path])
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "mp3val: \(mp3val.stdout)")

        // Forced (`lectern run --force`): everything rendered again, and the run says so (what
        // `lectern status` shows as "forced (--force)").
        let forced = try await job.run(manifest) { $0.force = true }
        #expect(forced.record.chunksRendered == forced.record.chunkCount && forced.record.forced)
    }
}

/// Equal chunks in one book (a repeated passage) are rendered once and placed everywhere.
struct RepeatedChunkTests {
    @Test func aRepeatedChapterIsRenderedOnceAndPlacedTwice() async throws {
        let job = try JobFolder("repeat")
        let interlude = "# Interlude\n\nThe curtain falls, and the orchestra plays the same short tune again.\n"
        try job.write("a.md", interlude + "\n# Act Two\n\nThe curtain rises on a different scene entirely.\n\n" + interlude)
        let manifest = try job.write("play.yml", "title: Play\nsources: [a.md]\nvoice: { name: en-us }\n")
        let chunks = try await job.run(manifest).chunks
        #expect(chunks.count == 3 && chunks[0].key == chunks[2].key && chunks[0].key != chunks[1].key)
        let sidecar = try Sidecar.load(job.file("out/play/play.timings.json"))
        let pcm = try CheckTool.decode(job.file("out/play/play.mp3"))
        BookChecks.expectDurationMatches(pcm, sidecar)
        #expect(sidecar.chapters.map(\.title) == ["Interlude", "Act Two", "Interlude"])
        // Same audio; the book's last chapter ends where decoding ends, up to the encoder delay
        // plus a frame (52 ms) before its designed silence does (see docs/ARCHITECTURE.md,
        // "Determinism and the chunk cache").
        let shorter = (sidecar.chapters[0].end - sidecar.chapters[0].start) - (sidecar.chapters[2].end - sidecar.chapters[2].start)
        #expect(shorter >= 0 && shorter <= 53, "the repeated chapter is \(shorter) ms shorter")
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: [(0, 1), (1, 1), (2, 1)]) == 3)
    }
}
