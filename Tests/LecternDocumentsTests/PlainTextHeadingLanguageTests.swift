import Testing
@testable import LecternDocuments

/// Headings in other languages than English (`CAPÍTULO`, `CHAPITRE`, `KAPITEL`, `ACTE`/`SCÈNE`),
/// story headings of a collection (`Adventure I. Silver Blaze`) and numerals set between dashes (`-I-`).
@Suite struct PlainTextHeadingLanguageTests {
    static let body = "Era una noche oscura y tormentosa; la lluvia caía a torrentes, salvo\nen raros intervalos, cuando el viento la detenía.\n"

    func chapterTitles(_ headings: [String]) -> [String] {
        let text = headings.map { "\($0)\n\n\(Self.body)\n\n" }.joined()
        return analysed(text).compactMap(\.heading).filter { $0.level == .chapter }.map(\.title)
    }

    @Test func aSpanishTextWithCapituloHeadings() {
        let headings = ["Capítulo primero. Que trata de la condición del hidalgo", "Capítulo II. De la primera salida",
                        "Capítulo III. Donde se cuenta la graciosa manera"]
        #expect(chapterTitles(headings) == headings)
        #expect(chapterTitles(["CAPÍTULO I", "CAPÍTULO II", "CAPÍTULO III"]) == ["CAPÍTULO I", "CAPÍTULO II", "CAPÍTULO III"])
    }

    @Test func frenchAndGermanChapterKeywords() {
        #expect(chapterTitles(["CHAPITRE PREMIER", "CHAPITRE II"]) == ["CHAPITRE PREMIER", "CHAPITRE II"])
        #expect(chapterTitles(["Kapitel 1", "Kapitel 2"]) == ["Kapitel 1", "Kapitel 2"])
    }

    @Test func aFrenchPlayTextWithActesAndScenes() {
        let text = ["Acte I.", "Scène 1.I.", "Scène 1.II.", "Acte II.", "Scène 2.I."].map { "\($0)\n\n\(Self.body)\n\n" }.joined()
        let headings = analysed(text).compactMap(\.heading)
        #expect(headings.map(\.title) == ["Acte I.", "Scène 1.I.", "Scène 1.II.", "Acte II.", "Scène 2.I."])
        #expect(headings.map(\.level) == [.part, .chapter, .chapter, .part, .chapter])
        #expect(HeadingCandidate.of("Acte I.")?.isPlayDivision == true)
        #expect(HeadingCandidate.of("Scène 1.I.")?.isPlayDivision == true)
    }

    /// A Spanish play numbers its scenes in words as well as numerals, cardinals among them, and a
    /// text in plain capitals drops the accent (`ESCENA ULTIMA`).
    @Test func spanishScenesNumberedInWords() {
        let headings = ["ESCENA PRIMERA", "ESCENA DOS", "ESCENA III", "ESCENA ULTIMA"]
        #expect(chapterTitles(headings) == headings)
        #expect(HeadingCandidate.of("ESCENA DOS                              SCENE II.")?.isPlayDivision == true)
    }

    @Test func theStoriesOfACollection() {
        let headings = ["Adventure I. Silver Blaze", "Adventure II. The Yellow Face", "Adventure III. The Stock-Broker's Clerk"]
        #expect(chapterTitles(headings) == headings)
    }

    @Test func numeralsBetweenDashes() {
        #expect(chapterTitles(["-I-", "-II-", "— III —"]) == ["I", "II", "III"])
        #expect(HeadingCandidate.of("-- not a heading --") == nil)
    }

    @Test func aKeywordOpeningASentenceIsNotAHeading() {
        #expect(HeadingCandidate.of("Parte de la gente se fue.") == nil)
        #expect(HeadingCandidate.of("Libro 3 es el mejor de todos.") == nil)
    }
}

/// A numbered heading whose short title ends with a full stop (`1. First Day.`).
@Suite struct PlainTextNumberedTitleTests {
    @Test func aCapitalisedTitleWithAFullStop() {
        #expect(HeadingCandidate.of("1. First Day.")?.kind == .numberedTitle(1))
        #expect(HeadingCandidate.of("12. The Old House.")?.kind == .numberedTitle(12))
        #expect(HeadingCandidate.of("2. He went home.") == nil)
    }
}

/// A note marker closing a heading line (`SCENE I[1]`) is not spoken with the heading.
@Suite struct PlainTextHeadingMarkerTests {
    @Test func theMarkerIsDroppedFromTheHeading() {
        #expect(HeadingCandidate.of("SCENE I[1]")?.text == "SCENE I")
        #expect(HeadingCandidate.of("CHAPTER II.{3}")?.text == "CHAPTER II.")
        let lines = "SCENE I[1]\n\nIt was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals.\n"
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headings = PlainTextStructure.analyse(lines, illustrations: .skip).compactMap(\.heading)
        #expect(headings.first?.lines == ["SCENE I"])
    }
}
