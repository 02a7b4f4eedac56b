import Testing
import LecternCore
import LecternText

/// What lies outside an excerpt's cut is summarised as one entry a side (reason, word count,
/// first and last words); text skipped inside the excerpt, and the lines the markers matched,
/// stay as they are.
struct SkippedCutSummaryTests {
    private func item(_ text: String, _ reason: SkipReason, cut: SkippedText.Cut?, source: String = "book.txt") -> SkippedText {
        SkippedText(source: source, chapter: nil, reason: reason, text: text, cut: cut)
    }

    @Test func eachSideOfTheCutBecomesOneEntryWithItsWordCount() {
        let before = SkipReason.beforeStartMarker(pattern: "START", key: nil)
        let after = SkipReason.afterEndMarker(pattern: "END", key: nil)
        let longTail = (1...80).map { "word\($0)" }.joined(separator: " ")
        let list = [
            item("Title page of the book", before, cut: .before),
            item("Contents: one two three", before, cut: .before),
            item("*** START ***", .startMarker(pattern: "START"), cut: nil),
            item("print(code)", .codeBlock, cut: nil),
            item("*** END ***", .endMarker(pattern: "END"), cut: nil),
            item("Licence paragraph one.", after, cut: .after),
            item(longTail, after, cut: .after),
        ]
        let summary = SkippedText.summarisingCuts(list)
        #expect(summary.map(\.reason) == [before, .startMarker(pattern: "START"), .codeBlock, .endMarker(pattern: "END"), after])
        #expect(summary[0].words == 9 && summary[0].cut == .before)
        #expect(summary[0].text == "Title page of the book Contents: one two three")
        #expect(summary[1].words == nil && summary[2].words == nil)
        #expect(summary[4].words == 3 + 80)
        // A long cut keeps its first and last words only.
        #expect(summary[4].text.hasPrefix("Licence paragraph one. word1 ") && summary[4].text.hasSuffix(" word80"))
        #expect(summary[4].text.contains(" … ") && !summary[4].text.contains("word40 "))
        #expect(summary[4].text.count < 140)
    }

    @Test func cutsOfDifferentSourcesStaySeparate() {
        let reason = SkipReason.afterEndMarker(pattern: "END", key: nil)
        let list = [item("one two", reason, cut: .after, source: "a.txt"), item("three", reason, cut: .after, source: "b.txt")]
        let summary = SkippedText.summarisingCuts(list)
        #expect(summary.map(\.source) == ["a.txt", "b.txt"] && summary.map(\.words) == [2, 1])
    }

    @Test func aListWithNoCutIsUnchanged() {
        let list = [item("print(code)", .codeBlock, cut: nil), item("1 2 3", .pageNumber, cut: nil)]
        #expect(SkippedText.summarisingCuts(list) == list)
    }
}
