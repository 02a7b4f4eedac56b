import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A contents list is evidence for the chapters (issue 24, item 7): whatever form the headings
/// take in the body, the chapters found are the list's entries, and numbered lines it does not
/// name are read as text.
struct ListedChaptersTests {
    static let prose = "It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked."

    /// The chapter headings as "lines | listed title".
    static func chapters(_ items: [TextItem]) -> [String] {
        items.compactMap { item in
            guard case .heading(let h) = item, h.level == .chapter else { return nil }
            return h.lines.joined(separator: " / ") + (h.listedTitle.map { " | " + $0 } ?? "")
        }
    }

    @Test(arguments: [
        ("CHAPTER I. Down the Rabbit-Hole    1", ContentsEntry(number: 1, style: .roman, title: "Down the Rabbit-Hole")),
        ("II.—The Old Mint ....... 13", ContentsEntry(number: 2, style: .roman, title: "The Old Mint")),
        ("3. The Storm  Page 40", ContentsEntry(number: 3, style: .arabic, title: "The Storm")),
        ("BOOK THE SECOND", ContentsEntry(number: 2, style: .word, title: nil, isPart: true)),
        ("I Meet a Stranger   7", ContentsEntry(title: "I Meet a Stranger")),
        ("IVANHOE", ContentsEntry(title: "IVANHOE")),
        ("XIV.", ContentsEntry(number: 14, style: .roman, title: nil)),
        ("LETTER FROM WENDELL PHILLIPS, ESQ.", ContentsEntry(title: "LETTER FROM WENDELL PHILLIPS, ESQ.")),
    ])
    func anEntryIsReadAsNumberAndTitle(line: String, expected: ContentsEntry) {
        #expect(ContentsEntry.parse(line) == expected)
    }

    @Test func entriesGoOnOverLinesAndTakeTheirTitlesAndPagesApart() {
        let lines = """
            CONTENTS.

            EPOCH THE FIRST, 1703.
            JONATHAN WILD.

             CHAP.                                          PAGE
                IX. THE SYSTEMS OF HUCBALD AND GUIDO
                      D'AREZZO--THE BEGINNING                122
               XIV. How Jack Sheppard was again       367
                      captured
                XV. The Storm                         377
            CHAPTER XVI.

            The Last Word

            XVII.

            Old London Bridge

            400
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entries = ListedChapters.entries(lines).map { ($0.isPart ? "part " : "") + "\($0.number ?? 0) \($0.title ?? "")" }
        #expect(entries == ["part 1 1703. JONATHAN WILD.", "9 THE SYSTEMS OF HUCBALD AND GUIDO D'AREZZO--THE BEGINNING",
                            "14 How Jack Sheppard was again captured", "15 The Storm", "16 The Last Word", "17 Old London Bridge"])
    }

    /// A story listed by its chapters' numbers alone (`CHAPTER I` … `CHAPTER III`) is followed by the
    /// next story's title: that title is an entry, not the last chapter's.
    @Test func aTitleAfterARunOfBareNumbersIsAnEntryOfItsOwn() {
        let lines = """
            CONTENTS

            The Bronze Ring
            A Voyage to Lilliput
            CHAPTER I
            CHAPTER II
            CHAPTER III

            The Glass Hill
            CHAPTER IV.
            The Red Etin
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entries = ListedChapters.entries(lines).map { "\($0.number ?? 0) \($0.title ?? "")" }
        #expect(entries == ["0 The Bronze Ring", "0 A Voyage to Lilliput", "1 ", "2 ", "3 ", "0 The Glass Hill", "4 The Red Etin"])
    }

