import Testing
@testable import LecternDocuments

/// `[Illustration]` and `[Illustration: …]` captions, over several lines, blank lines and nested brackets.
@Suite struct PlainTextIllustrationTests {
    static let body = PlainTextHeadingTests.body

    @Test func captionsAreSkippedWhateverTheirLength() {
        let text = """
            CHAPTER I.

            [Illustration]

            She ran.

            [Illustration:

            “He came down to see the place”

            [_Copyright 1894 by George Allen._]]

            This was invitation enough.
            """
        #expect(summary(analysed(text)) == [
            "H chapter: CHAPTER I.", "S illustration: [Illustration]", "P: She ran.",
            "S illustration: [Illustration: “He came down to see the place” [_Copyright 1894 by George Allen._]]",
            "P: This was invitation enough.",
        ])
    }

    @Test func withReadTheCaptionIsAParagraphWithoutBrackets() {
        let items = analysed("CHAPTER I.\n\n[Illustration: “I’m the tallest”]\n\nShe ran.\n\n[Illustration]", illustrations: .read)
        #expect(summary(items) == ["H chapter: CHAPTER I.", "P: Illustration: “I’m the tallest”", "P: She ran.", "S illustration: [Illustration]"])
    }

    @Test func aHeadingEndingACaptionIsTheChapterHeading() {
        let text = """
            PREFACE.

            \(Self.body)

            [Illustration: ·PRIDE AND PREJUDICE·




            Chapter I.]


            It is a truth universally acknowledged, that a single man in possession
            of a good fortune must be in want of a wife.
            """
        let s = summary(analysed(text))
        #expect(s.suffix(3) == ["S illustration: [Illustration: ·PRIDE AND PREJUDICE· ]", "H chapter: Chapter I.",
                                "P: It is a truth universally acknowledged, that a single man in possession of a good fortune must be in want of a wife."])
    }

    @Test func textAfterTheCaptionOnItsLastLineIsRead() {
        // The first mark opens a paragraph and is skipped; the second, inside the paragraph, is silent.
        let items = analysed("CHAPTER I.\n\n    [Illustration] _Maxima_.\n    [Illustration] _Longa_.\n\n[Figure 07]\n\nAfter.")
        #expect(summary(items) == ["H chapter: CHAPTER I.", "S illustration: [Illustration]", "P: Maxima. [Illustration] Longa.",
                                   "S illustration: [Figure 07]", "P: After."])
        #expect(spoken(items[2].paragraph!) == "Maxima.  Longa.")
    }

    @Test func aMarkStartingALineInsideAParagraphStaysInIt() {
        let items = analysed("CHAPTER I.\n\nThe German B natural is our letter h, the square b,\n[illustration], which by the addition of a line became our natural.")
        let p = try! #require(items.last?.paragraph)
        #expect(spoken(p) == "The German B natural is our letter h, the square b, , which by the addition of a line became our natural.")
    }

    @Test func anIllustrationInsideALineIsSilent() {
        let items = analysed("CHAPTER I.\n\nThe rest was [illustration]; for the brevis [Illustration].")
        let p = try! #require(items.last?.paragraph)
        #expect(p.text == "The rest was [illustration]; for the brevis [Illustration].")
        #expect(spoken(p) == "The rest was ; for the brevis .")
    }
}
