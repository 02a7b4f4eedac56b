import Testing
import LecternCore
@testable import LecternDocuments

/// Transcriber's notes, the index, advertisements and a printer's imprint after THE END.
@Suite struct PlainTextBackMatterTests {
    static let body = PlainTextHeadingTests.body

    @Test(arguments: ["Transcriber's Note", "TRANSCRIBER'S NOTES", "Transcribers Note: Obvious typesetter errors", "[Transcriber's note: a",
                            "Original Transcriber’s Notes:"])
    func transcribersNoteOpenings(line: String) { #expect(TranscribersNote.starts(line)) }

    @Test func aTranscribersNoteOnAPageEndsAtTheNextMarkedHeading() throws {
        let html = """
            <html><body><h2>Original Transcriber’s Notes:</h2>
            <p>This text is a combination of etexts, one from a project now gone and one from another archive.</p>
            <h2>ETYMOLOGY.</h2><p>The pale Usher—threadbare in coat, heart, body, and brain; I see him now, dusting his lexicons.</p>
            <h2>EXTRACTS.</h2><p>It will be seen that this mere painstaking burrower and grub-worm of a poor devil of a Sub-Sub.</p>
            </body></html>
            """
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("book.htm", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html, rules: ReadingRules()))
        #expect(book.chapters.map(\.title) == ["ETYMOLOGY.", "EXTRACTS."])
        #expect(book.skipped.contains { $0.reason == .transcribersNote && $0.text.hasPrefix("Original Transcriber’s Notes:") })
    }

    @Test func aTranscribersNoteRunsToASeparatorOrThreeBlankLines() {
        let text = """
            Transcribers Note: Obvious typesetter errors corrected.

            Words with _ (underscore) on either side were in italics.

            ---------------------------------

            English Library

            TRANSCRIBER'S NOTES

            Accidentals:

            [f++] = F double-sharp




            CHAPTER I.

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.prefix(4) == [
            "S transcriber's note: Transcribers Note: Obvious typesetter errors corrected. Words with _ (underscore) on either side were in italics. ---------------------------------",
            "S title page: English Library",
            "S transcriber's note: TRANSCRIBER'S NOTES Accidentals: [f++] = F double-sharp",
            "H chapter: CHAPTER I.",
        ])
    }

    @Test func anIndexIsSkippedToTheEnd() {
        let text = """
            CHAPTER I.

            \(Self.body)

            INDEX


            A.

              Accents, 92.
              Adagio, 189.
              Aeolian mode, 83.
              Aeschylus, 70, 76.


            I.

              Iambus, 25.
              India, 16.
            """
        let s = summary(analysed(text))
        #expect(s.count == 3)
        #expect(s.last?.hasPrefix("S index: INDEX A. Accents, 92.") == true)
    }

    /// An index whose long entries stay on one line each (an HTML page's list items) is no running
    /// text: a line of page references goes on the index.
    @Test func anIndexEntryOnOneLongLineIsNoParagraph() {
        let text = """
            CHAPTER I.

            \(Self.body)

            INDEX

            Accents, 92.
            Adagio, 189.
            Aeolian mode, 83.
            Aeschylus, 70, 76.
            Bach, J.S., 8, 20, 27, 28, 32.

            Beethoven, Karl van, nephew of composer, 110, et seq., 116, 180, 182, 198, 199, 207-208, 210, 215, 219,

            Bonn, 13, 16.
            Brahms, 97.
            """
        let s = summary(analysed(text))
        #expect(s.count == 3)
        #expect(s.last?.hasPrefix("S index: INDEX Accents, 92.") == true)
        #expect(s.last?.hasSuffix("Brahms, 97.") == true)
    }

    @Test func anImprintAfterTheEndRepeatingTheTitlePageIsAColophon() {
        let text = "PRINTED BY SMITH AND SONS, LONDON.\n\nCHAPTER I.\n\n\(Self.body)\n[Illustration:\n\n   THE\n   END\n   ]\n\nPRINTED BY SMITH AND SONS, LONDON."
        #expect(summary(analysed(text)).suffix(2) == ["S illustration: [Illustration: THE END ]", "S colophon: PRINTED BY SMITH AND SONS, LONDON."])
    }

    @Test func anIndexAtTheFrontEndsAtTheFirstChapter() {
        let text = """
            INDEX OF FIRST LINES

              A stormy night, 12.
              Across the bay, 14.
              After the rain, 20.
              All in the morning, 31.
              At the lighthouse, 40.


            CHAPTER I.

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.count == 3)
        #expect(s.first?.hasPrefix("S index: INDEX OF FIRST LINES A stormy night, 12.") == true)
        #expect(s[1] == "H chapter: CHAPTER I.")
    }

    @Test func advertisementsAndImprintAfterTheEnd() {
        let text = """
            PRINTED BY SMITH AND SONS, LONDON.

            CHAPTER I.

            \(Self.body)

            THE END.

            PRINTED BY SMITH AND SONS, LONDON.

            NEW NOVELS.

            The Ghost of the Mill. Crown 8vo. Price 3s. 6d.
            """
        #expect(summary(analysed(text)).suffix(4) == [
            "P: THE END.", "S colophon: PRINTED BY SMITH AND SONS, LONDON.", "S advertisements: NEW NOVELS.",
            "S advertisements: The Ghost of the Mill. Crown 8vo. Price 3s. 6d.",
        ])
    }

    /// An HTML index whose title stands over its alphabet of links (`A N B O …`, left out as links
    /// within the book) and then its entries is skipped whole, not its title alone.
    @Test func anHTMLIndexUnderItsAlphabetOfLinksIsSkippedWhole() throws {
        let prose = "<p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals.</p>"
        let entries = ["Adagio, the, 62.", "Adversity, school of, 6.", "Altruism, 43, 164.", "Andante, the, 123.", "Antwerp, 4.",
                       "Bach, 12, 14.", "Bonn, 1, 3."]
        let book = try HTMLPage.body("<h2>CHAPTER I</h2>\(prose)<h2>CHAPTER II</h2>\(prose)<h3>INDEX</h3>"
            + "<table><tr><td><a href=\"#IX_A\">A</a></td><td><a href=\"#IX_B\">B</a></td></tr></table>"
            + "<ul class=\"IX\">" + entries.map { "<li>\($0)</li>" }.joined() + "</ul>")
        #expect(book.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II"])
        let read = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(!read.contains("Adagio"), "\(read)")
        #expect(book.skipped.contains { $0.reason == SkipReason.index && $0.text.contains("Antwerp") }, "\(book.skipped)")
    }
}
