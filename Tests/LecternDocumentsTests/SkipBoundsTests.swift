import Testing
import LecternCore
@testable import LecternDocuments

/// No skip swallows the book: an errata list ends where its corrections end, and a candidate of
/// any kind over its bound (``SkipBounds``) is read, with a warning naming it.
@Suite struct SkipBoundsTests {
    static let roman = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV"]

    /// A chapter whose heading is followed by its title and a ballad's stanza before any prose: no
    /// "chapter start" to a rule that looks for running text right after a heading.
    static func chapter(_ n: Int) -> String {
        """
        CHAPTER \(roman[n - 1]).

        THE BALLAD OF THE \(roman[n - 1]) KING.

          The king sat in his hall of stone,
          And drank the blood-red wine.

        The old woman of the mill told the tale to all who came, and the children of the
        village listened to her by the fire on the long winter evenings, year after year.

        And when the tale was done the miller would rise and bank the fire and send the
        children home through the snow, each with a lantern and a piece of barley bread.

        """
    }

    static let errataBook = """
        FOLK-LORE OF THE MILL

        By A. Collector


        ERRATA.

        Page 12, line 4, for "mil" read "mill".
        Page 45, line 3, for "kinge" read "king".


        \((1...14).map(chapter).joined(separator: "\n"))
        """

    @Test func anErrataNoteNearTheFrontEndsWithItsCorrections() throws {
        let items = analysed(Self.errataBook)
        let errata = items.compactMap(\.skipped).filter { $0.reason == SkipReason.errata }
        #expect(errata.map(\.text) == [#"ERRATA. Page 12, line 4, for "mil" read "mill". Page 45, line 3, for "kinge" read "king"."#])
        #expect(items.compactMap(\.heading).filter { $0.level == .chapter }.count == 14)
        let book = try PlainTextReader().read(text: Self.errataBook, source: textSource())
        #expect(book.chapters.count == 14)
        #expect(book.chapters.allSatisfy { $0.blocks.contains { $0.text.hasPrefix("The old woman of the mill") } })
        #expect(book.warnings.isEmpty)
    }

    static func lines(_ n: Int, _ line: String) -> String { Array(repeating: line, count: n).joined(separator: "\n") }

    static let tail = "\n\n\nCHAPTER I.\n\n" + PlainTextHeadingTests.body + "\n" + PlainTextHeadingTests.body

    /// For each kind, a candidate too long to be one.
    static let oversized: [(reason: SkipReason, text: String)] = [
        (SkipReason.errata, "ERRATA\n\n" + lines(300, #"Page 12, line 4, for "teh" read "the"."#) + tail),
        (SkipReason.contentsList, "CONTENTS\n\n" + lines(1000, "The miller and his seven sons go down") + tail),
        (SkipReason.illustrationsList, "LIST OF ILLUSTRATIONS\n\n" + lines(500, "The miller and his seven sons at supper") + tail),
        (SkipReason.transcribersNote, "Transcriber's Note:\n\n"
            + Array(repeating: lines(2, "The miller went down to the river to see the water wheel turning round and round"),
                    count: 150).joined(separator: "\n\n") + tail),
        (SkipReason.index, tail + "\n\nINDEX\n\n" + lines(10_500, "Mill wheels and weirs, 12.")),
        (SkipReason.glossary, tail + "\n\nGLOSSARY\n\n" + lines(2_500, "Burn, a brook or stream.")),
        (SkipReason.transcribersNotation, lines(300, "[W: one two three four five six]") + tail),
        (SkipReason.gutenbergHeader, "The Project Gutenberg eBook of the Mill\n\n"
            + lines(600, "The miller went down to the river to see the wheel.") + "\n\n*** START OF THE PROJECT GUTENBERG EBOOK THE MILL ***\n" + tail),
        (SkipReason.gutenbergLicence, tail + "\n\n*** END OF THE PROJECT GUTENBERG EBOOK THE MILL ***\n\n"
            + lines(800, "The miller went down to the river to see the wheel.")),
    ]

    @Test(arguments: oversized.indices)
    func aCandidateOverItsBoundIsReadAndWarned(_ k: Int) throws {
        let (reason, text) = Self.oversized[k]
        let items = analysed(text)
        let warned = items.compactMap { if case .oversizedSkip(let o) = $0 { o } else { nil } }
        #expect(warned.map(\.reason) == [reason])
        #expect(warned.allSatisfy { $0.words > $0.bound && $0.bound == SkipBounds.bounds[reason]?.words })
        let skipped = items.compactMap(\.skipped).filter { $0.reason == reason }.reduce(0) { $0 + TextLines.wordCount($1.text) }
        #expect(skipped <= SkipBounds.bounds[reason]!.words)
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.warnings.contains { $0.contains("looks like \(reason)") && $0.contains("it is read, not skipped") })
    }

    @Test func aTitlePageOverItsBoundIsRead() throws {
        // 1,800 words before the first heading, in a book ten times as long: not read as the start of
        // the book by the front-matter rule, but too long for a title page.
        let front = Self.lines(300, "THE MILLER AND HIS SEVEN SONS") + "\n\n"
        let prose = Array(repeating: PlainTextHeadingTests.body, count: 700).joined(separator: "\n")
        let text = front + "\n\nCHAPTER I.\n\n" + prose + "\n\nCHAPTER II.\n\n" + prose
        let items = analysed(text)
        #expect(items.contains { if case .oversizedSkip(let o) = $0 { o.reason == SkipReason.titlePage } else { false } })
        #expect(!items.contains { $0.skipped?.reason == SkipReason.titlePage })
    }

    @Test func theWarningNamesThePassageItsKindSizeAndPlace() throws {
        let text = "CHAPTER I.\n\n" + PlainTextHeadingTests.body + "\nERRATA\n\n" + Self.lines(300, #"Page 12, line 4, for "teh" read "the"."#)
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.warnings == [
            #"book.txt: "ERRATA Page 12, line 4, for "teh" read …" (chapter 1, line 6) looks like errata but is 2401 words, "#
                + "more than 1500 such a passage holds: it is read, not skipped",
        ])
    }

    @Test func aTitlePageRunBrokenByPlatesIsBoundedAsOne() throws {
        // Four blocks of 450 words before the first heading, each before a plate: 1,800 words of
        // title-page candidates in one run, over the bound, though no block alone is.
        let block = Self.lines(90, "THE MILLER AND HIS SONS")
        let front = String(repeating: "\(block)\n\n[Illustration]\n\n", count: 4)
        let prose = Array(repeating: PlainTextHeadingTests.body, count: 700).joined(separator: "\n")
        let text = front + "\n\nCHAPTER I.\n\n" + prose + "\n\nCHAPTER II.\n\n" + prose
        let items = analysed(text)
        #expect(items.contains { if case .oversizedSkip(let o) = $0 { o.reason == SkipReason.titlePage } else { false } })
        #expect(!items.contains { $0.skipped?.reason == SkipReason.titlePage }, "\(summary(items).prefix(12))")
    }
}
