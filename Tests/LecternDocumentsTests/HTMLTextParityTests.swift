import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A Project Gutenberg HTML page read alone is read like its plain text (issue 24, item 1): the
/// same parts and chapters, the boilerplate, contents and title page skipped, and the narration
/// scripts compared paragraph by paragraph, their differences counted and shown.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct HTMLTextParityTests {
    /// A narrated paragraph as its words (upper-cased letters and digits).
    struct Paragraph: CustomStringConvertible {
        var words: [String]
        var set: Set<String>
        init(_ text: String) {
            words = text.split(whereSeparator: \.isWhitespace).map { TextLines.letterKey(String($0)) }.filter { !$0.isEmpty }
            set = Set(words)
        }
        /// The same paragraph in another transcription: the same words but for one in five ("dropped" and
        /// "dropt", "Philips" and "Phillips").
        func matches(_ other: Paragraph) -> Bool {
            if words.count < 5 || other.words.count < 5 { return words == other.words }
            return set.intersection(other.set).count * 5 >= max(set.count, other.set.count) * 4
        }
        var description: String { words.prefix(10).joined(separator: " ") }
    }

    /// One book read from both files: its chapters and its narrated paragraphs.
    struct Script {
        var parts: [String?]
        var chapterTitles: [String]
        var paragraphs: [Paragraph]
        var skippedReasons: Set<SkipReason>

        init(_ book: Book) {
            parts = book.chapters.map(\.part)
            chapterTitles = book.chapters.map(\.title)
            paragraphs = book.chapters.flatMap(\.blocks).filter { $0.kind != .heading }.map { Paragraph($0.text) }
                .filter { !$0.words.isEmpty }
            skippedReasons = Set(book.skipped.map(\.reason))
        }
    }

    static func scripts(_ name: String) throws -> (html: Script, text: Script, difference: CollectionDifference<Paragraph>) {
        let html = Script(try HTMLReader().read(Source(url: Corpus.file("html/\(name).htm"), format: .html)))
        let text = Script(try PlainTextReader().read(Source(url: Corpus.file("text/\(name).txt"), format: .text)))
        let difference = html.paragraphs.difference(from: text.paragraphs) { $0.matches($1) }
        let removed = difference.removals.count, inserted = difference.insertions.count
        print("\(name): \(text.paragraphs.count) paragraphs in the text, \(html.paragraphs.count) in the HTML page;"
              + " \(removed) read only from the text, \(inserted) only from the page")
        for change in difference.prefix(12) {
            switch change {
            case .remove(let offset, let key, _): print("  only in the text  #\(offset): \(key)")
            case .insert(let offset, let key, _): print("  only in the page  #\(offset): \(key)")
            }
        }
        return (html, text, difference)
    }

    @Test func jackSheppardHasTheSameThreeEpochsOfChaptersAsItsText() throws {
        let (html, text, difference) = try Self.scripts("pg16215-jack-sheppard")
        var epochs: [String] = []
        for part in html.parts.compactMap({ $0 }) where epochs.last != part { epochs.append(part) }
        let counts = epochs.map { epoch in html.parts.filter { $0 == epoch }.count }
        #expect(epochs.map { $0.prefix(16) } == ["EPOCH THE FIRST.", "EPOCH THE SECOND", "EPOCH THE THIRD."])
        #expect(counts == [7, 19, 32], "chapters per epoch: \(counts)")
        #expect(html.parts.map { $0.map(TextLines.letterKey) } == text.parts.map { $0.map(TextLines.letterKey) })
        #expect(html.chapterTitles.count == text.chapterTitles.count)
        #expect(html.chapterTitles.map(TextLines.letterKey) == text.chapterTitles.map(TextLines.letterKey))
        for reason: SkipReason in [.gutenbergHeader, .gutenbergLicence, .contentsList, .pageNumber, .backLink] {
            #expect(html.skippedReasons.contains(reason), "nothing skipped as \(reason)")
        }
        // The page and the text are two transcriptions of one book: a paragraph in a hundred may differ
        // (measured: the text's END OF … EPOCH and THE END lines, headings in the page, and a note's verse).
        #expect(difference.removals.count * 100 <= text.paragraphs.count * 2)
        #expect(difference.insertions.count * 100 <= html.paragraphs.count * 2)
    }

    @Test func prideAndPrejudiceHasTheSameSixtyOneChaptersAsItsText() throws {
        let (html, text, difference) = try Self.scripts("pg1342-pride-and-prejudice")
        // The page is an edition without the text's preface and illustrations: its 61 chapters are the text's
        // chapters after the preface.
        #expect(html.chapterTitles.count == 61)
        #expect(text.chapterTitles.first == "PREFACE.")
        #expect(Array(text.chapterTitles.dropFirst()).count == html.chapterTitles.count)
        for reason: SkipReason in [.gutenbergHeader, .gutenbergLicence, .contentsList, .titlePage] {
            #expect(html.skippedReasons.contains(reason), "nothing skipped as \(reason)")
        }
        // Only the preface is read from the text alone. The two editions part some paragraphs differently
        // ("…Won't it, Kitty?" and "Kitty owned…" are one paragraph in the page, two in the text): one in
        // twenty-five differs, counted both ways (measured: 82 and 79 of about 2,060).
        let preface = text.paragraphs.count - text.paragraphs.drop { $0.words.prefix(4) != ["IT", "IS", "A", "TRUTH"] }.count
        #expect(preface >= 15, "the preface is read from the text")
        #expect(difference.removals.count - preface <= text.paragraphs.count / 20)
        #expect(difference.insertions.count <= html.paragraphs.count / 20)
    }

    @Test func frankensteinHasItsFourLettersAndTwentyFourChapters() throws {
        let book = try HTMLReader().read(Source(url: Corpus.file("html/pg84-frankenstein.htm"), format: .html))
        #expect(book.chapters.count == 28)
        #expect(book.chapters.prefix(4).allSatisfy { $0.title.hasPrefix("Letter ") })
        #expect(book.chapters.dropFirst(4).map(\.title) == (1...24).map { "Chapter \($0)" })
        #expect(book.chapters[0].blocks.first { $0.kind != .heading }?.text == "St. Petersburgh, Dec. 11th, 17—.")
        #expect(book.skipped.prefix(3).allSatisfy { $0.reason == .titlePage })
    }
}

