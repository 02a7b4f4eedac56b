import Foundation
import Testing
import LecternTesting
import LecternStore

/// Incremental rendering on a small book of four Markdown sources, one chapter each: every kind
/// of change re-renders only the chunks it must (counted from the store), the outputs stay exact,
/// and an unchanged job writes nothing.
struct IncrementalTests {
    static let chapters = [
        ("The Harbour", ["The boats came in before the storm, low in the water and loud with gulls.",
                         "Old Marta counted them from the sea wall, as she had every evening for forty years.",
                         "When the last one tied up she went home and lit the lamp."]),
        ("The Lighthouse", ["Nobody had kept the light since the war, yet on foggy nights it still turned.",
                            "The children said a keeper lived there who never came down the stairs.",
                            "Marta knew better, because she carried the oil up herself."]),
        ("The Storm", ["At midnight the wind found every loose shutter in the village.",
                       "Marta climbed the tower with a lantern and a tin of oil, one step at a time.",
                       "Far out, a single boat was still trying to find the harbour."]),
        ("The Morning", ["By dawn the sea was flat and grey and very quiet.",
                         "The last boat lay safe against the wall, its crew asleep on the nets.",
                         "Marta walked home slowly and did not mention the light to anyone."]),
    ]

    static func markdown(_ title: String, _ paragraphs: [String]) -> String {
        "# \(title)\n\n" + paragraphs.joined(separator: "\n\n") + "\n"
    }

    /// Writes the book's sources and a manifest naming `order` of them, with optional extra YAML.
    @discardableResult
    static func writeBook(_ ws: Workspace, order: [Int], extra: String = "") throws -> URL {
        for (i, chapter) in chapters.enumerated() where !ws.exists("ch\(i + 1).md") {
            try ws.write("ch\(i + 1).md", markdown(chapter.0, chapter.1))
        }
        let sources = order.map { "  - ch\($0).md" }.joined(separator: "\n")
        return try ws.write("harbour.yml", "title: The Harbour Light\nsources:\n\(sources)\nvoice: { name: en-us, wpm: 220 }\n\(extra)")
    }

    /// Runs the job and returns the run's record and the chapter numbers of the chunks it rendered.
    static func render(_ ws: Workspace, _ manifest: URL, _ arguments: [String] = []) throws -> (run: RunRecord, rendered: [Int]) {
        let result = try Tool.lectern(["run", "--quiet"] + arguments + [manifest.path], db: ws.db)
        try #require(result.status == 0, "\(result.stderr)")
        let probe = try StoreProbe(ws.db)
        let run = try probe.lastRun()
        return (run, try probe.rendered(by: run).map(\.chapter))
    }

