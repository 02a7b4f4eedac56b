import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// Marking the corpus's real EPUBs, with the paragraphs the reader itself finds: every paragraph
/// is placed, every sentence and word marked, and ElementTree finds the text of each mark, the
/// documents' text and styling unchanged, and no id twice.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct EPUBTextMarkerCorpusTests {
    static let books: [(file: String, rules: ReadingRules)] = [
        ("epub/idpf-moby-dick.epub", ReadingRules()),
        ("epub/idpf-childrens-literature.epub", ReadingRules()),
        ("epub/idpf-georgia-pls-ssml.epub", ReadingRules()),
        ("epub/pg1661-adventures-of-sherlock-holmes-epub2.epub",
         ReadingRules(startAfter: "START OF THE PROJECT GUTENBERG", endAt: "END OF THE PROJECT GUTENBERG")),
        ("epub/w3c-mol-timing-synchronization_multiple_audio.epub", ReadingRules()),
    ]

    @Test(arguments: books.map(\.file))
    func everyNarratedWordOfACorpusEPUBIsMarked(_ file: String) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let rules = Self.books.first { $0.file == file }!.rules
        let source = epubSource(Corpus.file(file), rules: rules)
        let book = try expectFaithfulTrace(source)
        let paragraphs = book.chapters.flatMap(\.blocks).compactMap { NarratedParagraph.narrated($0.text) }
        #expect(!paragraphs.isEmpty)
        let marked = try EPUBTextMarker(source: source).mark(paragraphs, stylesheet: "lectern/overlay.css")
        let unplaced = zip(paragraphs, marked.placements).filter { $0.1 == nil }.map(\.0.text)
        #expect(unplaced.isEmpty, "\(unplaced.count) paragraphs not placed: \(unplaced.prefix(5))")
        let expectations = MarkExpectations(paragraphs, marked.placements, wordsEvery: 10)
        #expect(expectations.unmarkedSentences == 0)
        #expect(expectations.unmarkedWords.isEmpty, "\(expectations.unmarkedWords.count) words not marked: \(expectations.unmarkedWords.prefix(10))")
        // A word's element may hold a footnote reference or page number standing inside the word
        // (Georgia's "20.6%<a epub:type="noteref">4</a>;"): its span cannot leave it out.
        expectations.verify(try ElementTree.check(marked, epub: Corpus.file(file), ids: expectations.ids, in: dir.url), exactWords: false)
    }
}
