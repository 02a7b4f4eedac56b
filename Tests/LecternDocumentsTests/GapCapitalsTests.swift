import Testing
@testable import LecternDocuments

/// A series of chapter titles in capitals, each after a wide gap and over prose (``GapCapitals``), are
/// headings; a poem's title, a line set closer or one alone of its kind is not.
@Suite struct GapCapitalsTests {
    static let prose = """
        In the shade of the house, in the sunshine of the riverbank near the
        boats, in the shade of the Sal-wood forest, the boy grew up.

        """
    static let gap = "\n\n\n\n"

    @Test func capitalsSetAsThePartsAreTheirChapters() {
        // `Kamala` is named in the text before the title: a title for all that, not the book's (`SIDDHARTHA`).
        let text = "SIDDHARTHA\n\n\nFIRST PART\n\nTo my dear friend\n" + Self.gap + "THE SON OF THE BRAHMAN\n\n" + Self.prose + "He thought of Kamala.\n"
            + Self.gap + "BY THE RIVER\n\n" + Self.prose
            + Self.gap + "SECOND PART\n\nTo my cousin\n" + Self.gap + "KAMALA\n\n" + Self.prose
        let headings = analysed(text).compactMap { $0.heading.map { "\($0.level): \($0.title)" } }
        #expect(headings == ["part: FIRST PART", "chapter: THE SON OF THE BRAHMAN", "chapter: BY THE RIVER",
                             "part: SECOND PART", "chapter: KAMALA"])
    }

    @Test func aLineAloneOfItsKindIsNoHeading() {
        let text = "EXPLANATORY\n\n" + Self.prose + Self.gap + "CHAPTER I. THE TWO POETS\n\n" + Self.prose
            + Self.gap + "CHAPTER II. THE SECRET\n\n" + Self.prose
        let titles = analysed(Self.gap + text).compactMap(\.heading?.title)
        #expect(titles == ["CHAPTER I. THE TWO POETS", "CHAPTER II. THE SECRET"])
    }

    @Test func aPoemsTitleOrALineSetCloserIsNoHeading() {
        let poem = "          TO THE HESITATING PURCHASER\n\n          If sailor tales to sailor tunes,\n"
            + "             Storm and adventure, heat and cold,\n\n"
        let close = "\n\nSHE WROTE IN CAPITALS\n\n" + Self.prose
        let titles3 = ["THE INN", "THE SPOT", "THE LAST DAY"].map { Self.gap + "\($0)\n\n" + Self.prose }.joined()
        let text = poem + Self.gap + "PART ONE\n" + titles3 + close + close + Self.gap + "          AND ANOTHER POEM\n\n          With a verse,\n          and another.\n\n"
        let titles = analysed(Self.gap + text).compactMap(\.heading?.title)
        #expect(titles == ["PART ONE", "THE INN", "THE SPOT", "THE LAST DAY"])
    }

    @Test func aBookThatNumbersItsChaptersHasItsSeries() {
        // A prologue's title in capitals after a gap, in a book whose chapters are `I`, `II`, `III`: no
        // chapter of its own (the numbered series is the book's), however many such lines stand in it.
        let numbered = ["I", "II", "III"].map { Self.gap + "\($0)\n\n" + Self.prose }.joined()
        let text = Self.gap + "PART ONE\n" + Self.gap + "PROLOGUE BY A FRIEND\n\n" + Self.prose + Self.gap + "AFTER THE PROLOGUE\n\n" + Self.prose
            + Self.gap + "A WORD MORE\n\n" + Self.prose + numbered
        let titles = analysed(text).compactMap(\.heading?.title)
        #expect(!titles.contains("AFTER THE PROLOGUE") && !titles.contains("A WORD MORE"), "\(titles)")
    }

    @Test func theTitlePageBeforeThePartsIsNoChapterNorAnIllustrationsPart() {
        // The book's title over its subtitle, before the first part; a `Vol. One Front End]` line closing a
        // bracketed illustration is no part heading.
        let titles3 = ["THE INN", "THE SPOT", "THE LAST DAY"].map { Self.gap + "\($0)\n\n" + Self.prose }.joined()
        let text = "[Illustration:\n\nThe map\n\nVol. One Front End]\n" + Self.gap + "LEGENDS OF THE WEST\n\n"
            + "    Being a collection of some of the old tales told in the western\n    parts, now retold by a friend\n"
            + Self.gap + "VOLUME ONE\n" + titles3
        let titles = analysed(Self.gap + text).compactMap(\.heading?.title)
        #expect(titles == ["VOLUME ONE", "THE INN", "THE SPOT", "THE LAST DAY"], "\(titles)")
    }
}
