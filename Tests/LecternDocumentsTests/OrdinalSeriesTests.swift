import Testing
@testable import LecternDocuments

/// A heading series numbered by ordinal words in full, in the book's language and past twelfth
/// (`CANTO THE SEVENTEENTH`, `Erster Teil` / `Erstes Kapitel`), one member misspelt by a letter
/// (`CANTO THE TWELTH.`), and a lone number over a title too long for other headings (``OrdinalWords``,
/// ``StructureScanner``).
@Suite struct OrdinalSeriesTests {
    static let body = "It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked.\n"

    func headings(_ lines: [String]) -> [TextHeading] {
        analysed(lines.map { "\($0)\n\n\(Self.body)\n\n" }.joined()).compactMap(\.heading)
    }

    @Test func theTableReadsOrdinalsInEveryLanguage() {
        #expect(OrdinalWords.value(of: "SEVENTEENTH") == 17)
        #expect(OrdinalWords.value(of: "Twenty-first") == 21)
        #expect(OrdinalWords.value(of: "ninetieth") == 90)
        #expect(OrdinalWords.value(of: "Elfter") == 11)
        #expect(OrdinalWords.value(of: "vingtième") == 20)
        #expect(OrdinalWords.value(of: "DEUXIEME") == 2)
        #expect(OrdinalWords.value(of: "decimotercero") == 13)
        #expect(ContentsEntry.parse("CANTO THE SEVENTEENTH.")?.number == 17)
        #expect(ContentsEntry.parse("CHAPTER THE TWENTY-FIRST")?.number == 21)
    }

    @Test func cantosPastTheTwelfth() {
        let lines = ["CANTO THE ELEVENTH.", "CANTO THE TWELFTH.", "CANTO THE THIRTEENTH.", "CANTO THE SEVENTEENTH."]
        #expect(headings(lines).map(\.title) == lines)
    }

    @Test func aGermanSeriesOfPartsAndChapters() {
        let found = headings(["Erster Teil", "Erstes Kapitel", "Zweites Kapitel", "Zweiter Teil", "Erstes Kapitel", "Elftes Kapitel"])
        #expect(found.map(\.title) == ["Erster Teil", "Erstes Kapitel", "Zweites Kapitel", "Zweiter Teil", "Erstes Kapitel", "Elftes Kapitel"])
        #expect(found.map(\.level) == [.part, .chapter, .chapter, .part, .chapter, .chapter])
    }

    @Test func anOrdinalMisspeltByOneLetter() {
        let lines = ["CANTO THE ELEVENTH.", "CANTO THE TWELTH.", "CANTO THE THIRTEENTH."]
        #expect(headings(lines).map(\.title) == lines)
        #expect(OrdinalWords.misspeltValue(of: "NINETH") == 9)
        #expect(OrdinalWords.misspeltValue(of: "TWELFTH") == nil)
        #expect(HeadingCandidate.of("CANTO THE TWELTH.") != nil)
        #expect(HeadingCandidate.of("CANTO THE BALLAD.") == nil)
    }

    @Test func aLoneNumberOverALongTitleContinuesItsSeries() {
        let text = ["I", "II", "III"].enumerated().map { k, numeral in
            let title = k == 2 ? "CE QU'IL N'EST PAS POSSIBLE D'IGNORER ET CE QU'IL N'EST\nPLUS PERMIS DE CROIRE DANS LES ÉTATS-UNIS"
                : "LE GUN-CLUB \(numeral)"
            return "\n\n                 \(numeral)\n         --------------------\n\(title)\n\n\(Self.body)\n\(Self.body)\n"
        }.joined()
        let found = analysed(text).compactMap(\.heading).filter { $0.level == .chapter }
        #expect(found.count == 3)
        #expect(found.last?.lines.first == "III")
    }

    static let paragraphs = String(repeating: "<p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals, "
        + "when it was checked by a violent gust of wind which swept up the streets.</p>\n", count: 3)

    /// An HTML `<h3>` numbered like the rest of its series, over a title of eighteen words: a chapter like them.
    @Test func anHTMLHeadingOfTheSeriesWithALongTitle() throws {
        let titles = ["LE GUN-CLUB", "COMMUNICATION DU PRÉSIDENT",
                      "CE QU'IL N'EST PAS POSSIBLE D'IGNORER ET CE QU'IL N'EST PLUS PERMIS DE CROIRE DANS LES ÉTATS-UNIS", "L'HYMNE DU BOULET"]
        let body = ["I", "II", "III", "IV"].enumerated().map { k, numeral in
            "<h3>\(numeral)<br /><br />\n\(titles[k])</h3>\n" + Self.paragraphs
        }.joined()
        let book = try HTMLPage.body(body)
        #expect(book.chapters.count == 4)
        #expect(book.chapters.last?.title.hasSuffix("L'HYMNE DU BOULET") == true)
    }

    /// A letter's heading in a `<pre>` with its place and date under it, among letters in `<h2>`: a letter of the series.
    @Test func aLetterHeadingOverItsDateline() throws {
        let body = ["XXXII", "XXXIII"].map { "<h2>LETTER \($0)</h2>\n" + Self.paragraphs }.joined()
            + "<pre xml:space=\"preserve\">\nLETTER XXXIV - EVELINA IN CONTINUATION\n Howard Grove, May 15.\n</pre>\n" + Self.paragraphs
            + "<h2>LETTER XXXV</h2>\n" + Self.paragraphs
        let book = try HTMLPage.body(body)
        #expect(book.chapters.map(\.title).contains { $0.hasPrefix("LETTER XXXIV") })
        #expect(book.chapters.count == 4)
    }
}