    @Test func eachChangeRerendersOnlyWhatItMust() throws {
        let ws = try Workspace("incremental")
        let mp3 = ws.url.appendingPathComponent("out/harbour/harbour.mp3")
        let timings = ws.url.appendingPathComponent("out/harbour/harbour.timings.json")
        var manifest = try Self.writeBook(ws, order: [1, 2, 3, 4])

        let first = try Self.render(ws, manifest)
        #expect(first.run.chunksRendered == first.run.chunkCount && first.run.chunksReused == 0)
        #expect(Set(first.rendered) == [1, 2, 3, 4])

        // No change: nothing rendered, nothing written.
        let before = try FileManager.default.attributesOfItem(atPath: mp3.path)[.modificationDate] as? Date
        // The run is not a run of its own: it is counted on the first, which it found current.
        let same = try Self.render(ws, manifest)
        #expect(same.run.id == first.run.id && same.run.upToDateRuns == 1 && same.rendered == first.rendered)
        #expect(try FileManager.default.attributesOfItem(atPath: mp3.path)[.modificationDate] as? Date == before)

        // A chapter's title: only that chapter's first chunk (the heading is spoken).
        try ws.write("ch2.md", Self.markdown("The Old Lighthouse", Self.chapters[1].1))
        let retitled = try Self.render(ws, manifest)
        #expect(retitled.rendered == [2], "rendered chunks of chapters \(retitled.rendered)")
        #expect(try BookChecks.chapterTitles(mp3) == ["The Harbour", "The Old Lighthouse", "The Storm", "The Morning"])
        let why = try StoreProbe(ws.db).chapters(of: retitled.run).first { $0.number == 2 }?.change
        #expect(why?.contains("title changed") == true && why?.contains("text changed") == true, "\(why ?? "nil")")

        // A new chapter at the end: only its chunks.
        try ws.write("ch5.md", Self.markdown("The Visitor", ["A stranger arrived on the noon ferry and asked about the light."]))
        manifest = try Self.writeBook(ws, order: [1, 2, 3, 4, 5])
        let added = try Self.render(ws, manifest)
        #expect(Set(added.rendered) == [5], "rendered chunks of chapters \(added.rendered)")

        // A chapter removed, and the sources reordered: nothing to render, chapters follow the new order.
        manifest = try Self.writeBook(ws, order: [4, 2, 3, 5])
        let moved = try Self.render(ws, manifest)
        #expect(moved.rendered.isEmpty, "rendered chunks of chapters \(moved.rendered)")
        #expect(try BookChecks.chapterTitles(mp3) == ["The Morning", "The Old Lighthouse", "The Storm", "The Visitor"])
        let changes = try StoreProbe(ws.db).chapters(of: moved.run).map(\.change)
        #expect(changes.first == "moved from chapter 4", "\(changes)")

        // One chapter's voice: only that chapter.
        manifest = try Self.writeBook(ws, order: [4, 2, 3, 5], extra: "overrides:\n  - { chapter: 3, voice: { pitch: 1.3 } }\n")
        let revoiced = try Self.render(ws, manifest)
        #expect(Set(revoiced.rendered) == [3], "rendered chunks of chapters \(revoiced.rendered)")
        let revoicedWhy = try StoreProbe(ws.db).chapters(of: revoiced.run).first { $0.number == 3 }?.change
        #expect(revoicedWhy == "voice changed")

        // The result is exact: duration, onsets, every word.
        let sidecar = try Sidecar.load(timings)
        let pcm = try Tool.decode(mp3)
        BookChecks.expectDurationMatches(pcm, sidecar)
        let picks = sidecar.chapters.indices.flatMap { c in (1..<sidecar.chapters[c].paragraphs.count).map { (chapter: c, paragraph: $0) } }
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) == picks.count)
        let input = [4, 2, 3, 5].map { try! String(contentsOf: ws.url.appendingPathComponent("ch\($0).md"), encoding: .utf8) }
            .joined(separator: "\n").replacingOccurrences(of: "# ", with: "")
        BookChecks.expectWordCoverage(input: input, sidecar)
        let mp3val = try Tool.run("mp3val", [mp3.path])
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "mp3val: \(mp3val.stdout)")

        // --force renders everything again.
        let forced = try Self.render(ws, manifest, ["--force"])
        #expect(forced.run.chunksRendered == forced.run.chunkCount && forced.run.forced)
        let status = try Tool.lectern(["status", "harbour"], db: ws.db)
        #expect(status.stdout.contains("forced (--force)"), "\(status.stdout)")
        #expect(status.stdout.contains("voice changed"), "\(status.stdout)")
    }

    @Test func gcRemovesOnlyWhatNoJobReferences() throws {
        let ws = try Workspace("gc")
        let manifest = try Self.writeBook(ws, order: [1, 2])
        _ = try Self.render(ws, manifest)
        try ws.write("ch1.md", Self.markdown("The Harbour", ["Only one paragraph is left in this chapter now."]))
        let second = try Self.render(ws, manifest)
        let probe = try StoreProbe(ws.db)
        let firstRun = try probe.runs()[0]
        let stale = try Set(probe.chunks(of: firstRun).map(\.key)).subtracting(probe.chunks(of: second.run).map(\.key))
        try #require(!stale.isEmpty)

        let dry = try Tool.lectern(["gc", "--dry-run"], db: ws.db)
        #expect(dry.status == 0)
        #expect(dry.stdout.contains("would remove \(stale.count) cache entries"), "\(dry.stdout)")
        let cacheFiles = { Set(ChunkCache(directory: ws.url.appendingPathComponent("cache")).keysOnDisk()) }
        #expect(cacheFiles().isSuperset(of: stale), "a dry run removes nothing")

        let gc = try Tool.lectern(["gc"], db: ws.db)
        #expect(gc.status == 0 && gc.stdout.contains("removed \(stale.count) cache entries"), "\(gc.stdout)")
        #expect(cacheFiles().isDisjoint(with: stale))
        #expect(cacheFiles().isSuperset(of: try probe.chunks(of: second.run).map(\.key)))
        let again = try Self.render(ws, manifest)
        #expect(again.run.id == second.run.id && again.run.upToDateRuns == 1, "what the job references is still cached")
    }
}

/// Equal chunks in one book (a repeated passage) are rendered once and placed everywhere.
struct RepeatedChunkTests {
    @Test func aRepeatedChapterIsRenderedOnceAndPlacedTwice() throws {
        let ws = try Workspace("repeat")
        let interlude = "# Interlude\n\nThe curtain falls, and the orchestra plays the same short tune again.\n"
        try ws.write("a.md", interlude + "\n# Act Two\n\nThe curtain rises on a different scene entirely.\n\n" + interlude)
        let manifest = try ws.write("play.yml", "title: Play\nsources: [a.md]\nvoice: { name: en-us }\n")
        let result = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(result.status == 0, "\(result.stderr)")
        let probe = try StoreProbe(ws.db)
        let chunks = try probe.chunks(of: try probe.lastRun())
        #expect(chunks.count == 3 && chunks[0].key == chunks[2].key && chunks[0].key != chunks[1].key)
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/play/play.timings.json"))
        let pcm = try Tool.decode(ws.url.appendingPathComponent("out/play/play.mp3"))
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
