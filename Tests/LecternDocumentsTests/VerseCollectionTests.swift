import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A collection of poems reads in its own series (issue 39, item 2): its chapters are its
/// sections or books, and the poems inside a section, or the numbered stanzas and parts of a poem,
/// are sections of that chapter, never chapters of their own — in every format.
struct VerseCollectionTests {
    static let stanza = "Success is counted sweetest\nBy those who ne'er succeed.\nTo comprehend a nectar\nRequires sorest need."

    /// The poems of each section numbered again from `I.`, some titled on the next line.
    static let sectionsText = """
        I. LIFE.


        I.

        SUCCESS.

        \(stanza)


        II.

        \(stanza)


        III.

        \(stanza)



        II. LOVE.


        I.

        MINE.

        \(stanza)


        II.

        \(stanza)



        III. NATURE.


        I.

        \(stanza)


        II.

        MAY-FLOWER.

        \(stanza)

        """

    /// Each chapter's heading blocks, a section's marked `*` (the headings before the chapter's
    /// first text are its own heading, spoken together).
    static func headings(_ book: Book) -> [String] {
        book.chapters.map { chapter in
            chapter.blocks.indices.filter { chapter.blocks[$0].kind == .heading }
                .map { chapter.blocks[$0].text + (chapter.opensSection(at: $0) ? "*" : "") }.joined(separator: ", ")
        }
    }

