import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Nothing of the e-text's making is read aloud (issue 39, items 1 and 4, and the smaller faults):
/// the producer's paragraphs about Project Gutenberg and the digital files, lists of corrections
/// made to the e-text, page references in them, publishers' notes on their catalogues, braced hour
/// columns, note markers in headings; and running text before the first heading is no title page.
struct LeakTests {
    static let chapters = """
        CHAPTER I.

        It was a dark and stormy night, and the rain fell in torrents upon the town below.

        CHAPTER II.

        The morning came at last, and with it the end of the storm and of this story.


        """

    /// `text` as a Project Gutenberg e-text: its header before, its licence after.
    static func etext(_ text: String) -> String {
        "The Project Gutenberg EBook of A Tale\n\n*** START OF THIS PROJECT GUTENBERG EBOOK A TALE ***\n\n\n" + text
            + "\n\n\n*** END OF THIS PROJECT GUTENBERG EBOOK A TALE ***\n\nThis file should be named tale.txt.\n"
    }

    /// What is read: paragraphs' and notes' spoken text, headings' lines.
    static func read(_ items: [TextItem]) -> String {
        items.compactMap { item -> String? in
            switch item {
            case .paragraph(let p): spoken(p)
            case .heading(let h): h.lines.joined(separator: " ")
            case .note(let n): n.text
            default: nil
            }
        }.joined(separator: "\n")
    }

    static func skipped(_ items: [TextItem]) -> [SkippedPassage] {
        items.compactMap { if case .skipped(let s) = $0 { s } else { nil } }
    }

    @Test func aParagraphNamingProjectGutenbergIsTheProducers() {
        let text = Self.chapters + """
            The pictures were left out of this Project Gutenberg text because they are very large.

            The storm came back in the night, and nobody in the town slept until the morning.

            """
        let items = analysed(text)
        #expect(!Self.read(items).contains("Gutenberg"))
        #expect(Self.read(items).contains("nobody in the town slept"))
        #expect(Self.skipped(items).contains { $0.reason == .transcribersNote && $0.text.contains("Project Gutenberg") })
    }

