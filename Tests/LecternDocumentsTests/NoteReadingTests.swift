import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Notes read away from their markers (issue 24, item 2): placed by `footnotes:` — after the
/// paragraph, at the end of the chapter (the default), at the end of the book, or skipped — each
/// carrying its label for the announcement ("Note A."), in every format; a notes section of an
/// EPUB is no chapter of its own.
struct NoteReadingTests {
    /// Project Gutenberg's HTML footnotes: an `a.fnanchor` marker, a `div.footnote` body whose
    /// label links back, under a FOOTNOTES: heading.
    static let page = """
        <html><body><h2>CHAPTER I.</h2>
        <p>The sea rolled on.<a name="FNanchor_A_1" id="FNanchor_A_1"></a><a href="#Footnote_A_1" class="fnanchor">[A]</a> \
        It did, for a long time and then some more, as seas do every day of the year.</p>
        <p>The ship sailed on through the night and the crew slept below the deck, all but the watch.</p>
        <div class="footnotes"><h3>FOOTNOTES:</h3>
        <div class="footnote"><p><a name="Footnote_A_1" id="Footnote_A_1"></a><a href="#FNanchor_A_1"><span class="label">[A]</span></a> \
        At the hospital of Saint Giles.</p></div></div>
        <h2>CHAPTER II.</h2><p>More text here in the second chapter, long enough to count as running text for sure.</p>
        </body></html>
        """

    static func read(_ html: String, footnotes: ReadingRules.Footnotes) throws -> Book {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("book.htm", bytes: Array(html.utf8))
        return try HTMLReader().read(Source(url: url, format: .html, rules: ReadingRules(footnotes: footnotes)))
    }

    static func blocks(_ book: Book) -> [[String]] {
        book.chapters.map { chapter in chapter.blocks.map { ($0.noteLabel.map { "[\($0)] " } ?? "") + $0.text } }
    }

    @Test func aNoteIsReadAtItsChaptersEndWithItsLabelAndItsMarkersAreSilent() throws {
        let book = try Self.read(Self.page, footnotes: .chapter)
        #expect(Self.blocks(book) == [
            ["CHAPTER I.", "The sea rolled on. It did, for a long time and then some more, as seas do every day of the year.",
             "The ship sailed on through the night and the crew slept below the deck, all but the watch.",
             "[A] At the hospital of Saint Giles."],
            ["CHAPTER II.", "More text here in the second chapter, long enough to count as running text for sure."],
        ])
        #expect(book.skipped.map(\.reason) == [.footnoteReference, .footnotesHeading, .footnoteLabel])
    }

    @Test func aNoteGoesAfterItsParagraphAtTheBooksEndOrNowhere() throws {
        let paragraph = try Self.read(Self.page, footnotes: .paragraph)
        #expect(Self.blocks(paragraph)[0][2] == "[A] At the hospital of Saint Giles.")
        let book = try Self.read(Self.page, footnotes: .book)
        #expect(book.chapters.map(\.title) == ["CHAPTER I.", "CHAPTER II.", StructureReading.notesTitle])
        #expect(Self.blocks(book).last == ["[A] At the hospital of Saint Giles."])
        #expect(book.chapters.last?.speaksTitle == false, "the notes' chapter title is not read: each note is announced")
        let skipped = try Self.read(Self.page, footnotes: .skip)
        #expect(!Self.blocks(skipped).joined().contains { $0.contains("hospital") })
        #expect(skipped.skipped.contains { $0.reason == .footnote && $0.text.contains("hospital") })
    }

    @Test func aPlainTextNoteIsAnnouncedByItsLabelToo() throws {
        let text = "CHAPTER I.\n\nThe sea rolled on.[1] It did, for a long time and then some more, as seas do.\n\n"
            + "[1] A note about the sea.\n\nCHAPTER II.\n\nMore text here in the second chapter, long enough to count.\n"
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(Self.blocks(book)[0].last == "[1] A note about the sea.")
        var rules = ReadingRules(footnotes: .book)
        rules.footnotes = .book
        var source = textSource()
        source.rules = rules
        let atEnd = try PlainTextReader().read(text: text, source: source)
        #expect(atEnd.chapters.map(\.title).last == StructureReading.notesTitle)
        let zero = try PlainTextReader().read(text: text.replacingOccurrences(of: "[1]", with: "[01]"), source: textSource())
        #expect(Self.blocks(zero)[0].last == "[1] A note about the sea.", "a renumbered note is announced by its number")
    }

    @Test func anEPUBsNotesSectionIsNoChapterUnlessNotesGoToTheEnd() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
            <head><title>One</title></head><body><h1>Chapter One</h1>\
            <p>He said yes and then left the room, closing the door behind him quietly.<a epub:type="noteref" href="notes.xhtml#n1">1</a></p>\
            </body></html>
            """
        let notes = """
            <?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
            <head><title>Notes</title></head><body><section epub:type="endnotes"><h1>Notes</h1>\
            <aside epub:type="endnote" id="n1"><p>He did not come back. <a href="one.xhtml#r1">↩</a></p></aside></section></body></html>
            """
        let epub = dir.url.appendingPathComponent("notes.epub")
        try writeEPUB(epub, documents: [("OEBPS/one.xhtml", chapter), ("OEBPS/notes.xhtml", notes)],
                      nav: [("Chapter One", "one.xhtml"), ("Notes", "notes.xhtml")])
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(book.chapters.map(\.title) == ["Chapter One"])
        #expect(Self.blocks(book)[0].last == "[1] He did not come back.")
        #expect(book.skipped.contains { $0.reason == .backLink && $0.text == "↩" })
        #expect(book.skipped.contains { $0.reason == SkipReason.footnotesHeading && $0.text == "Notes" })
        let atEnd = try EPUBReader().read(epubSource(epub, rules: ReadingRules(footnotes: .book))).book
        #expect(atEnd.chapters.map(\.title) == ["Chapter One", StructureReading.notesTitle])
    }
}
