import Foundation
import LecternCore
import LecternText
import Testing
@testable import LecternDocuments

/// Chapters are the book's own series (issue 39, item 2), in its plain text as in its HTML: a
/// numbered series that runs on across parts, a title wrapped onto a second line, a numbered day
/// with its title under it, a dictionary's letters, and contents lists whose entries wrap, pass
/// over a title the body lacks, or sit side by side in a table.
struct ChapterSeriesTests {
    static let prose = ListedChaptersTests.prose

    static func chapters(_ items: [TextItem]) -> [String] { ListedChaptersTests.chapters(items) }

    static func parts(_ items: [TextItem]) -> [String] {
        items.compactMap { item in
            guard case .heading(let h) = item, h.level == .part else { return nil }
            return h.lines.joined(separator: " / ")
        }
    }

    /// A contents list that groups the chapters under titles with no `PART` (`THE NORTH` over I–II,
    /// `THE SOUTH` between II and III): the titles are parts in the body too, not a line of the
    /// chapter before nor a chapter of their own.
    @Test func aContentsListsGroupTitlesAreParts() {
        let chapters = [(1, "ON THE ROAD"), (2, "A CITY EVENING"), (3, "THE GREAT RIVER"), (4, "ON THE PLAINS"), (5, "THE LAST TOWN")]
        let groups = [1: "THE NORTH", 3: "THE SOUTH", 5: "THE WEST"]
        let list = chapters.map { n, title in
            (groups[n].map { "\($0)\n\n" } ?? "") + "\(RomanNumeral.string(for: n)!)  \(title)  \(n * 10)"
        }.joined(separator: "\n")
        let body = chapters.map { n, title in
            (groups[n].map { "\($0)\n\n\n\n" } ?? "") + "CHAPTER \(RomanNumeral.string(for: n)!)\n\n\(title)\n\n\(Self.prose)\n\n\n\n"
        }.joined()
        let items = analysed("CONTENTS\n\n\(list)\n\n\n\n\(body)")
        #expect(Self.parts(items) == ["THE NORTH", "THE SOUTH", "THE WEST"])
        #expect(Self.chapters(items).count == 5)
    }

