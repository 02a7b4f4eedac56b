import Testing
@testable import LecternDocuments

/// Contents lists and lists of illustrations, titled or not.
@Suite struct PlainTextContentsTests {
    static let body = PlainTextHeadingTests.body

    @Test func aTitledContentsListRunsToThreeBlankLines() {
        let text = """
            Contents

             CHAPTER I.     Down the Rabbit-Hole
             CHAPTER II.    The Pool of Tears




            CHAPTER I.
            Down the Rabbit-Hole

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.first == "S contents list: Contents CHAPTER I. Down the Rabbit-Hole CHAPTER II. The Pool of Tears")
        #expect(s[1] == "H chapter: CHAPTER I. | Down the Rabbit-Hole")
    }

    /// A Dutch or German book's contents list is titled in its language (`INHOUD.`, `INHALT`),
    /// its groups under section titles and a `Bladz.` (page) column: a contents list all the same,
    /// not a list whose last group alone is found by its page numbers.
    @Test func aContentsListTitledInAnotherLanguageIsOne() {
        for title in ["INHOUD.", "Inhalt", "TABLE DES MATIÈRES", "ÍNDICE"] {
            let text = """
                \(title)


                OP ZEE.

                                                      Bladz.
                AFSCHEID                               17.
                AAN DE NOORDZEE                        20.


                MINNEBRIEVEN.

                AAN NONNA FLORA                       163.
                SUZE                                  175.




                AFSCHEID.

                \(Self.body)
                """
            let s = summary(analysed(text))
            #expect(s.first?.hasPrefix("S contents list: \(title) OP ZEE. Bladz. AFSCHEID 17.") == true, "\(s)")
            #expect(s.first?.hasSuffix("SUZE 175.") == true, "\(s)")
        }
    }

    @Test func aContentsListEndsAtTheFirstChapterOfATextWithAParagraphPerLine() {
        let text = """
            CONTENTS

            CHAPTER I. The Start
            CHAPTER II. The End

            CHAPTER I.

            The Start

            It began on a Monday, as things do, and it went on for a long while after that, through the spring and the summer.

            CHAPTER II.

            The End

            It ended on a Friday, late in the evening, when nobody expected it any more and the lamps were lit.
            """
        let s = summary(analysed(text))
        #expect(s.first == "S contents list: CONTENTS CHAPTER I. The Start CHAPTER II. The End", "\(s)")
        #expect(s.filter { $0.hasPrefix("H chapter") }.count == 2, "\(s)")
    }

    @Test func groupsSeparatedByTwoBlankLinesStayInTheList() {
        let text = """
            CONTENTS.

            EPOCH THE FIRST, 1703.
            JONATHAN WILD.

            CHAPTER I. The Widow and her Child             1
                   II. The Old Mint                       13


            EPOCH THE SECOND, 1715.

            CHAPTER I. The Idle Apprentice                75




            EPOCH THE FIRST.

            CHAPTER I.

            \(Self.body)
            """
        let items = analysed(text)
        #expect(items.first?.skipped?.reason == .contentsList)
        #expect(items.first?.skipped?.text.hasSuffix("The Idle Apprentice 75") == true)
        #expect(items.compactMap(\.heading?.title) == ["EPOCH THE FIRST.", "CHAPTER I."])
    }

    @Test func aListOfIllustrationsWithPageNumbers() {
        let text = """
            [Illustration: List of Illustrations.]


                                                                                PAGE

            Frontispiece                                                          iv

            Heading to Chapter IV.                                                18

            The End                                                              476




            CHAPTER I.

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.prefix(2) == ["S illustration: [Illustration: List of Illustrations.]",
                                "S list of illustrations: PAGE Frontispiece iv Heading to Chapter IV. 18 The End 476"])
        #expect(s[2] == "H chapter: CHAPTER I.")
    }

    @Test func aListEndingWithFewBlankLinesStopsAtTheFirstChapter() {
        let text = """
            CONTENTS

            PREFACE

            CHAPTER I. Loomings

            CHAPTER II. The Carpet-Bag


            PREFACE

            \(Self.body)
            \(Self.body)
            CHAPTER I. Loomings

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.first == "S contents list: CONTENTS PREFACE CHAPTER I. Loomings CHAPTER II. The Carpet-Bag")
        #expect(s.filter { $0.hasPrefix("H") } == ["H chapter: PREFACE", "H chapter: CHAPTER I. Loomings"])
    }

    @Test func headingsInARowThatComeAgainLaterAreAContentsList() {
        let text = "CHAPTER I. Loomings\n\nCHAPTER II. The Carpet-Bag\n\nCHAPTER III. The Spouter-Inn\n\n\nCHAPTER I. Loomings\n\n\(Self.body)\nCHAPTER II. The Carpet-Bag\n\n\(Self.body)\nCHAPTER III. The Spouter-Inn\n\n\(Self.body)"
        let s = summary(analysed(text))
        #expect(s.prefix(4) == ["S contents list: CHAPTER I. Loomings", "S contents list: CHAPTER II. The Carpet-Bag",
                                "S contents list: CHAPTER III. The Spouter-Inn", "H chapter: CHAPTER I. Loomings"])
        #expect(s.filter { $0.hasPrefix("H") }.count == 3)
    }

    @Test func anUntitledRunOfHeadingsIsAContentsList() {
        let text = "CHAPTER I. Loomings\nCHAPTER II. The Carpet-Bag\nCHAPTER III. The Spouter-Inn\n\nCHAPTER I. Loomings\n\n\(Self.body)"
        let s = summary(analysed(text))
        #expect(s.first?.hasPrefix("S contents list: CHAPTER I. Loomings CHAPTER II.") == true)
        #expect(s[1] == "H chapter: CHAPTER I. Loomings")
    }

    @Test func anEpigraphAfterAnUntitledListLeavesItsLastEntryAnEntry() {
        let text = """
            Chapter I

            Chapter II

            Chapter III

            _"Et ignotas animum dimittit in artes."_
            Ovid, Metamorphoses, VIII., 18.

            Chapter I


            \(Self.body)

            Chapter II


            \(Self.body)

            Chapter III


            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.filter { $0.hasPrefix("H ") } == ["H chapter: Chapter I", "H chapter: Chapter II", "H chapter: Chapter III"])
        #expect(s.filter { $0.hasPrefix("S contents list") }.count == 3)
    }
}
