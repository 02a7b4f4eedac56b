import Testing
@testable import LecternDocuments

/// Chapter and part headings: the keywords books use, titles on the same or the next lines, lone
/// numbers, and lines that only look like headings.
@Suite struct PlainTextHeadingTests {
    static let body = "It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked.\n"

    @Test(arguments: [
        ("CHAPTER I.\nDown the Rabbit-Hole\n\n\n", ["CHAPTER I.", "Down the Rabbit-Hole"]),
        ("CHAPTER I: DISCUSSION AND BED\n\n", ["CHAPTER I: DISCUSSION AND BED"]),
        ("CHAPTER I. The Widow\n\n", ["CHAPTER I. The Widow"]),
        ("CHAPTER I.\n\nThe Widow and her Child.\n\n\n", ["CHAPTER I.", "The Widow and her Child."]),
        ("Chapter 12\n\n", ["Chapter 12"]),
        ("CHAP. IV.\n\n", ["CHAP. IV."]),
        ("STAVE ONE.\n\nMARLEY'S GHOST.\n\n", ["STAVE ONE.", "MARLEY'S GHOST."]),
        ("LETTER 4\n\n", ["LETTER 4"]),
        ("I.\n\nTHE ORIGIN OF MUSIC\n\n", ["I.", "THE ORIGIN OF MUSIC"]),
        ("1.\n\n", ["1."]),
        ("PREFACE\n\n\n", ["PREFACE"]),
        ("AUTHOR'S INTRODUCTION.\n\n", ["AUTHOR'S INTRODUCTION."]),
        ("DEDICATORY EPISTLE\n\n", ["DEDICATORY EPISTLE"]),
        ("The Epistle Dedicatory.\n\n", ["The Epistle Dedicatory."]),
        ("Epilogue\n\n", ["Epilogue"]),
        ("SCENE 1\n\n", ["SCENE 1"]),
        ("I\n\nTHE SYSTEMS OF HUCBALD AND GUIDO\nD'AREZZO\n\n", ["I", "THE SYSTEMS OF HUCBALD AND GUIDO D'AREZZO"]),
    ])
    func headingsAndTheirTitles(heading: String, lines: [String]) {
        let items = analysed(heading + Self.body)
        #expect(items.first?.heading?.lines == lines)
        #expect(items.first?.heading?.level == .chapter)
        #expect(items.count == 2 && items[1].paragraph != nil)
    }

    @Test func theTitleIsTheLinesJoined() {
        let h = TextHeading(level: .chapter, lines: ["CHAPTER I.", "Down the Rabbit-Hole"], firstLine: 3)
        #expect(h.title == "CHAPTER I. Down the Rabbit-Hole")
    }

    @Test func aNumberedListItemInRunningTextIsNotAHeading() {
        let text = """
            He asked me these questions:

            I.  What kind of a government have you?  Has republicanism finally
            triumphed?  Or have you come merely to a commercial dictatorship?

            II.  Do you vote?
            """
        #expect(!analysed(text).contains { $0.heading != nil })
    }

    @Test func aFirstSentenceIsNotTakenForATitle() {
        let items = analysed("CHAPTER I.\n\nIt was dark.\n\n" + Self.body)
        #expect(summary(items).prefix(2) == ["H chapter: CHAPTER I.", "P: It was dark."])
        let quoted = analysed("CHAPTER II.\n\n“Yes.”\n\n" + Self.body)
        #expect(quoted.first?.heading?.lines == ["CHAPTER II."])
    }

    @Test func loneNumbersMustRunOn() {
        // A lone "IV" after "I" is not the next heading; "II" is.
        let text = "I\n\nONE\n\n\(Self.body)\nIV\n\n\(Self.body)\nII\n\nTWO\n\n\(Self.body)"
        #expect(analysed(text).compactMap(\.heading?.title) == ["I ONE", "II TWO"])
    }

    @Test func numberedTitlesAloneOnALine() {
        let text = """
            I. A SCANDAL IN BOHEMIA


            I.

            \(Self.body)
            II.

            \(Self.body)

            II. THE RED-HEADED LEAGUE

            \(Self.body)
            """
        #expect(analysed(text).compactMap(\.heading?.title) == ["I. A SCANDAL IN BOHEMIA", "I.", "II.", "II. THE RED-HEADED LEAGUE"])
    }

    @Test func aListOfShortNumberedLinesIsNotHeadings() {
        let text = "You will need:\n\n1. Eggs\n\n2. Milk\n\n3. Flour\n\n\(Self.body)"
        #expect(!analysed(text).contains { $0.heading != nil })
    }

    @Test func stanzaNumbersInAChapteredBookAreRead() {
        let text = "CHAPTER I.\n\n\(Self.body)\n    I.\n\n    Where Saint-Giles' church stands\n\n    II.\n\n    By many a highwayman\n\nCHAPTER II.\n\n\(Self.body)"
        let items = analysed(text)
        #expect(items.compactMap(\.heading?.title) == ["CHAPTER I.", "CHAPTER II."])
        #expect(items.contains { $0.paragraph?.text == "II." })
    }

