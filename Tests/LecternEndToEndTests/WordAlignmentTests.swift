import Foundation
import Testing

/// espeak-ng's word marks against an independent forced aligner (PocketSphinx) on the committed
/// Alice chapters: where the sidecar says a word starts is where the aligner hears it. (The Piper
/// voice's words are measured the same way on its render in ``NeuralRenderTests``.)
@Suite(.enabled(if: WordAlignment.missing == nil, "\(WordAlignment.missing ?? "")"))
struct WordAlignmentTests {
    @Test func espeakWordsStartWhereAnIndependentAlignerHearsThem() throws {
        let ws = try Workspace("alignment-espeak")
        try ws.write("alice.txt", try NeuralVoice.aliceText)
        let manifest = try ws.write("alice.yml", """
            title: Alice
            sources: [alice.txt]
            voice: { name: en-us }
            """)
        _ = try RenderedJob.run(ws, manifest)
        let alignment = try WordAlignment.measure(ws.url.appendingPathComponent("out/alice/alice.timings.json"))
        alignment.expectExact("espeak-ng")
        // espeak-ng reports its own words: only a few (a number's later words) are estimated.
        #expect(alignment.estimated * 10 < alignment.words, "\(alignment.summary)")
    }
}
