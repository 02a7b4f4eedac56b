import Testing
import LecternCore
@testable import LecternDocuments

/// A transcriber's note under other names (`[Note Project Gutenberg: …]`, `Producer's Note`) and under a
/// heading that links back to the contents: the producer's, not the book's — listed, never read.
@Suite struct ProducersNoteTests {
    static let body = PlainTextHeadingTests.body

    @Test(arguments: ["[Note Project Gutenberg: Music transcribed in Lilypond format]", "Project Gutenberg Note", "Producer's Note:",
                      "Note from the e-text editor: the spelling is the original's."])
    func producersNoteOpenings(line: String) { #expect(TranscribersNote.starts(line)) }

    @Test(arguments: ["Project Gutenberg has the Pine edition.", "A note on the text.", "The producer's intent was clear."])
    func sentencesThatOnlyNameTheProducer(line: String) { #expect(!TranscribersNote.starts(line)) }

    @Test func aBracketedProducersNoteInsideAParagraphIsSilent() throws {
        let items = analysed("CHAPTER I.\n\nThe song goes as follows: [Note Project Gutenberg: music transcribed in\nLilypond format] and the child sleeps.\n\n" + Self.body)
        let p = try #require(items.compactMap(\.paragraph).first)
        #expect(spoken(p) == "The song goes as follows:  and the child sleeps.")
        #expect(silentTexts(p).first?.hasPrefix("transcriber's note: [Note Project Gutenberg") == true)
    }

    @Test func aTranscribersNoteHeadingLinkingBackToTheContentsIsStillItsHeading() throws {
        let html = """
            <html><body><h2 id="contents">Contents</h2><p><a href="#ch1">Chapter I</a></p>
            <h2 id="ch1">CHAPTER I.</h2><p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals.</p>
            <h2><a href="#contents">Transcriber's Notes</a></h2>
            <p>Our page numbers are not carried over to the text documents produced by Project Gutenberg.</p>
            </body></html>
            """
        let book = try HTMLPage.read(html, name: "book.htm")
        let read = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(!read.contains("Project Gutenberg"))
        #expect(book.skipped.contains { $0.reason == .transcribersNote && $0.text.contains("Project Gutenberg") })
    }
}