    @Test func contentsEntriesWithPageNumbersAreNotHeadings() {
        #expect(HeadingCandidate.of("CHAPTER I. The Widow and her Child             1") == nil)
        #expect(HeadingCandidate.of("Heading to Chapter IV.   18") == nil)
        #expect(HeadingCandidate.of("BEING SOME CHAPTERS FROM") == nil)
        #expect(HeadingCandidate.of("DID.") == nil)  // not a Roman numeral
        #expect(HeadingCandidate.of("Part of the day was spent") == nil)
    }

    @Test func partsHoldChaptersAndTheirTitleContinues() {
        let text = """
            EPOCH THE FIRST.

            1703.

            JONATHAN WILD.



            CHAPTER I.

            The Widow and her Child.

            \(Self.body)
            END OF THE FIRST EPOCH.

            EPOCH THE SECOND, 1715.
            THAMES DARRELL.

            CHAPTER I.

            The Idle Apprentice.

            \(Self.body)
            """
        let headings = analysed(text).compactMap(\.heading)
        #expect(headings.map(\.level) == [.part, .chapter, .part, .chapter])
        #expect(headings.map(\.lines) == [["EPOCH THE FIRST.", "1703.", "JONATHAN WILD."], ["CHAPTER I.", "The Widow and her Child."],
                                          ["EPOCH THE SECOND, 1715.", "THAMES DARRELL."], ["CHAPTER I.", "The Idle Apprentice."]])
        #expect(analysed(text).contains { $0.paragraph?.text == "END OF THE FIRST EPOCH." })
    }

    @Test func aBookWithoutChaptersUnderItIsAChapter() {
        let text = "BOOK I\n\n\(Self.body)\nBOOK II\n\n\(Self.body)"
        #expect(analysed(text).compactMap(\.heading).map(\.level) == [.chapter, .chapter])
    }

    @Test func shortUpperCaseLinesAreHeadingsOnlyWhenNothingElseIs() {
        let text = "THE GIFT\n\n\(Self.body)\nTHE RETURN\n\n\(Self.body)"
        #expect(analysed(text).compactMap(\.heading?.title) == ["THE GIFT", "THE RETURN"])
        let prefaced = "PREFACE\n\n\(Self.body)\nTHE GIFT\n\n\(Self.body)"
        #expect(analysed(prefaced).compactMap(\.heading?.title) == ["PREFACE", "THE GIFT"])
        let chaptered = "CHAPTER I.\n\n\(Self.body)\nTHE RETURN\n\n\(Self.body)"
        #expect(analysed(chaptered).compactMap(\.heading?.title) == ["CHAPTER I."])
    }

    @Test func italicsAreRemovedFromHeadings() {
        #expect(analysed("CHAPTER I.\n_The_ Start\n\n" + Self.body).first?.heading?.lines == ["CHAPTER I.", "The Start"])
    }

    @Test func aPageNumberInTheRightMarginOpensNoHeading() {
        let page = String(repeating: " ", count: 69)
        let text = "\(page)7\n\n                                    I\n\n                  The Arrival\n\n\(Self.body)\n\n"
            + "\(page)12\n                                    II\n\n                  The Departure\n\n\(Self.body)"
        let items = analysed(text)
        #expect(items.compactMap(\.heading).map(\.lines) == [["I", "The Arrival"], ["II", "The Departure"]])
        #expect(summary(items).filter { $0.hasPrefix("S page number") } == ["S page number: 7", "S page number: 12"])
    }

    @Test func aTitleFilledToTheLineGoesOnInTheNextLine() {
        let text = "Capítulo VII. De la segunda salida de nuestro buen caballero don Quijote de\nla Mancha\n\n\n"
            + "Estando en esto, comenzó a dar voces don Quijote, diciendo:\n\n\(Self.body)\n\n"
            + "Capítulo VIII. Donde se cuenta la desgraciada aventura que se topó don\nQuijote en topar con unos desalmados yangüeses\n\n\n\(Self.body)"
        #expect(analysed(text).compactMap(\.heading).map(\.lines) == [
            ["Capítulo VII. De la segunda salida de nuestro buen caballero don Quijote de la Mancha"],
            ["Capítulo VIII. Donde se cuenta la desgraciada aventura que se topó don Quijote en topar con unos desalmados yangüeses"]])
    }

    @Test func aTitleFilledLineAfterLineGoesOnPastANameOnTheNextLine() {
        let text = "Capítulo XXII. De la libertad que dio don Quijote a muchos desdichados\n\n\n\(Self.body)\n\n"
            + "Capítulo XXIII. De lo que le aconteció al famoso don Quijote en Sierra\n"
            + "Morena, que fue una de las más raras aventuras que en esta verdadera\nhistoria se cuentan\n\n\n\(Self.body)"
        #expect(analysed(text).compactMap(\.heading).map(\.lines) == [
            ["Capítulo XXII. De la libertad que dio don Quijote a muchos desdichados"],
            ["Capítulo XXIII. De lo que le aconteció al famoso don Quijote en Sierra Morena, que fue una de las más raras aventuras que en esta verdadera historia se cuentan"]])
    }
}
