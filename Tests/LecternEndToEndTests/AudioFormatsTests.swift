import Foundation
import Testing
import LecternTestSupport
import LecternTesting

/// `formats: [mp3, m4b, opus]` (issue #25, item 5) through `lectern run --workers N`: the same
/// bytes for any worker count, and an edit re-rendering only its own chunks. (What the three
/// books hold is tested in process: LecternRunTests' `AudioFormatsTests`.)
struct AudioFormatsTests {
    @Test func theSameBytesForAnyWorkerCountAndAnEditReRendersOnlyItsChunks() throws {
        var books: [[String: Data]] = []
        for workers in ["1", "2"] {
            let ws = try Workspace("formats-det")
            try ws.write("book.txt", FormatsBook.text)
            let manifest = try ws.write("book.yml", FormatsBook.manifest.replacingOccurrences(of: "split: chapters\n", with: ""))
            _ = try RenderedJob.run(ws, manifest, arguments: ["--workers", workers])
            let out = ws.url.appendingPathComponent("out/book")
            books.append(try ["m4b", "opus"].reduce(into: [:]) { $0[$1] = try Data(contentsOf: out.appendingPathComponent("book.\($1)")) })
            guard workers == "2" else { continue }
            // An edited paragraph: only its chunk is rendered again, and the M4B and Opus follow.
            try ws.write("book.txt", FormatsBook.text.replacingOccurrences(of: "patient as judges", with: "patient as owls"))
            let (run, rendered) = try IncrementalTests.render(ws, manifest)
            #expect(rendered == [2] && run.chunksRendered < run.chunkCount ?? 0, "rendered chunks of chapters \(rendered)")
            let sidecar = try Sidecar.load(out.appendingPathComponent("book.timings.json"))
            for format in ["m4b", "opus"] {
                let file = out.appendingPathComponent("book.\(format)")
                #expect(try Data(contentsOf: file) != books[1][format], "\(format) changed with its text")
                let pcm = try FormatsBook.decode(file, rate: sidecar.sampleRate)
                #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: [(1, 1)]) == 1, "\(format) after the edit")
            }
        }
        #expect(books[0]["m4b"] == books[1]["m4b"], "M4B bytes differ between 1 and 2 workers")
        #expect(books[0]["opus"] == books[1]["opus"], "Opus bytes differ between 1 and 2 workers")
    }
}