    @Test func poemsNumberedWithinSectionsAreSectionsOfThem() throws {
        let book = try PlainTextReader().read(text: Self.sectionsText, source: textSource())
        #expect(book.chapters.map(\.title) == ["I. LIFE.", "II. LOVE.", "III. NATURE."])
        #expect(Self.headings(book) == [
            "I., LIFE., I. SUCCESS., II.*, III.*",
            "II., LOVE., I. MINE., II.*",
            "III., NATURE., I., II. MAY-FLOWER.*",
        ])
    }

    /// A song book whose songs are titled by lines after a wide gap, and whose last song alone
    /// numbers its verses `1`, `2`, `3`: the numbers are that song's verses (sections of its
    /// chapter), not the book's chapters, and the songs before it are not its title page.
    @Test func theLastSongsNumberedVersesAreNoChapters() throws {
        let text = """
            Songs of the Day




            The Freed Man's Song.

            Words by A. B. Writer.

            Music by C. D. Player.


            \(Self.stanza)

            \(Self.stanza)

            \(Self.stanza)




            OLE SHADY.


            \(Self.stanza)

            \(Self.stanza)




            DARKEY SAM.

            SONG AND CHORUS.


            1

            \(Self.stanza)

            2

            \(Self.stanza)

            3

            \(Self.stanza)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["The Freed Man's Song.", "OLE SHADY.", "DARKEY SAM."], "\(book.chapters.map(\.title))")
        #expect(Self.headings(book).last == "DARKEY SAM., 1*, 2*, 3*", "\(Self.headings(book))")
    }

    /// Numbers under parts are the parts' chapters, and numbers over long sections a story's chapters.
    @Test func numbersUnderPartsOrOverLongSectionsStayChapters() throws {
        let prose = Array(repeating: SectionHeadingTests.prose, count: 30).joined(separator: "\n\n")
        let story = "I. THE SEA.\n\n\nI.\n\n\(prose)\n\n\nII.\n\n\(prose)\n\n\n\nII. THE LAND.\n\n\nI.\n\n\(prose)\n\n\nII.\n\n\(prose)\n"
        let long = try PlainTextReader().read(text: story, source: textSource())
        #expect(long.chapters.count == 4, "\(long.chapters.map(\.title))")
        let parts = "PART I.\n\n\nI.\n\n\(Self.stanza)\n\n\nII.\n\n\(Self.stanza)\n\n\n\nPART II.\n\n\nI.\n\n\(Self.stanza)\n\n\nII.\n\n\(Self.stanza)\n"
        let inParts = try PlainTextReader().read(text: parts, source: textSource())
        #expect(inParts.chapters.count == 4, "\(inParts.chapters.map(\.title))")
    }

    /// A contents list's entry the edition does not have (an introductory note) does not stop the
    /// next entries being found as lines of text, nor does a running title set above one.
    @Test func listedTitlesAreFoundPastAnEntryTheBodyLacks() throws {
        let text = """
            CONTENTS

            Introductory Note
            Introduction
            First Edition
            Fifth Edition
            Remarks



            The Song of the Tent-Maker
            Introduction

            \(SectionHeadingTests.prose)



            First Edition


            I.

            \(Self.stanza)


            II.

            \(Self.stanza)



            Fifth Edition


            I.

            \(Self.stanza)


            II.

            \(Self.stanza)



            Remarks

            \(SectionHeadingTests.prose)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["The Song of the Tent-Maker Introduction", "First Edition", "Fifth Edition", "Remarks"],
                "\(book.chapters.map(\.title))")
    }

    /// A Standard Ebooks collection: each book a file, its poems `z3998:poem` articles the
    /// navigation lists under it, a long poem's numbered parts listed under the poem.
    @Test func poemsListedUnderTheirBookAreSectionsInEPUB() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        func poem(_ id: String, _ title: String) -> String {
            #"<article id="\#(id)" epub:type="z3998:poem"><h3 epub:type="title">\#(title)</h3><p><span>One’s-self I sing, a simple separate person,</span><br/><span>Yet utter the word Democratic, the word En-Masse.</span></p></article>"#
        }
        func document(_ body: String) -> String {
            """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-US">
            <head><title>Book</title></head><body epub:type="bodymatter">\(body)</body></html>
            """
        }
        let inscriptions = document(#"<section id="inscriptions" epub:type="chapter"><h2 epub:type="title">Inscriptions</h2>"#
            + poem("one", "One’s-Self I Sing") + poem("two", "As I Ponder’d in Silence") + "</section>")
        var parts = ""
        for n in 1...3 {
            parts += #"<section id="song-\#(n)" epub:type="part"><h3 epub:type="z3998:ordinal">\#(n)</h3><p><span>I celebrate myself, and sing myself,</span><br/><span>And what I assume you shall assume.</span></p></section>"#
        }
        let song = document(#"<section id="song" epub:type="chapter z3998:poem"><h2 epub:type="title">Song of Myself</h2>"# + parts + "</section>")
        let nav = #"<li><a href="text/inscriptions.xhtml">Inscriptions</a><ol>"#
            + #"<li><a href="text/inscriptions.xhtml#one">One’s-Self I Sing</a></li><li><a href="text/inscriptions.xhtml#two">As I Ponder’d in Silence</a></li></ol></li>"#
            + #"<li><a href="text/song.xhtml">Song of Myself</a><ol>"#
            + (1...3).map { #"<li><a href="text/song.xhtml#song-\#($0)">\#($0)</a></li>"# }.joined() + "</ol></li>"
        let epub = dir.url.appendingPathComponent("leaves.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/inscriptions.xhtml", inscriptions), ("OEBPS/text/song.xhtml", song)], nav: [], navList: nav)
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(book.chapters.map(\.title) == ["Inscriptions", "Song of Myself"], "\(book.chapters.map(\.title))")
        #expect(Self.headings(book) == [
            "Inscriptions, One’s-Self I Sing, As I Ponder’d in Silence*",
            "Song of Myself, 1, 2*, 3*",
        ], "\(Self.headings(book))")
    }

    /// The same sections set line by line in HTML, each line ended by a `<br>` and a stanza or a
    /// poem by an empty line (`<br><br>`), loose in the page or in one `<p>`: the empty lines
    /// part the paragraphs as a plain text's blank lines do, so the page reads as its text does.
    @Test func linesSetWithBreaksArePartedByEmptyLines() throws {
        let lines = Self.sectionsText.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>\n")
        // (A rule under a section's heading, as a page may set one, is ornament.)
        let ruled = ["LIFE.", "LOVE.", "NATURE."].reduce(lines) { $0.replacingOccurrences(of: $1 + "<br>", with: $1 + "<br><hr>") }
        for body in ["<hr>" + lines, "<p>" + lines + "</p>", "<hr>" + ruled] {
            let book = try HTMLPage.body(body)
            #expect(book.chapters.map(\.title) == ["I. LIFE.", "II. LOVE.", "III. NATURE."], "\(book.chapters.map(\.title))")
            #expect(Self.headings(book) == [
                "I., LIFE., I. SUCCESS., II.*, III.*",
                "II., LOVE., I. MINE., II.*",
                "III., NATURE., I., II. MAY-FLOWER.*",
            ], "\(Self.headings(book))")
        }
        // Two stanzas in one paragraph are two paragraphs; a heading's empty line stays inside it.
        let poem = try HTMLPage.body("<h2>THE SECRET.<br><br>A Poem</h2><p>" + Self.stanza.replacingOccurrences(of: "\n", with: "<br>")
            + "<br>\n<br>\n" + Self.stanza.replacingOccurrences(of: "\n", with: "<br>") + "</p>")
        let blocks = poem.chapters.flatMap(\.blocks)
        #expect(blocks.filter { $0.kind == .paragraph }.count == 2, "\(poem.chapters.map(\.pairs))")
        #expect(blocks.contains { $0.text.hasPrefix("THE SECRET. A Poem") }, "\(poem.chapters.map(\.pairs))")
    }

    /// A contents list ends where its first entry comes back after a blank line: that line is the
    /// first chapter's heading (`Introductory Note`), though no heading word marks it.
    @Test func aContentsListEndsWhereItsFirstEntryComesBack() throws {
        let text = """
            CONTENTS

            Introductory Note
            Introduction
            I.       The Peace-Pipe
            II.      The Four Winds


            Introductory Note

            \(SectionHeadingTests.prose)



            The Song of Hiawatha
            Introduction

            \(Self.stanza)



            I

            The Peace-Pipe

            \(Self.stanza)



            II

            The Four Winds

            \(Self.stanza)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["Introductory Note", "The Song of Hiawatha Introduction", "I The Peace-Pipe", "II The Four Winds"],
                "\(book.chapters.map(\.title))")
        #expect(book.skipped.filter { $0.reason == .contentsList }.map(\.text) == [
            "CONTENTS Introductory Note Introduction I. The Peace-Pipe II. The Four Winds",
        ])
    }

    /// A songbook's plain text sets each song's title after a wide gap, in capitals or not, with a
    /// credit or a byline under it: each song is a chapter, its credit read in it (never a chapter
    /// of its own), and a short line after a narrow gap is the song's.
    @Test func titlesAfterAWideGapAreTheSongsChapters() throws {
        let text = """
            PREFACE.

            \(SectionHeadingTests.prose)




            GONE, SOLD AND GONE.

            Words by Whittier. Music by G.W. Clark.


            [Music]

            \(Self.stanza)

            \(Self.stanza)




            The Slave Boy's Wish.

            BY ELIZA LEE FOLLEN.


            \(Self.stanza)

            Chorus.

            \(Self.stanza)




            How long! O! how long!


            \(Self.stanza)




            Remembering that God is just.

            FROM THE LIBERATOR.

            \(Self.stanza)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["PREFACE.", "GONE, SOLD AND GONE.", "The Slave Boy's Wish.", "How long! O! how long!",
                                               "Remembering that God is just."], "\(book.chapters.map(\.title))")
        #expect(book.chapters[2].blocks.map(\.text).contains("BY ELIZA LEE FOLLEN."))
        // A name set flush right under the preface signs it: no chapter.
        let signed = text.replacingOccurrences(of: "\n\n\n\n\nGONE", with: "\n\n" + String(repeating: " ", count: 60) + "G.W. CLARK.\n\n\n\n\n\(Self.stanza)\n\n\n\n\nGONE")
        #expect(try PlainTextReader().read(text: signed, source: textSource()).chapters.map(\.title).first == "PREFACE.")
        #expect(try PlainTextReader().read(text: signed, source: textSource()).chapters.count == 5)
        #expect(book.chapters[4].blocks.map(\.text).contains("FROM THE LIBERATOR."))
    }

    /// A songbook's title page set line by line after wide gaps (`THE` / `LIBERTY SONGSTER.`, an
    /// imprint under `NEW-YORK:`) is the title page, not songs; a song's source in parentheses over its
    /// title after the gap (`(From the Globe.)` / `The Ballot.`) leaves the title opening the song.
    @Test func aTitlePageSetLineByLineIsNoSongAndASourceLineLeavesTheTitle() throws {
        let text = """
            The Project Gutenberg EBook of The Liberty Songster, by A. Writer

            *** START OF THIS PROJECT GUTENBERG EBOOK THE LIBERTY SONGSTER ***




            THE

            LIBERTY SONGSTER.


            \(Self.stanza)


            BY

            A. WRITER.


            NEW-YORK:

            SAXTON & MILES, 205 BROADWAY, N.Y.: MYRON FINCH, 120 NASSAU ST., N.Y.:
            JACKSON & CHAPLIN, 38 DEAN ST., ALBANY, N.Y.

            1844.




            PREFACE.

            \(SectionHeadingTests.prose)




            GONE, SOLD AND GONE.

            Words by Whittier. Music by G.W. Clark.

            \(Self.stanza)

            \(Self.stanza)




            (From the Globe.)

            The Ballot.

            BY J.E. DOW.

            \(Self.stanza)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["PREFACE.", "GONE, SOLD AND GONE.", "The Ballot."], "\(book.chapters.map(\.title))")
    }

    /// A contents list that names a collection's series (`First Series`, `Second Series`), under each
    /// of which the sections are numbered again from `I.`: the series are parts, the numbered
    /// sections their chapters, never read as lines of text.
    @Test func aListOfSeriesNamesThePartsOverNumberedSections() throws {
        let series = "I. LIFE.\n\n\nI.\n\n\(Self.stanza)\n\n\nII.\n\n\(Self.stanza)\n\n\n\nII. LOVE.\n\n\nI.\n\n\(Self.stanza)\n\n\nII.\n\n\(Self.stanza)\n"
        let text = "CONTENTS\n\nFirst Series\nSecond Series\nThird Series\n\n\n\n"
            + ["First", "Second", "Third"].map { "\($0) Series\n\n\n\n" + series }.joined(separator: "\n\n\n\n")
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == Array(repeating: ["I. LIFE.", "II. LOVE."], count: 3).flatMap { $0 }, "\(book.chapters.map(\.title))")
        #expect(book.chapters.map(\.part) == ["First Series", "First Series", "Second Series", "Second Series", "Third Series", "Third Series"],
                "\(book.chapters.map(\.part))")
    }

    /// An index of first lines set as a paragraph of links, one a line, is left out with its title,
    /// as a contents list of links is: no chapter of its own, nothing of it read.
    @Test func anIndexOfFirstLinesSetAsLinksIsLeftOut() throws {
        let firstLines = ["A bird came down the walk:", "A charm invests a face", "A clock stopped, not the mantel's;",
                          "A death-blow is a life-blow to some", "A deed knocks first at thought,", "Success is counted sweetest"]
        let poems = (0..<2).map { n in "<h2>Poems \(n + 1)</h2><p id=\"p\(n)\">\(SectionHeadingTests.prose)</p><p>\(SectionHeadingTests.prose)</p>" }.joined()
        let index = "<h2>Index of First Lines</h2><p>\n" + firstLines.map { "<a href=\"#p0\">\($0)</a><br>\n" }.joined() + "</p>"
        let book = try HTMLPage.body(poems + index)
        #expect(book.chapters.map(\.title) == ["Poems 1", "Poems 2"], "\(book.chapters.map(\.title))")
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.text.contains("A bird came") })
        #expect(book.skipped.map(\.reason).contains(.index), "\(book.skipped.map(\.reason))")
    }
}
