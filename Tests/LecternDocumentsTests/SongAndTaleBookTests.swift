import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Collections of songs and tales read in their own series (issue 39, item 2): a song's title over
/// its credits, a rhyme's title over one-line verses, a `CHORUS.` label that comes back in every
/// song, a page set wholly in display type, and a proem before the preface — chapters only where
/// the book has one of its pieces.
struct SongAndTaleBookTests {
    static let stanza = "Oh child come to me and just sit down by my knee,\nI'll tell that same old story just once more;\nOf dark, clouded years, oh, so full of bitter tears,\nIn those bondage days of long before the war."

    /// Songs set apart by wide gaps, each title over several lines of credits; a `CHORUS.` in capitals in each.
    static let songs = """
        Some Songs of Old


        [Transcriber's Note: This file contains only the lyrics to the songs.]




        Freedom's Song.

        As sung in the Drama,

        "PETE."

        _Words by EDWARD HARRIGAN._

        _Music by DAVE BRAHAM._

        Copyright, 1887, by Wm. A. Pond & Co.


        \(stanza)

        CHORUS.

            \(stanza)




        OLE SHADY.

        THE SONG OF THE CONTRABAND.


        \(stanza)

        CHORUS.

        \(stanza)




        THE LOG CABIN ON THE HILL.

        SONG AND CHORUS

        Words by ARTHUR W. FRENCH.

        Music by HERBERT HERSEY.

        Copyrighted, 1876, by JOHN P. PERRY & Co.


        \(stanza)

        CHORUS.

        \(stanza)

        """

    @Test func aSongsTitleOverItsCreditsIsItsChapterAndItsChorusIsNot() throws {
        let book = try PlainTextReader().read(text: Self.songs, source: textSource())
        let titles = book.chapters.map(\.title)
        #expect(titles.filter { $0.contains("CHORUS") }.isEmpty, "\(titles)")
        #expect(titles.contains { $0.hasSuffix("Freedom's Song.") }, "\(titles)")
        #expect(titles.contains("THE LOG CABIN ON THE HILL."), "\(titles)")
        #expect(titles.count == 3, "\(titles)")
    }

