import Testing
@testable import LecternDocuments

/// A whole made-up Project Gutenberg book in today's format, analysed end to end.
@Suite struct PlainTextStructureTests {
    static let book = """
        The Project Gutenberg eBook of The Lighthouse

        This ebook is for the use of anyone anywhere in the United States.

        Title: The Lighthouse

        Author: A. Keeper

        *** START OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE ***




        THE LIGHTHOUSE

        A Novel

        BY A. KEEPER

        LONDON: SMITH AND SONS, 1899




        CONTENTS

        PART I. THE SHORE
            CHAPTER I. The Keeper
            CHAPTER II. The Storm

        PART II. THE SEA
            CHAPTER I. The Boat




        PART I. THE SHORE




        CHAPTER I.

        The Keeper.


        The keeper climbed the stair every evening at dusk, and trimmed the
        lamp with _great_ care, as his father had done before him.[1]

        He kept a log of the ships:

            Year      Ships      Wrecks
            1897        412           3
            1898        398           1

        *       *       *       *       *

        Then came the winter.

        FOOTNOTES:

        [1] His father kept the light for forty years.


        CHAPTER II.

        The Storm.


        The storm broke on the third night, and the sea rose over the rocks
        until the spray reached the gallery of the lamp-room itself.


        PART II. THE SEA


        CHAPTER I.

        The Boat.


        In the morning a boat lay on the shingle, its keel broken, and no
        sign of its crew anywhere along the shore.

        THE END.

        SMITH AND SONS' NEW NOVELS.

        The Cliff. By the same author. Crown 8vo, price 6s.

        *** END OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE ***

        Updated editions will replace the previous one.
        """

    @Test func theWholeBook() {
        let items = analysed(Self.book)
        #expect(summary(items) == [
            "S Project Gutenberg header: The Project Gutenberg eBook of The Lighthouse This ebook is for the use of anyone anywhere in the United States. Title: The Lighthouse Author: A. Keeper *** START OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE ***",
            "S title page: THE LIGHTHOUSE", "S title page: A Novel", "S title page: BY A. KEEPER", "S title page: LONDON: SMITH AND SONS, 1899",
            "S contents list: CONTENTS PART I. THE SHORE CHAPTER I. The Keeper CHAPTER II. The Storm PART II. THE SEA CHAPTER I. The Boat",
            "H part: PART I. THE SHORE",
            "H chapter: CHAPTER I. | The Keeper.",
            "P: The keeper climbed the stair every evening at dusk, and trimmed the lamp with great care, as his father had done before him.[1]",
            "P: He kept a log of the ships:",
            "S table: Year Ships Wrecks 1897 412 3 1898 398 1",
            "B",
            "P: Then came the winter.",
            "S footnotes heading: FOOTNOTES:", "S footnote label: [1]", "N 1: His father kept the light for forty years.",
            "H chapter: CHAPTER II. | The Storm.",
            "P: The storm broke on the third night, and the sea rose over the rocks until the spray reached the gallery of the lamp-room itself.",
            "H part: PART II. THE SEA",
            "H chapter: CHAPTER I. | The Boat.",
            "P: In the morning a boat lay on the shingle, its keel broken, and no sign of its crew anywhere along the shore.",
            "P: THE END.", "S advertisements: SMITH AND SONS' NEW NOVELS.", "S advertisements: The Cliff. By the same author. Crown 8vo, price 6s.",
            "S Project Gutenberg licence: *** END OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE *** Updated editions will replace the previous one.",
        ])
        let first = items.compactMap(\.paragraph).first!
        #expect(first.noteReferences == ["1"])
        #expect(silentTexts(first) == ["footnote marker: [1]"])
    }
}

/// Odd inputs: nothing to read, brackets that never close, headings at the very end.
@Suite struct PlainTextStructureEdgeTests {
    @Test(arguments: [
        "", "\n\n\n", "[", "]", "[]", "_", "***", "CHAPTER I.", "I", "[Illustration", "[Illustration: never closed\n\nText after.",
        "[Footnote 1: never closed", "[1]", "[1] Only a note.", "Text.\n[Footnote 1: a note]", "CONTENTS", "INDEX\n\nA, 1.",
        "Transcriber's note", "*** START OF THE PROJECT GUTENBERG EBOOK X ***", "*** END OF THE PROJECT GUTENBERG EBOOK X ***",
        "[G: a b", "[G: a b]\n[W: c", "CHAPTER I.\n[Illustration:\nChapter II.]", "EPOCH THE FIRST.\n\n1703.",
        "\u{FEFF}Text with a byte-order mark.", "x_y_z _a", "{1}", "^1", "+---+\n| a |\n+---+",
    ])
    func oddInputsAreAccountedFor(text: String) {
        _ = analysed(text)
    }

    @Test func aBlankTextHasNoItems() {
        #expect(PlainTextStructure.analyse([]).isEmpty)
        #expect(PlainTextStructure.analyse(["", "  ", ""]).isEmpty)
    }
}
