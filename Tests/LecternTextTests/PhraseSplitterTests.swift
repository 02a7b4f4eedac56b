import Testing
import LecternText

/// Over-long text is cut at the best boundary it has, within the limits, covering every word.
@Suite struct PhraseSplitterTests {
    /// The pieces of the whole of `text` as strings, with what ends each.
    func pieces(_ text: String, words: Int, length: Int, unbreakable: [Range<Int>] = []) -> [(String, PhraseSplitter.Boundary)] {
        let units = Array(text.utf16)
        return PhraseSplitter.pieces(units, in: 0..<units.count, maximumWords: words, maximumLength: length, unbreakable: unbreakable)
            .map { (String(decoding: units[$0.range], as: UTF16.self), $0.boundary) }
    }

    /// Checks the invariants every cut keeps: pieces in order, within the limits, and together
    /// holding every non-space character of the text, each once.
    func checkCover(_ text: String, words: Int, length: Int) throws {
        let units = Array(text.utf16)
        let found = PhraseSplitter.pieces(units, in: 0..<units.count, maximumWords: words, maximumLength: length)
        var position = 0
        var covered: [UInt16] = []
        for piece in found {
            #expect(piece.range.lowerBound >= position)
            #expect(piece.range.count <= length)
            let gap = String(decoding: units[position..<piece.range.lowerBound], as: UTF16.self)
            #expect(gap.allSatisfy { $0.isWhitespace }, "text between pieces: \(gap)")
            covered += units[piece.range]
            position = piece.range.upperBound
        }
        #expect(String(decoding: units[position...], as: UTF16.self).allSatisfy { $0.isWhitespace })
        #expect(covered.filter { $0 != 32 } == units.filter { $0 != 32 })
        // Words are counted where they start; no piece starts more than the limit.
        let starts = WordTokenizer.tokens(in: text).map(\.start)
        for piece in found { #expect(starts.filter { piece.range.contains($0) }.count <= words) }
    }

    @Test func textWithinTheLimitsIsOnePiece() {
        #expect(pieces("  One short sentence, really.  ", words: 10, length: 100).map(\.0) == ["One short sentence, really."])
    }

    @Test func aSentenceEndIsPreferredEvenBeforeALowerCaseWord() {
        let text = "the cat sat on the mat. the dog lay by the door and slept all day long"
        let found = pieces(text, words: 10, length: 1000)
        #expect(found.first?.0 == "the cat sat on the mat.")
        #expect(found.first?.1 == .sentence)
    }

    @Test func thenAClauseThenACommaThenAWord() {
        #expect(pieces("one two three four; five six seven eight nine ten", words: 6, length: 1000).first?.0 == "one two three four;")
        #expect(pieces("one two three four — five six seven eight nine ten", words: 6, length: 1000).first?.0 == "one two three four —")
        #expect(pieces("one two three four, five six seven eight nine ten", words: 6, length: 1000).first?.0 == "one two three four,")
        let plain = pieces("one two three four five six seven eight nine ten", words: 6, length: 1000)
        #expect(plain.map(\.0) == ["one two three four five six", "seven eight nine ten"])
        #expect(plain.map(\.1) == [.word, .sentence])
    }

    @Test func aBoundaryTooEarlyInThePieceIsPassedOverForAWeakerOneLater() {
        // The full stop after the first word would leave a one-word piece: a word boundary near the limit wins.
        let found = pieces("Yes. one two three four five six seven eight nine ten eleven twelve", words: 8, length: 1000)
        #expect(found.first?.0 == "Yes. one two three four five six seven")
    }

    @Test func chineseAndJapanesePunctuationEndPiecesWithoutSpaces() {
        let text = String(repeating: "日本語の文章です。", count: 20)
        let found = pieces(text, words: 100, length: 40)
        #expect(found.count > 4)
        #expect(found.dropLast().allSatisfy { $0.0.hasSuffix("。") && $0.1 == .sentence })
    }

    @Test func aLineWithoutSpacesIsCutAtAFixedLengthOnGraphemeBoundaries() throws {
        // Family emoji (a ZWJ sequence of 8 code units) and letters with combining accents: no cut splits one.
        let unit = "ab👩‍👩‍👧e\u{301}"
        let text = String(repeating: unit, count: 500)
        let found = pieces(text, words: 100, length: 64)
        #expect(found.count > 10)
        #expect(found.allSatisfy { $0.1 == .length || $0.0 == found.last?.0 })
        #expect(found.map(\.0).joined() == text)
        for (piece, _) in found { #expect(piece.utf16.count <= 64 && piece.utf16.count >= 48) }
        #expect(found.flatMap { Array($0.0) } == Array(text), "whole graphemes only")
        try checkCover(text, words: 100, length: 64)
    }

    @Test func oneGraphemeLongerThanTheLimitIsCutBetweenScalars() {
        let text = "a" + String(repeating: "\u{301}", count: 300) + " 🎉🎉"
        let units = Array(text.utf16)
        let found = PhraseSplitter.pieces(units, in: 0..<units.count, maximumWords: 10, maximumLength: 50)
        #expect(found.count >= 6)
        var joined: [UInt16] = []
        for p in found { joined += units[p.range] }
        #expect(joined.filter { $0 != 32 } == units.filter { $0 != 32 })
        // No cut between the two halves of a surrogate pair.
        for p in found { #expect(!UTF16.isTrailSurrogate(units[p.range.lowerBound])) }
    }

    @Test func noPieceEndsInsideAnUnbreakableRange() {
        let text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
        let units = Array(text.utf16)
        // "delta epsilon" read as one pronunciation: the word cut after "delta" is not allowed.
        let guarded = 17..<30
        #expect(String(decoding: units[guarded], as: UTF16.self) == "delta epsilon")
        #expect(pieces(text, words: 5, length: 1000).first?.0 == "alpha beta gamma delta epsilon")
        #expect(pieces(text, words: 4, length: 1000, unbreakable: [guarded]).first?.0 == "alpha beta gamma")
    }

    @Test func longTextsOfEveryKindAreCoveredWithinTheLimits() throws {
        let words = ["apple", "river", "stone", "window", "garden", "silver", "morning", "quiet"]
        let plain = (0..<5000).map { words[$0 % words.count] }.joined(separator: " ")
        try checkCover(plain, words: 300, length: 8000)
        let lower = (0..<5000).map { words[$0 % words.count] + ($0 % 12 == 11 ? "." : "") }.joined(separator: " ")
        try checkCover(lower, words: 300, length: 8000)
        try checkCover(String(repeating: "abcdefghij", count: 10_000), words: 300, length: 8000)
        try checkCover("Ünïcödé " + String(repeating: "\u{1F600}x", count: 5000) + " end", words: 300, length: 1000)
        let lowerPieces = pieces(lower, words: 300, length: 8000)
        #expect(lowerPieces.dropLast().allSatisfy { $0.1 == .sentence && $0.0.hasSuffix(".") })
    }

    @Test func theWorkIsLinearInTheLength() {
        // 300,000 words without a boundary: cut in well under the time a quadratic cut would take.
        let text = String(repeating: "word ", count: 300_000)
        let units = Array(text.utf16)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let found = PhraseSplitter.pieces(units, in: 0..<units.count, maximumWords: 300, maximumLength: 8000)
            #expect(found.count == 300_000 / 300)
        }
        #expect(elapsed < .seconds(20), "\(elapsed)")
    }
}