    /// A ballad quoted in chapter II numbers its stanzas `I.` to `III.`: its `III.` is no chapter
    /// when CHAPTER III comes further on with its number and a title.
    @Test func aBareNumberNamesNoEntryAHeadingFurtherOnNamesWithATitle() {
        let text = """
            CONTENTS

            I. The Beginning ........ 1
            II. The Ballad .......... 9
            III. The Return ......... 20



            CHAPTER I.

            The Beginning

            \(Self.prose)

            CHAPTER II.

            The Ballad

            \(Self.prose)

                I.

                Draw near and listen, great and small,
                  Of high and low degree,
                And hear what chance did once befall
                  This island fair and free.

                II.

                Evan of Wales, a valiant knight,
                  Who served the King of France,
                In Saragossa's city bright
                  Hired many a stalwart lance.

                III.

                At early dawn from quiet sleep
                  John Letoc rose that day,
                To tend his little flock of sheep
                  Upon the hillside gray.

            \(Self.prose)

            CHAPTER III.

            The Return

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["CHAPTER I. / The Beginning", "CHAPTER II. / The Ballad", "CHAPTER III. / The Return"])
    }

    /// A list that gives its chapters as numbers alone gives the last of them no title: the title
    /// after it (`APPENDIX`) is an entry of its own, not the title `CHAPTER XI APPENDIX`.
    @Test func aTitleAfterBareNumbersIsAnEntryOfItsOwn() {
        let lines = """
            CONTENTS

            PREFACE

            CHAPTER I

            CHAPTER II

            CHAPTER III

            APPENDIX
            """.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let entries = ListedChapters.entries(lines).map { "\($0.number ?? 0) \($0.title ?? "")" }
        #expect(entries == ["0 PREFACE", "1 ", "2 ", "3 ", "0 APPENDIX"])
        // A list that titles its numbers on the next line still does.
        let titled = ["CHAPTER I.", "", "Down the Rabbit-Hole", "", "CHAPTER II.", "", "The Pool of Tears"]
        #expect(ListedChapters.entries(titled).map { "\($0.number ?? 0) \($0.title ?? "")" } == ["1 Down the Rabbit-Hole", "2 The Pool of Tears"])
    }

    @Test func aBareNumeralIsTitledFromTheList() {
        let text = """
            CONTENTS

            I. The Beginning ........ 1
            II. The Middle .......... 9
            III. The End ............ 20



            I.

            \(Self.prose)

            II.

            \(Self.prose)

            III.

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items) == ["I. | The Beginning", "II. | The Middle", "III. | The End"])
        let titles = items.compactMap { if case .heading(let h) = $0 { h.title } else { nil } }
        #expect(titles == ["I. The Beginning", "II. The Middle", "III. The End"])
    }

    @Test func numberedVersesInsideAChapterAreNotChapters() {
        // Without the list, the song's 1–3 break the chapters' count and III is lost.
        let text = """
            CONTENTS

            I. The Beginning
            II. The Song
            III. The End
            IV. After



            I.

            \(Self.prose)

            II.

            \(Self.prose) And they sang:

            1.

            Over the hills and far away,
            The wind is blowing cold today.

            2.

            Under the sea and past the shore,
            We shall not see the land no more.

            3.

            Into the night and out again,
            We sing our song of wind and rain.

            III.

            \(Self.prose)

            IV.

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items) == ["I. | The Beginning", "II. | The Song", "III. | The End", "IV. | After"])
        #expect(summary(items).contains("P: 2."))
    }

    /// A list under a title that names no contents (`Herein Is Written`), its entries numbered from 1,
    /// is a contents list all the same: skipped as one, and its unnumbered entry is a chapter of the body.
    @Test func aNumberedListUnderAnyTitleIsAContentsList() {
        let text = """
            THE BOOK OF DAYS

            Herein Is Written

                    The First Word
                I.  Of the Sea
               II.  Of the Land
              III.  Of the Sky

            The First Word

            \(Self.prose)

            I

            Of the Sea

            \(Self.prose)

            II

            Of the Land

            \(Self.prose)

            III

            Of the Sky

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items).map { $0.components(separatedBy: [" ", "/", "|"]).first! } == ["The", "I", "II", "III"])
        #expect(summary(items).contains { $0.hasPrefix("S contents list") && $0.contains("Of the Sky") })
    }

    @Test func titlesAloneInTheBodyAreTheListedChapters() {
        let text = """
            CONTENTS

            The Beginning .......... 1
            A Long Way Home ........ 9
            The End of It All ...... 20



            The Beginning

            \(Self.prose)

            A Long Way Home

            \(Self.prose)

            The End of It All

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["The Beginning", "A Long Way Home", "The End of It All"])
    }

    @Test func aNumeralAndTitleOnOneLineOrInACaptionAreTheListedChapters() {
        let text = """
            CONTENTS

            1. The Beginning ........ 1
            2. The Middle .......... 9
            3. The End ............ 20



            1. The Beginning.

            \(Self.prose)

            [Illustration: 2]

            \(Self.prose)

            3. The End.

            \(Self.prose)
            """
        let items = analysed(text)
        #expect(Self.chapters(items) == ["1. The Beginning.", "2 | The Middle", "3. The End."])
        #expect(summary(items).contains("S illustration: [Illustration:]"))
    }

    @Test func aListThatNamesTooFewOfTheHeadingsFoundIsNotTrusted() {
        // The list names chapters this text does not have: its bare numbers stay as they were found.
        let text = """
            CONTENTS

            I. The Beginning
            II. The Middle
            III. The End
            IV. After
            V. Later
            VI. Last



            1.

            \(Self.prose)

            2.

            \(Self.prose)
            """
        #expect(Self.chapters(analysed(text)) == ["1.", "2."])
    }

    @Test func anHTMLContentsTableTitlesTheChaptersOfItsPage() throws {
        let html = """
            <html><body>
            <h2>CONTENTS</h2>
            <table>
            <tr><td><a href="#c1">I.</a></td><td>The Beginning</td><td>1</td></tr>
            <tr><td><a href="#c2">II.</a></td><td>The Middle</td><td>9</td></tr>
            <tr><td><a href="#c3">III.</a></td><td>The End</td><td>20</td></tr>
            </table>
            <h2 id="c1">I.</h2><p>\(Self.prose)</p>
            <h2 id="c2">II.</h2><p>\(Self.prose)</p>
            <h2 id="c3">III.</h2><p>\(Self.prose)</p>
            </body></html>
            """
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("book.htm", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html, rules: ReadingRules()))
        #expect(book.chapters.map(\.title) == ["I. The Beginning", "II. The Middle", "III. The End"])
        #expect(book.chapters.map { $0.blocks.first?.text } == ["I.", "II.", "III."])
    }

    /// A book in two books whose chapters are numbered again in each, one misprinted (`VI.` for
    /// `IV.`, as the contents list repeats it): a number names an entry only when the list gives it
    /// to that entry alone, so the second book's chapters are still found by their titles and none
    /// of them is read as prose.
    @Test func aNumberTheListGivesTwiceNamesNoEntry() throws {
        let first = ["THE EVE OF THE WAR.", "THE FALLING STAR.", "ON HORSELL COMMON.", "THE CYLINDER OPENS.", "THE HEAT-RAY.", "THE HEAT-RAY IN THE ROAD."]
        let second = [("I", "UNDER FOOT."), ("II", "WHAT WE SAW FROM THE HOUSE."), ("III", "THE DAYS OF IMPRISONMENT."),
                      ("VI", "THE DEATH OF THE CURATE."), ("V", "THE STILLNESS."), ("VI", "THE WORK OF FIFTEEN DAYS.")]
        let numerals = ["I", "II", "III", "IV", "V", "VI"]
        let chapters = first.enumerated().map { (numerals[$0.offset], $0.element) }
        var lines = ["CONTENTS", "", "BOOK ONE.—THE COMING OF THE MARTIANS", ""] + chapters.map { " \($0.0). \($0.1)" }
        lines += ["", "BOOK TWO.—THE EARTH UNDER THE MARTIANS", ""] + second.map { " \($0.0). \($0.1)" }
        lines += ["", "", "", "BOOK ONE", "THE COMING OF THE MARTIANS", "", ""]
        for (n, title) in chapters { lines += ["", "\(n).", "", title, "", Self.prose, "", Self.prose, "", ""] }
        lines += ["", "BOOK TWO", "THE EARTH UNDER THE MARTIANS", "", ""]
        for (n, title) in second { lines += ["", "\(n).", "", title, "", Self.prose, "", Self.prose, "", ""] }
        let book = try PlainTextReader().read(text: lines.joined(separator: "\n") + "\n", source: textSource())
        #expect(book.chapters.count == 12, "\(book.chapters.map(\.title))")
        #expect(book.chapters.suffix(3).map(\.title) == ["VI. THE DEATH OF THE CURATE.", "V. THE STILLNESS.", "VI. THE WORK OF FIFTEEN DAYS."])
    }

    /// HTML's inline tags left in a plain text (`<b>A PARODY</b>`) are emphasis: the listed title is found under them, and not spoken.
    @Test func aListedTitleInInlineTagsIsItsChapter() {
        let text = """
            CONTENTS

             CHAPTER I

             CHAPTER II

             A PARODY



            CHAPTER I

            \(Self.prose)

            CHAPTER II

            \(Self.prose)

                           <b>A PARODY</b>

                 "Come, saints and sinners, hear me tell
                 How pious priests whip Jack and Nell,
            """
        let items = analysed(text)
        #expect(Self.chapters(items) == ["CHAPTER I", "CHAPTER II", "A PARODY"])
        #expect(!summary(items).contains { $0.contains("<b>") })
    }
}
