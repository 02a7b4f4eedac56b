import Testing
@testable import LecternDocuments

/// A school edition's line numbers kept at the start of every fifth line (`[5]`, `[10]` …): silent
/// inside their paragraph, never the label of a note.
@Suite struct PlainTextMarginNumberTests {
    static func numberedText(notes: String = "") -> String {
        var lines: [String] = []
        for k in 1...60 {
            let words = "la linea \(k) del texto sigue aqui con palabras"
            lines.append(k % 5 == 0 ? "[\(((k - 1) % 30) + 1)] \(words)" : "     \(words)")
            if k % 10 == 0 { lines.append("") }
        }
        return lines.joined(separator: "\n") + "\n" + notes
    }

    @Test func lineNumbersStaySilentInTheirParagraph() {
        let items = analysed(Self.numberedText())
        #expect(!items.contains { $0.note != nil })
        let paragraphs = items.compactMap(\.paragraph)
        #expect(paragraphs.count == 6)
        #expect(paragraphs.allSatisfy { !spoken($0).contains("[") })
    }

    @Test func footnoteLabelsAfterBlankLinesAreStillNotes() {
        let notes = (1...12).map { "[\($0)] A note about line \($0)." }.joined(separator: "\n\n")
        let text = (1...12).map { "Some sentence with a marker.[\($0)] And more words to read here." }.joined(separator: "\n\n")
        let items = analysed(text + "\n\n" + notes + "\n")
        #expect(items.filter { $0.note != nil }.count == 12)
    }

    @Test func marginNumbersAreRecognisedOnlyWhenNearlyAllAreMultiplesOfFive() {
        let lines = Self.numberedText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(MarginLineNumbers.present(in: lines, limit: lines.count))
        let notes = (1...20).map { "[\($0)] A note." }
        #expect(!MarginLineNumbers.present(in: notes, limit: notes.count))
    }
}
