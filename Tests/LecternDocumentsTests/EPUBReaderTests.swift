import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// The shared corpus beside the clone; these tests are skipped without it.
enum Corpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) }
    static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}

func epubSource(_ url: URL, rules: ReadingRules = ReadingRules()) -> Source {
    Source(url: url, displayPath: url.lastPathComponent, format: .epub, rules: rules)
}

/// EPUB 2 and 3 from the corpus: spine order, chapter titles from the nav or NCX, chapters split
/// inside one file at the nav's anchors, metadata, boilerplate cut by markers.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct EPUBReaderTests {
    @Test func mobyDickHasEveryChapterInSpineOrderTitledByTheNav() throws {
        let result = try EPUBReader().read(epubSource(Corpus.file("epub/idpf-moby-dick.epub")))
        let titles = result.book.chapters.map(\.title)
        let numbered = titles.filter { $0.hasPrefix("Chapter ") }
        #expect(numbered.count == 135)
        for (i, title) in numbered.enumerated() { #expect(title.hasPrefix("Chapter \(i + 1). "), "\(title) out of order") }
        #expect(numbered.first == "Chapter 1. Loomings.")
        #expect(titles.contains("Epilogue") && titles.firstIndex(of: "Epilogue")! > titles.firstIndex(of: numbered.last!)!)
        #expect(result.book.chapters.allSatisfy { !$0.speaksTitle }, "the nav's titles are not spoken; the text's own headings are")
        #expect(result.book.chapters[3].blocks.first?.kind == .heading)
        #expect(result.book.metadata.title == "Moby-Dick")
        #expect(result.book.metadata.author == "Herman Melville")
        #expect(result.book.metadata.language == "en-US")
    }

    @Test func childrensLiteratureIsSplitInsideOneFileFollowingTheNestedNav() throws {
        let result = try EPUBReader().read(epubSource(Corpus.file("epub/idpf-childrens-literature.epub")))
        let titles = result.book.chapters.map(\.title)
        // The section's entry holds only its heading: no chapter of its own, its heading opens the next.
        #expect(titles.count == 21, "\(titles)")
        #expect(Array(titles.prefix(7)) == ["BIBLIOGRAPHY", "INTRODUCTORY",
                                             "190 A FOUR-LEAVED CLOVER", "I. The Rabbi and the Diadem", "II. Friendship",
                                             "III. True Charity", "IV. An Eastern Garden"])
        #expect(result.book.chapters[0].blocks.first?.text == "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES")
        #expect(titles.last == "204 THE KING OF THE GOLDEN RIVER OR THE BLACK BROTHERS")
        // Each chapter starts with its own heading, not the previous chapter's text.
        let clover = try #require(result.book.chapters.first { $0.title == "II. Friendship" })
        #expect(clover.blocks.first?.text.contains("Friendship") == true, "\(clover.blocks.first?.text ?? "")")
        #expect(result.book.skipped.contains { $0.reason == .pageNumber })
        #expect(!result.book.skipped.contains { if case .missingContentsTarget = $0.reason { true } else { false } })
    }

    @Test func sherlockHolmesEPUB2HasTwelveStoriesFromTheNCXAndNoBoilerplate() throws {
        let rules = ReadingRules(startAfter: "START OF THE PROJECT GUTENBERG", endAt: "END OF THE PROJECT GUTENBERG")
        let book = try EPUBReader().read(epubSource(Corpus.file("epub/pg1661-adventures-of-sherlock-holmes-epub2.epub"), rules: rules)).book
        let stories = ["I. A SCANDAL IN BOHEMIA", "II. THE RED-HEADED LEAGUE", "III. A CASE OF IDENTITY", "IV. THE BOSCOMBE VALLEY MYSTERY",
                       "V. THE FIVE ORANGE PIPS", "VI. THE MAN WITH THE TWISTED LIP", "VII. THE ADVENTURE OF THE BLUE CARBUNCLE",
                       "VIII. THE ADVENTURE OF THE SPECKLED BAND", "IX. THE ADVENTURE OF THE ENGINEER’S THUMB",
                       "X. THE ADVENTURE OF THE NOBLE BACHELOR", "XI. THE ADVENTURE OF THE BERYL CORONET",
                       "XII. THE ADVENTURE OF THE COPPER BEECHES"]
        // The first story's entry holds only its heading, then its three parts are entries: no empty
        // chapter, its heading opens the first part.
        #expect(book.chapters.map(\.title).filter(stories.contains) == Array(stories.dropFirst()))
        let first = try #require(book.chapters.firstIndex { $0.title == "I. A SCANDAL IN BOHEMIA, I." })
        #expect(book.chapters.map(\.title)[first...].prefix(3) == ["I. A SCANDAL IN BOHEMIA, I.", "I. A SCANDAL IN BOHEMIA, II.",
                                                                   "I. A SCANDAL IN BOHEMIA, III."], "nested NCX entries are chapters too")
        #expect(book.chapters[first].blocks.prefix(3).map(\.text) == ["I.", "A SCANDAL IN BOHEMIA", "I."])
        let spoken = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(!spoken.contains("Project Gutenberg License"), "the license is boilerplate")
        #expect(spoken.contains("To Sherlock Holmes she is always the woman."))
        #expect(book.skipped.contains { if case .afterEndMarker = $0.reason { $0.text.contains("Gutenberg") } else { false } })
        // The guide's `toc` reference points at the "Contents" heading: it and its table are front
        // matter (issue #13), listed under that reason instead of the contents-list one.
        #expect(book.skipped.contains { $0.reason == .matter("table of contents", side: "front") && $0.text.contains("A Scandal in Bohemia") })
    }

    @Test func aSkippedNonLinearItemListsItsImagesAltText() throws {
        // Georgia's cover.xhtml is linear="no" and holds only <img alt="Cover Image">.
        let book = try EPUBReader().read(epubSource(Corpus.file("epub/idpf-georgia-pls-ssml.epub"))).book
        let cover = book.skipped.filter { if case .nonlinearSpineItem(let path) = $0.reason { path.hasSuffix("cover.xhtml") } else { false } }
        #expect(cover.map(\.text) == ["Cover Image"])
    }

    @Test func frankensteinHTMLHasFourLettersAndTwentyFourChaptersAfterTheStartMarker() throws {
        let source = Source(url: Corpus.file("html/pg84-frankenstein.htm"), format: .html, chapters: ChapterRule(level: 2),
                            rules: ReadingRules(startAt: "^Letter 1$"))
        let book = try HTMLReader().read(source)
        #expect(book.chapters.map(\.title) == (1...4).map { "Letter \($0)" } + (1...24).map { "Chapter \($0)" })
        #expect(book.chapters.allSatisfy { $0.speaksTitle })
        #expect(book.skipped.map(\.text).prefix(4) == ["Frankenstein;", "or, the Modern Prometheus", "by Mary Wollstonecraft (Godwin) Shelley", "CONTENTS"])
        #expect(book.chapters[0].blocks.prefix(2).map(\.text) == ["To Mrs. Saville, England.", "St. Petersburgh, Dec. 11th, 17—."])
        #expect(book.chapters[27].blocks.last?.text.hasSuffix("lost in darkness and distance.") == true)
        // Without the marker the front matter is read: the title page is a chapter of its own.
        let all = try HTMLReader().read(Source(url: Corpus.file("html/pg84-frankenstein.htm"), format: .html, chapters: ChapterRule(level: 2)))
        let firstTitle = all.chapters.first?.title
        #expect(firstTitle == "Frankenstein;")
    }
}