/// The Project Gutenberg EPUB read alone, with no markers: its twelve stories, PG's header and
/// licence skipped by the same pass as a plain text's.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct GutenbergEPUBAloneTests {
    @Test func sherlockHolmesHasItsTwelveStoriesAndNoBoilerplate() throws {
        let book = try EPUBReader().read(epubSource(Corpus.file("epub/pg1661-adventures-of-sherlock-holmes-epub2.epub"))).book
        let numerals = ["I.", "II.", "III.", "IV.", "V.", "VI.", "VII.", "VIII.", "IX.", "X.", "XI.", "XII."]
        let stories = numerals.map { numeral in book.chapters.first { $0.title.hasPrefix(numeral + " ") } }
        #expect(stories.allSatisfy { $0 != nil }, "\(book.chapters.map(\.title))")
        let reasons = Set(book.skipped.map(\.reason))
        #expect(reasons.contains(.gutenbergHeader) && reasons.contains(.gutenbergLicence))
        let spoken = book.chapters.flatMap(\.blocks).map(\.text).joined(separator: " ")
        #expect(!spoken.contains("Project Gutenberg License") && !spoken.contains("START OF THE PROJECT GUTENBERG"))
        #expect(spoken.contains("To Sherlock Holmes she is always the woman."))
        #expect(book.chapters.last?.blocks.last?.text.contains("Gutenberg") == false)
    }
}
