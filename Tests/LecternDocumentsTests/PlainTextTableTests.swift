import Testing
@testable import LecternDocuments

/// ASCII-art, box-drawing and column-aligned tables, and separator lines.
@Suite struct PlainTextTableTests {
    @Test func asciiBoxDrawingAndNumericTablesAreSkipped() {
        let text = """
            CHAPTER I.

            The figures:

            +-------+-----+
            | Year  | Men |
            +-------+-----+
            | 1703  |  12 |
            +-------+-----+

            ┌────┬────┐
            │ a  │ b  │
            └────┴────┘

                1801      12,000      3,400
                1802      13,500      3,900

            Those were the years.
            """
        let s = summary(analysed(text))
        #expect(s.map { String($0.prefix(8)) } == ["H chapte", "P: The f", "S table:", "S table:", "S table:", "P: Those"])
    }

    @Test(arguments: ["|  Phrygian  D (E F) G", "+-----+---+", "a | b | c", "─│┌", "1801      12,000      3,400"])
    func tableLines(line: String) {
        #expect(Tables.isTableLine(line))
    }

    @Test(arguments: ["It was a dark and stormy night.", "CHAPTER I. The Widow          1", "    Where the robber may cheer", "Note: x | y"])
    func notTableLines(line: String) {
        #expect(!Tables.isTableLine(line))
    }

    @Test func separatorsArePausesBetweenParagraphs() {
        let text = "CHAPTER I.\n\nOne.\n\n* * *\n\nTwo.\n\n***\n\nThree.\n\n-----\n\n      ~\n\nFour."
        #expect(summary(analysed(text)) == ["H chapter: CHAPTER I.", "P: One.", "B", "P: Two.", "B", "P: Three.", "B", "P: Four."])
    }

    @Test func aSeparatorRightAfterAHeadingIsNoPause() {
        #expect(summary(analysed("CHAPTER I.\n\n* * *\n\nOne.")) == ["H chapter: CHAPTER I.", "P: One."])
    }

    @Test(arguments: ["***", "* * *", "-----", "~", "=====", "*"])
    func separatorLines(line: String) { #expect(Separators.isSeparator(line)) }

    @Test(arguments: ["...", "--", "+-----+", "- a -", "*Note*"])
    func notSeparatorLines(line: String) { #expect(!Separators.isSeparator(line)) }
}
