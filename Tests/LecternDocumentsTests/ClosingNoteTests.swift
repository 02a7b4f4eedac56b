import Testing
import LecternCore
@testable import LecternDocuments

/// An author's note after the last chapter (``ClosingNote``): its own section in a text and in HTML,
/// as an EPUB's epilogue file makes it; a `NOTE` line inside a chapter stays the chapter's.
@Suite struct ClosingNoteTests {
    static let body = PlainTextHeadingTests.body

    static let book = """
        CHAPTER I.

        \(body)

        CHAPTER II.

        \(body)
        And, to our bitter grief, with a smile and in silence, he died, a
        gallant gentleman.




                                          NOTE


        Seven years ago we all went through the flames; and the happiness of
        some of us since then is, we think, well worth the pain we endured.

        JONATHAN HARKER.

                                        THE END
        """

    @Test func aNoteAfterTheLastChapterIsASectionOfItsOwn() {
        let headings = summary(analysed(Self.book)).filter { $0.hasPrefix("H ") }
        #expect(headings == ["H chapter: CHAPTER I.", "H chapter: CHAPTER II.", "H chapter: NOTE"])
    }

    @Test func aNoteLineBeforeTheLastChapterIsTheChapters() {
        let text = """
            CHAPTER I.

            \(Self.body)

            NOTE

            The river was high that spring, and the ford could not be crossed for a week.

            CHAPTER II.

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.filter { $0.hasPrefix("H ") } == ["H chapter: CHAPTER I.", "H chapter: CHAPTER II."])
        #expect(s.contains("P: NOTE"))
    }

    @Test func aLongStretchUnderANoteLineIsTheLastChaptersOwn() {
        let long = Array(repeating: Self.body, count: 120).joined(separator: "\n")
        let text = "CHAPTER I.\n\n\(Self.body)\n\nCHAPTER II.\n\n\(Self.body)\n\nNOTE\n\n\(long)"
        #expect(summary(analysed(text)).filter { $0.hasPrefix("H ") } == ["H chapter: CHAPTER I.", "H chapter: CHAPTER II."])
    }

    @Test func notesToTheChaptersAfterTheLastAreSectionsHoweverLong() {
        let long = Array(repeating: Self.body, count: 120).joined(separator: "\n")
        let text = """
            CHAPTER I.

            \(Self.body)

            CHAPTER II.

            \(Self.body)



            NOTE TO CHAPTER I.

            Note A.--The Ranger of the Forest, that cuts the foreclaws off our dogs.

            \(long)

            NOTE TO CHAPTER II.

            \(Self.body)
            """
        #expect(summary(analysed(text)).filter { $0.hasPrefix("H ") } == [
            "H chapter: CHAPTER I.", "H chapter: CHAPTER II.", "H chapter: NOTE TO CHAPTER I.", "H chapter: NOTE TO CHAPTER II.",
        ])
    }

    @Test func anHTMLNoteAfterTheLastChapterIsAChapter() throws {
        let html = """
            <html><body><h2>CHAPTER I</h2><p>It was a dark and stormy night; the rain fell in torrents.</p>
            <h2>CHAPTER II</h2><p>And, to our bitter grief, with a smile and in silence, he died, a gallant gentleman.</p>
            <h2>NOTE</h2><p>Seven years ago we all went through the flames; and the happiness of some of us since then is well worth the pain.</p>
            </body></html>
            """
        let book = try HTMLPage.read(html, name: "book.htm")
        #expect(book.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II", "NOTE"])
    }
}