    @Test func aSongsRefrainLineInsideItsStanzasDoesNotUntitleIt() throws {
        let refrain = "MY CHILD IS GONE.\n\nThey took my child at break of day,\nMy child is gone, my child is gone,\nAnd bore him far and far away;\nMy child is gone, my child is gone."
        let text = Self.songs.replacingOccurrences(of: "THE LOG CABIN ON THE HILL.", with: refrain + "\n\nMY CHILD IS GONE.\n\nMY CHILD IS GONE.\nMY CHILD IS GONE.")
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title).contains("MY CHILD IS GONE."), "\(book.chapters.map(\.title))")
    }

    @Test func aTitlePageOverAnImprintIsNoSongsTitle() throws {
        let text = """
            Old Tales Retold.

            "THE FIDDLE AND THE BOW,"

            "THE PARADISE OF FOOLS",

            ILLUSTRATED.

                Published by
                SMITH & COMPANY.
                Nashville, Tenn.




            PREFACE.


            This volume presents the first publication of the famous lectures of the
            governor, whose great popularity as an orator has caused repeated
            inquiries from all sections of the country for his lectures in book form.




            THE FIDDLE AND THE BOW.


            \(Self.stanza)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(!book.chapters.map(\.title).contains("Old Tales Retold."), "\(book.chapters.map(\.title))")
    }

    @Test func aPlaysTitlePageOverItsCastIsNoPiece() throws {
        // The play's title again after the introduction and a wide gap, its subtitle, year and cast list
        // under it: its title page, read with the front; the cast is no piece's running text.
        let text = """
            GHOSTLY VOICES




            INTRODUCTION.

            This play was written in the winter of that year, and was published in
            December, in an edition of ten thousand copies, which was soon sold out.




            GHOSTLY VOICES

            A FAMILY-DRAMA IN THREE ACTS.

            (1881)


            CHARACTERS.

            Mrs. HELEN ALVING, widow of Captain Alving.
            OSWALD ALVING, her son, a painter.
            PASTOR MANDERS.
            REGINA ENGSTRAND, Mrs. Alving's maid.




            ACT FIRST.

            [A spacious garden-room, with one door to the left.]

            REGINA. What do you want? Stop where you are. You are positively dripping.

            MANDERS. It is the Lord's own rain, my girl, and it falls on us all alike.




            ACT SECOND.

            [The same room. The mist still lies heavy over the landscape.]

            REGINA. Good morning, Pastor Manders, you are early today.

            MANDERS. Good morning, my girl; is your mistress at home?

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(!book.chapters.map(\.title).contains("GHOSTLY VOICES"), "\(book.chapters.map(\.title))")
    }

    /// Tales in capitals after wide gaps; one a rhyme whose first verses are lines of their own.
    static let tales = """
        TOM TIT TOT

        Once upon a time there was a woman, and she baked five pies. And when
        they came out of the oven, they were that overbaked the crusts were too
        hard to eat. So she says to her daughter: put them on the shelf.




        THE THREE SILLIES

        Once upon a time there was a farmer and his wife who had one daughter,
        and she was courted by a gentleman. Every evening he used to come and
        see her, and stop to supper at the farmhouse.




        TITTY MOUSE AND TATTY MOUSE

        Titty Mouse and Tatty Mouse both lived in a house,

        Titty Mouse went a leasing and Tatty Mouse went a leasing,

        So they both went a leasing.

        Titty Mouse leased an ear of corn, and Tatty Mouse leased an ear of
        corn,

        So they both leased an ear of corn.




        THE ROSE-TREE

        There was once upon a time a good man who had two children: a girl by a
        first wife, and a boy by the second. The girl was as white as milk, and
        her lips were like cherries.

        """

    @Test func aRhymesTitleOverOneLineVersesIsItsChapter() throws {
        let book = try PlainTextReader().read(text: Self.tales, source: textSource())
        #expect(book.chapters.map(\.title) == ["TOM TIT TOT", "THE THREE SILLIES", "TITTY MOUSE AND TATTY MOUSE", "THE ROSE-TREE"])
    }

    @Test func aContentsListFlowedIntoOneParagraphIsReadEntryByEntry() {
        let entries = ListedChapters.entries([
            "CONTENTS", "",
            "I. TOM TIT TOT II. THE THREE SILLIES III. THE ROSE-TREE IV. THE OLD",
            "WOMAN AND HER PIG V. HOW JACK WENT TO SEEK HIS FORTUNE", "",
            "NOTES AND REFERENCES",
        ])
        #expect(entries.map(\.title) == ["TOM TIT TOT", "THE THREE SILLIES", "THE ROSE-TREE", "THE OLD WOMAN AND HER PIG",
                                         "HOW JACK WENT TO SEEK HIS FORTUNE", "NOTES AND REFERENCES"])
        #expect(entries.prefix(5).map(\.number) == [1, 2, 3, 4, 5])
    }

    static let paragraph = "<p>Once upon a time there was a woman, and she baked five pies. And when they came out of the oven, they were that overbaked the crusts were too hard to eat.</p>"

    @Test func aPageOfDisplayTypeIsNoChapter() throws {
        let book = try HTMLPage.body("""
            <h3>Hemenway Expedition</h3><h1>CONTRIBUTION</h1><h2>TO</h2><h1>FOLK-LORE</h1><h4>By J. WALTER FEWKES</h4>
            <h2>TOM TIT TOT</h2>\(Self.paragraph)\(Self.paragraph)
            <h2>THE THREE SILLIES</h2>\(Self.paragraph)\(Self.paragraph)
            <h2>OYEZ-OYEZ-OYEZ</h2><h3>THE FAIRY TALES</h3><h3>ARE NOW CLOSED</h3>
            <h2>NOTES AND REFERENCES</h2>\(Self.paragraph)
            """)
        #expect(book.chapters.map(\.title) == ["TOM TIT TOT", "THE THREE SILLIES", "NOTES AND REFERENCES"])
        let last = try #require(book.chapters.dropLast().last)
        #expect(last.blocks.suffix(3).map(\.text) == ["OYEZ-OYEZ-OYEZ", "THE FAIRY TALES", "ARE NOW CLOSED"])
        #expect(last.blocks.suffix(3).allSatisfy { $0.kind == .paragraph })
        #expect(book.skipped.contains { $0.text == "Hemenway Expedition" && $0.reason == SkipReason.titlePage })
    }

    @Test func aShortPieceBeforeThePrefaceIsTheOpening() throws {
        let book = try HTMLPage.body("""
            <h2><i>HOW TO GET INTO THIS BOOK.</i></h2>
            <p><i>Then, if you are very quiet, you will hear a teeny tiny voice say through the grating: take down the key.</i></p>
            <h2>PREFACE</h2>\(Self.paragraph)
            <h2>TOM TIT TOT</h2>\(Self.paragraph)\(Self.paragraph)
            <h2>THE THREE SILLIES</h2>\(Self.paragraph)\(Self.paragraph)
            """)
        #expect(book.chapters.map(\.title) == ["PREFACE", "TOM TIT TOT", "THE THREE SILLIES"])
        #expect(book.chapters[0].blocks.first?.text == "HOW TO GET INTO THIS BOOK.")
    }

    /// A book of tales titled in capitals after a gap of two blank lines: a title in quotes, a long
    /// title (fourteen words), and one over a single sentence that brings on a song's words are each a
    /// tale's heading, as the ones the fallback already took.
    @Test func capitalsSetApartTitleTalesInQuotesLongOrOverAnIntroducedSong() throws {
        let prose = "The Passamaquoddies, no doubt, in old times, had many dances, sacred\nand secular, and some of these were very different from what they now are."
        let text = """
            THE SNAKE DANCE.

            \(prose)


            SNAKE SONG.

            The words of the first strain are as follows:--

                Way ho yarhnie, way ho yarhnie.

            \(prose)


            TRADE DANCE.

            \(prose)


            "M' TOULIN."

            \(prose)


            HOW A MEDICINE MAN WAS BORN, AND HOW HE TURNED MAN INTO A TREE.

            \(prose)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["THE SNAKE DANCE.", "SNAKE SONG.", "TRADE DANCE.", "\"M' TOULIN.\"",
                                               "HOW A MEDICINE MAN WAS BORN, AND HOW HE TURNED MAN INTO A TREE."], "\(book.chapters.map(\.title))")
    }
}
