import Testing
import LecternCore
import LecternText

/// The end of `check` and of a run's report: the largest skipped passages and each kind's share.
@Suite struct SkipSummaryTests {
    static func item(_ reason: SkipReason, words: Int, chapter: Int?) -> SkippedText {
        SkippedText(source: "book.txt", chapter: chapter, reason: reason,
                    text: (1...words).map { "w\($0)" }.joined(separator: " "))
    }

    @Test func listsTheLargestPassagesAndEachKindsShare() {
        let skipped = [
            Self.item(.titlePage, words: 10, chapter: nil), Self.item(.contentsList, words: 200, chapter: nil),
            Self.item(.illustration, words: 3, chapter: 1), Self.item(.illustration, words: 4, chapter: 2),
            Self.item(.illustration, words: 5, chapter: 3), Self.item(.index, words: 1000, chapter: 9),
            Self.item(.gutenbergLicence, words: 3000, chapter: 9),
        ]
        let summary = SkipSummary(skipped: skipped, readWords: 5778)
        #expect(summary.skippedWords == 4222)
        #expect(summary.bookWords == 10_000)
        #expect(summary.percent == 42.2)
        #expect(summary.largest.map(\.words) == [3000, 1000, 200, 10, 5])
        #expect(summary.largest[0].firstWords == "w1 w2 w3 w4 w5 w6 w7 w8 …")
        #expect(summary.kinds.map(\.reason) == [.gutenbergLicence, .index, .contentsList, .illustration, .titlePage])
        let illustrations = summary.kinds.first { $0.reason == .illustration }
        #expect(illustrations?.passages == 3 && illustrations?.words == 12 && illustrations?.percent == 0.1)
        #expect(summary.lines == [
            "skipped: 4,222 of 10,000 words (42.2 %): Project Gutenberg licence 3,000 (30.0 %), index 1,000 (10.0 %), "
                + "contents list 200 (2.0 %), illustration 12 (0.1 %), title page 10 (0.1 %)",
            "  largest: 3,000 words, Project Gutenberg licence, chapter 9: \"w1 w2 w3 w4 w5 w6 w7 w8 …\"",
            "  largest: 1,000 words, index, chapter 9: \"w1 w2 w3 w4 w5 w6 w7 w8 …\"",
            "  largest: 200 words, contents list, before the first chapter: \"w1 w2 w3 w4 w5 w6 w7 w8 …\"",
            "  largest: 10 words, title page, before the first chapter: \"w1 w2 w3 w4 w5 w6 w7 w8 …\"",
            "  largest: 5 words, illustration, chapter 3: \"w1 w2 w3 w4 w5\"",
        ])
    }

    @Test func aBookWithNothingSkippedSaysSo() {
        #expect(SkipSummary(skipped: [], readWords: 100).lines == ["skipped: nothing"])
    }
}