    @Test func theProducersInstructionsAreSkippedWithTheirTitle() {
        let text = Self.etext(Self.chapters + """
            THE END.

            About the Music

            All music files, including the PDF images, are in the "Music" directory.

            If you want to change the tempo of a MIDI file, do this:

            --Install the lilypond program (free from lilypond.org)

            --Select "Run" from the menu. This makes a new MIDI file and a new PDF.

            """)
        let items = analysed(text)
        let read = Self.read(items)
        #expect(read.contains("THE END."))
        for gone in ["About the Music", "PDF", "tempo", "lilypond", "Select"] { #expect(!read.contains(gone), "\(gone)") }
        // In a book that is no e-text of a printed one (a book about computers), they are the author's.
        let plain = Self.read(analysed(Self.chapters + "All music files, including the PDF images, are in the \"Music\" directory.\n"))
        #expect(plain.contains("PDF images"))
    }

    @Test(arguments: ["He kept the old directory of the city on his desk, and read it by the fire every evening.",
                      "The transcription of the lecture was sent to the printer on Monday, with the proofs."])
    func aParagraphWithOneSuchWordIsTheBooks(paragraph: String) {
        let items = analysed(Self.chapters + paragraph + "\n")
        #expect(Self.read(items).contains(paragraph))
    }

    @Test(arguments: ["Typographical errors corrected by the etext transcriber:", "Typographical errors corrected in text:",
                      "Errata Noted by Transcriber:"])
    func aListOfCorrectionsMadeToTheETextIsNotRead(title: String) {
        let text = Self.chapters + """
            THE END.

            \(title)

            in a very simply way=> in a very simple way {pg 68}
            Goldaming=> Godalming {pg 226}

            The different spellings of Robeck (in the Notes [page 170]) have been retained.

            """
        let items = analysed(text)
        let read = Self.read(items)
        #expect(!read.contains("pg 68") && !read.contains("page 170") && !read.contains("Goldaming"), "\(read)")
        #expect(Self.skipped(items).contains { $0.reason == .transcribersNote && $0.text.contains("Godalming") })
    }

    static let prologue = """
        THE TALE OF THE FIRE

        by A. Writer


        THE TALE OF THE FIRE


        The story had held us, round the fire, sufficiently breathless, but except
        the obvious remark that it was gruesome, as, on Christmas Eve in an old house,
        a strange tale should essentially be, I remember no comment uttered till
        somebody happened to say that it was the only case he had met in which such
        a visitation had fallen on a child.

        “I quite agree,” said Douglas, “that its appearing first to the little boy adds a particular touch.”

        I can see Douglas there before the fire, to which he had got up to present his
        back, looking down at his interlocutor with his hands in his pockets, and the
        rest of us waiting for him to begin the story he had promised us that night.

        I

        The governess came down from London on a fine June morning, and was met at the
        station by a fly from the house, with a driver who said very little all the way.

        """

    @Test func aPrologueWithoutAHeadingIsReadNotSkippedAsATitlePage() {
        let items = analysed(Self.prologue)
        let read = Self.read(items)
        #expect(read.contains("The story had held us"))
        #expect(read.contains("I can see Douglas there"))
        #expect(read.contains("“I quite agree,”"))
        let titlePage = Self.skipped(items).filter { $0.reason == .titlePage }.map(\.text)
        #expect(titlePage.contains("by A. Writer"))
        #expect(!titlePage.contains { $0.contains("Douglas") })
    }

    @Test func anImprintLineBeforeRunningTextIsStillTheTitlePages() {
        let text = """
            THE PAINT

            Copyright 1912 by A. Writer

            This play was produced in London, at the Duke of York's Theatre, on Saturday, February 17, 1912;
            in New York, at the New Lyceum Theatre, on Monday, September 9, 1912; and in Germany, at the
            Stadttheater in Mainz, on the same evening, with the same scenery and the same music.

            ACT I.

            It was a dark and stormy night, and the rain fell in torrents upon the town below.

            """
        let items = analysed(text)
        #expect(Self.read(items).contains("This play was produced in London"))
        #expect(Self.skipped(items).contains { $0.reason == .titlePage && $0.text.contains("Copyright 1912") })
    }

    @Test func aSongsVersesBeforeTheFirstHeadingAreRead() {
        let text = """
            SONGS OF THE ROAD

            Words by A. Writer.

            Copyright, 1887, by A. Publisher.

            Oh child come to me and just sit down by my knee,
            I'll tell that same old story just once more;
            Of dark and clouded years, so full of bitter tears,
            In those bondage days that now are gone before.

            CHORUS.

            1.

            THE LITTLE CABIN ON THE HILL.

            Oh, I remember every day, when all our work was done,
            We'd hear the banjo's sweet refrain once more.

            """
        let items = analysed(text)
        #expect(Self.read(items).contains("Oh child come to me"))
        #expect(Self.skipped(items).contains { $0.reason == .titlePage && $0.text.contains("Copyright") })
    }

    @Test func aPublishersNoteOnItsCatalogueIsAdvertisements() {
        let text = Self.chapters + """
            THE END.

                   *       *       *       *       *

            There's More to Follow!

            More stories of the sort you like, more than 500 titles, in the list on the reverse side of the wrapper of this book.

            It is a selected list; every book in it has achieved a certain measure of success.

            Look on the Other Side of the Wrapper!

                   *       *       *       *       *

            DETECTIVE STORIES BY J. S. FLETCHER

            THE SECRET OF THE BARBICAN

            THE ANNEXATION SOCIETY

            """
        let items = analysed(text)
        let read = Self.read(items)
        #expect(read.contains("THE END."))
        for gone in ["More to Follow", "500 titles", "selected list", "Wrapper", "FLETCHER", "BARBICAN"] { #expect(!read.contains(gone), "\(gone)") }
    }

    @Test func hoursInBracesAreATableNotText() {
        let text = Self.chapters + """
            He kept this scheme of employment for the hours of a day:

                   THE MORNING.            {  5 } Rise, wash, and address
                                           {    } Powerful Goodness!
                                           {  6 } Contrive the day's business.
                                              7 }
                                              8 } Work.

            And so he went on for many years, and kept to it as well as he could.

            """
        let items = analysed(text)
        let read = Self.read(items)
        #expect(!read.contains("{") && !read.contains("}"), "\(read)")
        #expect(Self.skipped(items).contains { $0.reason == .table && $0.text.contains("THE MORNING.") })
        #expect(read.contains("And so he went on"))
    }

    @Test func aNoteMarkerInAHeadingIsNotSpoken() throws {
        let text = """
            CHAPTER XVII.

            It was a dark and stormy night, and the rain fell in torrents upon the town below.

            CHAPTER XVIII.

            Before the Philotechnic Association.[8]

            It was a dark and stormy night, and the rain fell in torrents upon the town below.

            [8] For a fuller report of this lecture, see the Review.

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        let chapter = try #require(book.chapters.last)
        #expect(chapter.title == "CHAPTER XVIII. Before the Philotechnic Association.")
        let heading = try #require(chapter.blocks.first { $0.kind == .heading && $0.text.contains("Association") })
        let marker = (heading.text as NSString).range(of: "[8]")
        #expect(heading.pronunciations.contains { $0.offset == marker.location && $0.length == marker.length && $0.spoken == " " })
    }

    @Test func aLongBracketedProducersNoteInsideANoteIsSilent() throws {
        let text = Self.chapters + """
            The song is sung to the child.[1]

            [Footnote 1: The melody goes as follows:
            [Note Project Gutenberg: music transcribed in Lilypond format]
            \\layout {
              b'4. a'8 g'4 [a'8 (b'8)]
              c''4. (b'8) a'4 r4
            }
            ]

            """
        let items = analysed(text)
        let note = try #require(items.compactMap { if case .note(let n) = $0 { n } else { nil } }.first)
        let units = Array(note.text.utf16)
        var keep = [Bool](repeating: true, count: units.count)
        for s in note.silent { for k in s.offset..<(s.offset + s.length) { keep[k] = false } }
        let heard = String(decoding: zip(units, keep).filter(\.1).map(\.0), as: UTF16.self)
        #expect(heard.contains("The melody goes as follows:"))
        #expect(!heard.contains("Gutenberg") && !heard.contains("layout"), "\(heard)")
    }

    @Test func anHTMLTranscribersNotesSectionIsSkippedWithItsSubheadings() throws {
        let html = """
            <html><body>
            <h2>CHAPTER I.</h2><p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals.</p>
            <h2>CHAPTER II.</h2><p>The morning came at last, and with it the end of the storm and of this story, which ends here.</p>
            <hr/>
            <h2>Transcriber's Notes</h2>
            <h3>Introduction:</h3>
            <p>This version of the book was part of a larger edition of the classics published in 1909.</p>
            <p>Several editions exist. Project Gutenberg has another, published in 1916.</p>
            <hr/>
            <h3>Production Notes:</h3>
            <p>This book contained no chapters and no table of contents.</p>
            </body></html>
            """
        let book = try HTMLPage.read(html, name: "book.htm")
        let read = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(book.chapters.count == 2, "\(book.chapters.map(\.title))")
        for gone in ["Gutenberg", "larger edition", "no table of contents", "Introduction:"] { #expect(!read.contains(gone), "\(gone)") }
    }

    @Test func musicCodeAfterAProducersNoteIsSkippedWithIt() {
        let text = Self.chapters + """
            And in the distance a gamelan begins to play:

            [Note Project Gutenberg: Music transcribed in Lilypond format]
            \\layout {
              indent = #0
            }

            {
              \\clef treble
              d'2 a'2 fis'4 e'8 fis'8 a'4
            }

            d'2 a'2 fis'4 e'8 fis'8 d'4 a4

            --softened by the distance, the melody comes to me like a song of old.

            """
        let items = analysed(text)
        let read = Self.read(items)
        #expect(read.contains("softened by the distance"))
        for gone in ["layout", "clef", "fis'4", "Gutenberg"] { #expect(!read.contains(gone), "\(gone)") }
    }

    @Test func anHTMLCaptionUnderAPictureIsAnIllustrationAsInText() throws {
        let html = """
            <html><body>
            <h2>CHAPTER I.</h2><p>The graves vary considerably in form, construction, and depth, and are classified variously.</p>
            <div class="figcenter"><img src="fig1.png" alt=""/></div>
            <p class="caption">Fig. 1. Section of oval grave.</p>
            <p>The quadrangular graves were constructed in two somewhat distinct ways, as the figure shows.</p>
            <h2>CHAPTER II.</h2><p>The morning came at last, and with it the end of the storm and of this story, which ends here.</p>
            </body></html>
            """
        let book = try HTMLPage.read(html, name: "book.htm")
        let read = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(!read.contains("oval grave"))
        #expect(book.skipped.contains { $0.reason == .illustration && $0.text.contains("oval grave") })
    }
}
