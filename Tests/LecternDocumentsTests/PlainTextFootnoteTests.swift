import Testing
@testable import LecternDocuments

/// Footnote markers in running text and footnote bodies in their three forms.
@Suite struct PlainTextFootnoteTests {
    @Test func markersAreSilentAndReferenced() {
        let items = analysed("CHAPTER I.\n\nIts rhythm.[01] What would\nhappen{2} here^3 and there[*]?")
        let p = try! #require(items.last?.paragraph)
        #expect(p.noteReferences == ["01", "2", "3", "*"])
        #expect(silentTexts(p) == ["footnote marker: [01]", "footnote marker: {2}", "footnote marker: ^3", "footnote marker: [*]"])
        #expect(spoken(p) == "Its rhythm. What would happen here and there?")
    }

    @Test func labelledBodiesWithIndentedContinuationLines() {
        let text = """
            CHAPTER I.

            the sensuous.[01]


            [01] The strength of the "Fate" motive in Beethoven's fifth
                 symphony undoubtedly lies in the succession.

            [*] A starred note.
            """
        #expect(summary(analysed(text)).dropFirst(2) == [
            "S footnote label: [01]", "N 01: The strength of the \"Fate\" motive in Beethoven's fifth symphony undoubtedly lies in the succession.",
            "S footnote label: [*]", "N *: A starred note.",
        ])
    }

    @Test func bracketedFootnotesOverSeveralParagraphs() {
        let text = """
            CHAPTER I.

            And he struck up the following ballad.

            SAINT GILES'S BOWL.[A]

            [Footnote A: At the hospital of Saint Giles for Lazars,

            the prisoners were presented with a bowl.]

            After.
            """
        let items = analysed(text)
        #expect(summary(items).dropFirst(2) == [
            "P: SAINT GILES'S BOWL.[A]", "S footnote label: [Footnote A:",
            "N A: At the hospital of Saint Giles for Lazars, the prisoners were presented with a bowl.", "P: After.",
        ])
        // `[A]` is a marker because the book has a note A.
        #expect(items[2].paragraph?.noteReferences == ["A"])
    }

    @Test func aFootnotesSection() {
        let text = """
            CHAPTER I.

            It was elegant.{1}

            FOOTNOTES:


            {1}  "Elegant," I mean, as a Persian pattern is elegant.

            2. A numbered note in the section.
            """
        #expect(summary(analysed(text)).dropFirst(2) == [
            "S footnotes heading: FOOTNOTES:", "S footnote label: {1}", "N 1: \"Elegant,\" I mean, as a Persian pattern is elegant.",
            "S footnote label: 2.", "N 2: A numbered note in the section.",
        ])
    }

    @Test func aLetterInBracketsIsNoMarkerWithoutItsNote() {
        let p = try! #require(analysed("In [C] time.").last?.paragraph)
        #expect(p.noteReferences.isEmpty && p.silent.isEmpty)
    }
}