    @Test func aNumberedSeriesGoesOnFromOnePartToTheNext() {
        // Without the rule the series stopped at `PART TWO`: its 3 and 4 were read as text and the part became a chapter.
        let text = """
            PART ONE--The Old Buccaneer

            1

            The Old Sea-dog

            \(Self.prose)

            2

            Black Dog Appears

            \(Self.prose)

            PART TWO--The Sea-cook

            3

            I Go to Bristol

            \(Self.prose)

            4

            At the Sign of the Spy-glass

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.parts(items) == ["PART ONE--The Old Buccaneer", "PART TWO--The Sea-cook"])
        #expect(Self.chapters(items) == ["1 / The Old Sea-dog", "2 / Black Dog Appears", "3 / I Go to Bristol", "4 / At the Sign of the Spy-glass"])
    }

    @Test func aChapterTitleWrappedOntoASecondLineIsOneHeading() {
        let text = """
            CHAPTER I -- HOW MANY KINDS OF PRINCIPALITIES THERE ARE, AND BY WHAT
            MEANS THEY ARE ACQUIRED

            \(Self.prose)

            CHAPTER II -- CONCERNING HEREDITARY PRINCIPALITIES

            \(Self.prose)

            Capítulo III. Que trata de la primera salida que de su tierra hizo el
            ingenioso don Quijote

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == [
            "CHAPTER I -- HOW MANY KINDS OF PRINCIPALITIES THERE ARE, AND BY WHAT MEANS THEY ARE ACQUIRED",
            "CHAPTER II -- CONCERNING HEREDITARY PRINCIPALITIES",
            "Capítulo III. Que trata de la primera salida que de su tierra hizo el ingenioso don Quijote",
        ])
    }

    @Test func aContentsEntryOnTwoLinesDoesNotEndTheList() {
        // Entries apart by blank lines, some on two lines: the list ran to the first such entry, and the rest became chapters.
        let text = """
            CONTENTS

            CHAPTER I. Y-o-u-u Tom--Aunt Polly Decides Upon her Duty

            CHAPTER II. A Useful Minister--In Church--The Climax

            CHAPTER III. Self-Examination--Dentistry--The Midnight Charm--Witches and
            Devils--Cautious Approaches--Happy Hours




            CHAPTER I

            \(Self.prose)

            CHAPTER II

            \(Self.prose)

            CHAPTER III

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items).map { $0.components(separatedBy: " | ")[0] } == ["CHAPTER I", "CHAPTER II", "CHAPTER III"])
    }

    @Test func aNumberedDayWithItsTitleUnderItIsOneHeading() {
        let text = """
            1. First Day.

            Christ's Childhood.

               "Thy holy child Jesus."--Acts iv. 30.

            \(Self.prose)

            2. Second Day.

            Our Great Example.

               "Even Christ pleased not Himself."--Rom. xv. 3.

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["1. First Day. / Christ's Childhood.", "2. Second Day. / Our Great Example."])
    }

    @Test func aNumberedTitleInCapitalsMayStandInQuotes() {
        let text = """
            I. THE RIVER BANK

            \(Self.prose)

            II. ‘LIKE SUMMER TEMPESTS CAME HIS TEARS’

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["I. THE RIVER BANK", "II. ‘LIKE SUMMER TEMPESTS CAME HIS TEARS’"])
    }

    @Test func aDictionarysLettersAreItsChapters() {
        let text = """
            A

            ABASEMENT, n. A decent and customary mental attitude in the presence of
            wealth or power.

            B

            BAAL, n. An old deity formerly much worshiped under various names.
            \(Self.prose)

            C

            CABBAGE, n. A familiar kitchen-garden vegetable about as large and wise
            as a man's head.

            D

            DAMN, v. A word formerly much used by the Paphlagonians.
            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["A", "B", "C", "D"])
    }

    @Test func lettersOutOfOrderAreNoSeries() {
        // A dialogue between A. and B.: two letters that come back are lines of the text.
        let text = """
            A.

            \(Self.prose)

            B.

            \(Self.prose)

            A.

            \(Self.prose)

            B.

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)).isEmpty)
    }

    @Test func aListedTitleMayPassOverAnEntryTheBodyLacksAndASongUnderATitleIsItsOwnEntry() {
        let text = """
            Contents

                 Mowgli’s Brothers
                 Hunting-Song of the Seeonee Pack
                 “Tiger! Tiger!”
                  Mowgli’s Song
                 Lukannon
                 The White Seal



            Mowgli’s Brothers

            \(Self.prose)

            Hunting-Song of the Seeonee Pack

            \(Self.prose)

            “Tiger! Tiger!”

            \(Self.prose)

            Mowgli’s Song

            \(Self.prose)

            The White Seal

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["Mowgli’s Brothers", "Hunting-Song of the Seeonee Pack", "“Tiger! Tiger!”",
                                                  "Mowgli’s Song", "The White Seal"])
    }

    @Test func aListOfContentsAndIllustrationsIsTheContents() {
        let text = """
            CONTENTS AND ILLUSTRATIONS

              The Mermaid of Zennor                           _Page_  4
              The Stone Men of St. Cleer                              8
              How St. Piran Came to Cornwall                         12



            THE MERMAID OF ZENNOR

            \(Self.prose)

            THE STONE MEN OF ST. CLEER

            \(Self.prose)

            HOW ST. PIRAN CAME TO CORNWALL

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["THE MERMAID OF ZENNOR", "THE STONE MEN OF ST. CLEER", "HOW ST. PIRAN CAME TO CORNWALL"])
    }

    @Test func aListedNumeralLeavesTheSeriesBeforeTheListsChaptersAlone() {
        // The list names only the second book's chapters: the first book's bare numerals stay chapters.
        let text = """
            CONTENTS

            Book II

            IV. The Return
            V. The Storm
            VI. The End



            Book I

            I.

            \(Self.prose)

            II.

            \(Self.prose)

            III.

            \(Self.prose)

            Book II

            IV.

            \(Self.prose)

            V.

            \(Self.prose)

            VI.

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items).map { $0.components(separatedBy: " | ")[0] } == ["I.", "II.", "III.", "IV.", "V.", "VI."])
        #expect(Self.parts(items) == ["Book I", "Book II"])
    }

    // MARK: - HTML

    private func read(_ body: String) throws -> Book { try HTMLPage.body(body, title: "T") }

    @Test func aMarkedHeadingWithALongArgumentIsAChapter() throws {
        // Thirty words after the number: running text on a plain line, a chapter's argument in a heading.
        let argument = "Del buen suceso que el valeroso don Quijote tuvo en la espantable y jamás imaginada aventura de los molinos"
            + " de viento, con otros sucesos dignos de felice recordación y de mucha memoria"
        let chapters = ["Capítulo VII. De la segunda salida", "Capítulo VIII. \(argument)", "Capítulo IX. Donde se concluye"]
        let book = try read(chapters.map { "<h3>\($0)</h3><p>\(Self.prose)</p>" }.joined())
        #expect(book.chapters.map(\.title) == chapters)
    }

    @Test func aContentsTableWithEntriesSideBySideListsEachChapter() throws {
        // Read as one entry a row, the list named I, IV … and every other numeral was taken for a verse.
        let rows = stride(from: 1, through: 6, by: 3).map { first in
            "<tr>" + (first..<(first + 3)).map { "<td><a href=\"#c\($0)\">CHAPTER \(RomanNumeral.string(for: $0)!)</a></td>" }.joined() + "</tr>"
        }.joined()
        let chapters = (1...6).map { "<h3 id=\"c\($0)\">\(RomanNumeral.string(for: $0)!).</h3><p>\(Self.prose)</p>" }.joined()
        let book = try read("<h2>CONTENTS</h2><table>\(rows)</table>\(chapters)")
        #expect(book.chapters.map(\.title) == ["I.", "II.", "III.", "IV.", "V.", "VI."])
    }

    @Test func aContentsCellWithAParagraphAnEntryListsEachChapter() throws {
        let entries = (1...4).map { "<p class=\"toc\"><a href=\"#c\($0)\">\(RomanNumeral.string(for: $0)!). TITLE \($0)</a></p>" }.joined()
        let chapters = (1...4).map { "<h2 id=\"c\($0)\">\(RomanNumeral.string(for: $0)!). TITLE \($0)</h2><p>\(Self.prose)</p>" }.joined()
        let book = try read("<h2>Contents</h2><table><tr><td>\(entries)</td></tr></table>\(chapters)")
        #expect(book.chapters.map(\.title) == ["I. TITLE 1", "II. TITLE 2", "III. TITLE 3", "IV. TITLE 4"])
    }

    /// A ballad quoted in a chapter, in Project Gutenberg's poem markup: its `Part the First.` and
    /// its stanzas' numbers (`IV.` after the book's `CHAPTER III.`) are lines of the poem, no part
    /// and no chapter.
    @Test func aStanzaNumberInAPoemHeadsNoChapter() throws {
        let chapters = (1...3).map { "<h2>CHAPTER \(RomanNumeral.string(for: $0)!).</h2><p>\(Self.prose)</p>" }.joined()
        let stanzas = (4...5).map {
            "<div class=\"stanza\"><div class=\"stanza-number\">\(RomanNumeral.string(for: $0)!).</div>"
                + "<div class=\"verse\">Draw near and listen, great and small,</div><div class=\"verse\">Of high and low degree.</div></div>"
        }.joined()
        let poem = "<div class=\"poetry-container\"><div class=\"poetry\"><div class=\"stanza-number\"><i>Part the First.</i></div>\(stanzas)</div></div>"
        let book = try read(chapters + poem + "<p>\(Self.prose)</p>")
        #expect(book.chapters.map(\.title) == ["CHAPTER I.", "CHAPTER II.", "CHAPTER III."])
    }

    /// The book's title again after a wide gap, over the text of a first chapter the book does not
    /// number (its next heading is `CHAP. II.`), is that chapter's heading; the title over a
    /// numbered heading (`THE ANGLER` / `CHAP. I.`) is no chapter of its own.
    @Test func theBooksTitleOverAnUnnumberedFirstChapterIsItsHeading() {
        let text = """
            THE COMPLETE ANGLER;

            OR, THE CONTEMPLATIVE MAN'S RECREATION.



            PREFACE.

            \(Self.prose)



            The Complete ANGLER.

            OR, The contemplative Mans RECREATION.

            \(Self.prose)

            CHAP. II.

            \(Self.prose)

            CHAP. III.

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["PREFACE.", "The Complete ANGLER.", "CHAP. II.", "CHAP. III."])
        let numbered = text.replacingOccurrences(of: "The Complete ANGLER.\n\nOR, The contemplative Mans RECREATION.\n\n",
                                                 with: "The Complete ANGLER.\n\n\n\nCHAP. I.\n\n")
        #expect(Self.chapters(analysed(numbered)) == ["PREFACE.", "CHAP. I.", "CHAP. II.", "CHAP. III."])
    }

    /// Where short lines in capitals are the book's headings: one wrapped onto a second line is one
    /// heading, and one that ends the sentence the paragraph above breaks off (`…is the` / `AUTHOR`)
    /// signs it, as `SUBJECTS` under `On the following interesting` goes on with the title page.
    @Test func aWrappedTitleInCapitalsIsOneHeadingASigningLineIsNone() {
        let text = """
            COMMON SENSE;

            On the following interesting

            SUBJECTS

            A new edition, with several additions in the body of the work.



            INTRODUCTION.

            \(Self.prose)

            The laying a Country desolate with Fire and Sword is the Concern of
            every Man; of which Class, regardless of Party Censure, is the

            AUTHOR

            \(Self.prose)



            OF THE ORIGIN AND DESIGN OF GOVERNMENT IN GENERAL,
            WITH CONCISE REMARKS ON THE ENGLISH CONSTITUTION.

            \(Self.prose)



            OF MONARCHY AND HEREDITARY SUCCESSION.

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == [
            "INTRODUCTION.", "OF THE ORIGIN AND DESIGN OF GOVERNMENT IN GENERAL, / WITH CONCISE REMARKS ON THE ENGLISH CONSTITUTION.",
            "OF MONARCHY AND HEREDITARY SUCCESSION.",
        ])
    }

    @Test func aLineInCapitalsAParagraphBringsOnWithAColonIsNoHeading() {
        let text = """
            THE MILLER'S TALE

            \(Self.prose)



            MR. FOX

            \(Self.prose)

            And when she came up to the gateway she saw written on it:

            BE BOLD, BE BOLD.

            \(Self.prose)



            THE ROSE-TREE

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["THE MILLER'S TALE", "MR. FOX", "THE ROSE-TREE"])
    }
}
