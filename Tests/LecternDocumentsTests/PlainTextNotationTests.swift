import Testing
@testable import LecternDocuments

/// A transcriber's bracket codes: whole lines of notation are skipped, codes inside text are silent.
@Suite struct PlainTextNotationTests {
    @Test func wholeLinesOfNotationAreSkipped() {
        let text = """
            CHAPTER I.

            For example, here's a D minor scale set to words:

            [G: d'   e'   (f' g') a'    b-'   (c+'' d'')]
            [W: One, two, three,  four, five, six.      ]

                [G: (a a+ b c' c+' d') (a' a+' b' c'')
                    f'' f+'' g'' g+'']

            [3/4: 4 4 8 8 | 8. 16 2] = [- - ' ' - ' -]

            [- ' ' - ' - ' ' - ' ' - ' ' - -]

            [Hexachords: (Hard Low) (Natural Low) (Soft Low)]

            [First nine notes labelled: Hypoion., Hypodor.,
            Hypophryg.]

            After.
            """
        #expect(summary(analysed(text)) == [
            "H chapter: CHAPTER I.", "P: For example, here's a D minor scale set to words:",
            "S transcriber's notation: [G: d' e' (f' g') a' b-' (c+'' d'')] [W: One, two, three, four, five, six. ]",
            "S transcriber's notation: [G: (a a+ b c' c+' d') (a' a+' b' c'') f'' f+'' g'' g+'']",
            "S transcriber's notation: [3/4: 4 4 8 8 | 8. 16 2] = [- - ' ' - ' -]",
            "S transcriber's notation: [- ' ' - ' - ' ' - ' ' - ' ' - -]",
            "S transcriber's notation: [Hexachords: (Hard Low) (Natural Low) (Soft Low)]",
            "S transcriber's notation: [First nine notes labelled: Hypoion., Hypodor., Hypophryg.]",
            "P: After.",
        ])
    }

    @Test func codesInsideTextAreSilent() {
        let p = try! #require(analysed("CHAPTER I.\n\nA [f++] then [c=] in [4/4] and [C|] or [F: a,] to [S = M M M].").last?.paragraph)
        #expect(silentTexts(p) == ["transcriber's code: [f++]", "transcriber's code: [c=]", "transcriber's code: [4/4]",
                                   "transcriber's code: [C|]", "transcriber's code: [F: a,]", "transcriber's code: [S = M M M]"])
        #expect(spoken(p) == "A  then  in  and  or  to .")
    }

    @Test(arguments: ["[sic]", "[Gamma]", "[filled minima]", "[Transcriber: words here]", "[A]"])
    func wordsInBracketsAreSpoken(text: String) {
        let p = try! #require(analysed("CHAPTER I.\n\nSee \(text) here.").last?.paragraph)
        #expect(p.silent.isEmpty)
    }

    @Test func superscriptBracesAreSilent() {
        let p = try! #require(analysed("CHAPTER I.\n\nM^{r.} & M^{rs.} Bennet, and a note^2.").last?.paragraph)
        #expect(spoken(p) == "Mr. & Mrs. Bennet, and a note.")
        #expect(p.noteReferences == ["2"])
    }

    @Test func formattingMarkupIsSilent() {
        let p = try! #require(analysed("CHAPTER I.\n\n     /* NIND “My dear friend, */").last?.paragraph)
        #expect(spoken(p) == " “My dear friend, ")
    }
}
