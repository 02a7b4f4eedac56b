import Testing
import LecternText

/// Ranges as (start, end) pairs, for readable expectations.
private func spans(_ text: String) -> [[Int]] {
    WordTokenizer.tokens(in: text).map { [$0.start, $0.end] }
}

@Suite struct WordTokenizerTests {
    @Test func spacesSeparateWordsAndAttachedPunctuationStaysWithTheWord() {
        // "Hello," is one word (0..<6); "world!" is 7..<13.
        #expect(spans("Hello, world!") == [[0, 6], [7, 13]])
    }

    @Test func hyphenInsideAWordDoesNotSplitIt() {
        #expect(spans("down the rabbit-hole") == [[0, 4], [5, 8], [9, 20]])
        #expect(WordTokenizer.count(in: "well-known self-evident truth") == 3)
    }

    @Test func emAndEnDashesSplitWords() {
        // "well—said": em dash at 4.
        #expect(spans("well\u{2014}said") == [[0, 4], [5, 9]])
        // "pages 10–12": en dash at 8.
        #expect(spans("pages 10\u{2013}12") == [[0, 5], [6, 8], [9, 11]])
        // Horizontal bar and the two- and three-em dashes separate as well.
        #expect(WordTokenizer.count(in: "a\u{2015}b\u{2E3A}c\u{2E3B}d") == 4)
    }

    @Test func aDoubledHyphenIsADashAndSplitsWords() {
        // Gutenberg's plain text writes an em dash as "--": "too--if" is two words, as "too—if" is.
        #expect(spans("too--if I") == [[0, 3], [5, 7], [8, 9]])
        #expect(WordTokenizer.count(in: "I--I mean--no") == WordTokenizer.count(in: "I\u{2014}I mean\u{2014}no"))
        #expect(WordTokenizer.count(in: "He said---nothing.") == 3)
        // A single hyphen still joins.
        #expect(WordTokenizer.count(in: "rabbit-hole--deep") == 2)
    }

    @Test func punctuationOnlyRunsAreNotWords() {
        #expect(spans("Wait \u{2014} ... ! \"") == [[0, 4]])
        #expect(WordTokenizer.count(in: "... --- !!! * \u{2014}") == 0)
        #expect(WordTokenizer.count(in: "") == 0)
        #expect(WordTokenizer.count(in: "   \n\t  ") == 0)
    }

    @Test func digitsCountAsWords() {
        #expect(spans("In 1865, 3.5 times") == [[0, 2], [3, 8], [9, 12], [13, 18]])
    }

    @Test func tabsNewlinesAndNoBreakSpacesSeparateWords() {
        #expect(spans("one\ttwo\nthree\u{00A0}four") == [[0, 3], [4, 7], [8, 13], [14, 18]])
    }

    @Test func offsetsAreUTF16UnitsAfterAnEmoji() {
        // The emoji is one scalar but two UTF-16 units, and has no letter: not a word.
        let text = "\u{1F600} cat"
        #expect(spans(text) == [[3, 6]])
        #expect(text.utf16.count == 6)
    }

    @Test func emojiAttachedToAWordIsPartOfTheWord() {
        #expect(spans("cat\u{1F408} dog") == [[0, 5], [6, 9]])
    }

    @Test func astralLettersCountTwoUnitsEach() {
        // U+1D49C MATHEMATICAL SCRIPT CAPITAL A is a letter outside the BMP.
        #expect(spans("\u{1D49C}bc de") == [[0, 4], [5, 7]])
    }

    @Test func cjkTextIsMadeOfWordsSeparatedBySpaces() {
        // Each ideograph/kana is one UTF-16 unit.
        #expect(spans("日本語 テスト") == [[0, 3], [4, 7]])
        // The ideographic space U+3000 is whitespace.
        #expect(spans("東京\u{3000}大阪") == [[0, 2], [3, 5]])
    }

    @Test func combiningAccentsAreCountedAsSeparateUnits() {
        // "cafe" + U+0301: four Characters, five UTF-16 units.
        let text = "cafe\u{301} ok"
        #expect(text.count == 7)
        #expect(spans(text) == [[0, 5], [6, 8]])
        // The precomposed form is one unit shorter.
        #expect(spans("caf\u{E9} ok") == [[0, 4], [5, 7]])
    }

    @Test func tokenRangesSliceTheOriginalWordsOutOfTheUTF16View() {
        let text = "Ça m'a plu — \u{1F600}vraiment, 東京!"
        let utf16 = Array(text.utf16)
        let words = WordTokenizer.tokens(in: text).map { String(decoding: utf16[$0.start..<$0.end], as: UTF16.self) }
        #expect(words == ["Ça", "m'a", "plu", "\u{1F600}vraiment,", "東京!"])
    }
}
