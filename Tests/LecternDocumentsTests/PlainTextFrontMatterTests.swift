import Testing
@testable import LecternDocuments

/// Title page before the first heading, a book title repeated before a chapter, and texts without headings.
@Suite struct PlainTextFrontMatterTests {
    static let body = PlainTextHeadingTests.body

    @Test func textBeforeTheFirstHeadingIsTheTitlePage() {
        let text = "English Library\n\n_VOL. XII_\n\nBY W. Harrison Ainsworth\n\nPREFACE\n\n\(Self.body)\nCHAPTER I.\n\n\(Self.body)"
        #expect(summary(analysed(text)).prefix(4) == [
            "S title page: English Library", "S title page: _VOL. XII_", "S title page: BY W. Harrison Ainsworth", "H chapter: PREFACE",
        ])
    }

    @Test func aTextWithoutHeadingsIsReadWhole() {
        let text = "A Short Note\n\n" + Self.body
        #expect(summary(analysed(text)).first == "P: A Short Note")
    }

    @Test func aLongUnheadedOpeningBeforeALateHeadingIsRead() {
        let long = Array(repeating: Self.body, count: 120).joined(separator: "\n")
        let s = summary(analysed("\(long)\nEPILOGUE\n\n\(Self.body)"))
        #expect(s.first?.hasPrefix("P: It was a dark") == true)
        #expect(s.contains("H chapter: EPILOGUE"))
    }

    @Test func aRepeatedBookTitleBeforeAChapterIsTitlePageMatter() {
        let text = """
            CRITICAL AND HISTORICAL ESSAYS

            PREFACE

            \(Self.body)

            CRITICAL AND HISTORICAL ESSAYS


            I

            THE ORIGIN OF MUSIC

            \(Self.body)
            """
        let s = summary(analysed(text))
        #expect(s.contains("S title page: CRITICAL AND HISTORICAL ESSAYS"))
        #expect(!s.contains("P: CRITICAL AND HISTORICAL ESSAYS"))
        #expect(s.contains("H chapter: I | THE ORIGIN OF MUSIC"))
    }
}
