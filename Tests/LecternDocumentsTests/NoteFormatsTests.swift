import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Notes alike in every format (issue 39, item 4): a marker is silent, a note's body is read as
/// `footnotes:` says and announced by the label its marker shows, a notes section is never a
/// chapter's prose nor a chapter of its own.
struct NoteFormatsTests {
    static func script(_ book: Book) -> [String] {
        book.chapters.flatMap(\.blocks).map { "\($0.kind)\($0.noteLabel.map { "[\($0)]" } ?? ""): \($0.text)" }
    }

    static func readHTML(_ html: String) throws -> Book {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("notes.html", bytes: Array(html.utf8))
        return try HTMLReader().read(Source(url: url, format: .html))
    }

    @Test func aGutenbergFootnotesSectionWithLetteredMarkersIsReadAsNotes() throws {
        let html = """
            <html><head><title>Folk-Lore</title></head><body>
            <h2>CHAPTER I.</h2>
            <p>The first custom is old.<a href="#fn2">[2]</a> A later one came in.<a href="#fn4a">[4a]</a></p>
            <h2>CHAPTER II.</h2>
            <p>The second chapter has no notes at all, and it is long enough to be a chapter.</p>
            <p>FOOTNOTES</p>
            <p><a name="fn2"></a>[2] Told by an old woman of the parish.</p>
            <p><a name="fn4a"></a>[4a] Added in the second edition.</p>
            </body></html>
            """
        let book = try Self.readHTML(html)
        let script = Self.script(book)
        #expect(script == ["heading: CHAPTER I.", "paragraph: The first custom is old.[2] A later one came in.[4a]",
                           "quote[2]: Told by an old woman of the parish.", "quote[4a]: Added in the second edition.",
                           "heading: CHAPTER II.", "paragraph: The second chapter has no notes at all, and it is long enough to be a chapter."],
                "\(script)")
        // The markers are kept in the text but silent.
        let first = book.chapters[0].blocks[1]
        #expect(first.pronunciations.filter { $0.spoken == " " }.count == 2)
        #expect(book.skipped.contains { $0.reason == SkipReason.footnotesHeading && $0.text == "FOOTNOTES" })
    }

    /// Project Gutenberg's older notes: the marker has an anchor of its own, and the note is the
    /// paragraph that links back to it (`1 (<a href="#linknoteref-1">return</a>) [ … ]`) under a
    /// title set between rules of stars: the marker is silent, the number and `(return)` are the
    /// note's label, the title is no chapter.
    @Test func notesThatLinkBackToTheirMarkersAreReadAsNotes() throws {
        let html = """
            <html><head><title>Romance</title></head><body>
            <h2>CHAPTER I.</h2>
            <p>The motto is an old one.<a href="#linknote-1" name="linknoteref-1" id="linknoteref-1">1</a> The tale goes on.</p>
            <h2>CHAPTER II.</h2>
            <p>The second chapter has no notes at all, and it is long enough to be a chapter.</p>
            <p><a name="linkfootnotes" id="linkfootnotes"></a> ************ FOOTNOTES ****************** ]
            <a name="linknote-1" id="linknote-1"><!-- Note --></a></p>
            <p class="foot">1 (<a href="#linknoteref-1">return</a>)<br /> [ The motto alludes to the stage.]</p>
            </body></html>
            """
        let book = try Self.readHTML(html)
        let script = Self.script(book)
        #expect(book.chapters.map(\.title) == ["CHAPTER I.", "CHAPTER II."], "\(book.chapters.map(\.title))")
        #expect(script.contains { $0.hasPrefix("quote[1]: ") && $0.contains("The motto alludes to the stage.") }, "\(script)")
        #expect(!script.contains { $0.contains("return") || $0.contains("FOOTNOTES") || $0.contains("1 (") }, "\(script)")
        #expect(script.contains { $0.hasPrefix("paragraph: The motto is an old one.") && !$0.contains("1") }, "\(script)")
        #expect(book.skipped.contains { $0.reason == SkipReason.footnotesHeading && $0.text.contains("FOOTNOTES") })
    }

    /// The plain text of the same book: its notes' title between rules of stars, a stray bracket
    /// under it; the title and the bracket are left out, the notes read as notes.
    @Test func aNotesTitleBetweenRulesOfStarsHeadsTheNotes() throws {
        let text = """
            CHAPTER I.

            The motto is an old one.[1] The tale goes on, and it is long enough to be a chapter of a book.


            ************ FOOTNOTES ******************

            ]

            [Footnote 1: The motto alludes to the stage.]
            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        let script = Self.script(book)
        #expect(script.contains("quote[1]: The motto alludes to the stage."), "\(script)")
        #expect(!script.contains { $0.contains("FOOTNOTES") }, "\(script)")
        #expect(book.skipped.contains { $0.reason == SkipReason.footnotesHeading && $0.text.contains("FOOTNOTES") })
    }

    /// A note nothing refers to (its marker was in a passage left out) is read at the end of its
    /// chapter, before the licence, never after it.
    @Test func aNoteNothingRefersToIsReadBeforeTheLicence() throws {
        let text = """
            *** START OF THIS PROJECT GUTENBERG EBOOK ROMANCE ***

            CHAPTER I.

            The tale goes on, and it is long enough to be a chapter of a book, with more words in it.


            FOOTNOTES

            [Footnote 1: The motto alludes to the stage.]

            End of the Project Gutenberg EBook of Romance, by Walter Scott

            Section 1. General Terms of Use
            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        let blocks = try #require(book.chapters.last).blocks
        let note = try #require(blocks.firstIndex { $0.text == "The motto alludes to the stage." }, "\(blocks.map(\.text))")
        let licence = try #require(book.skipped.first { $0.reason == SkipReason.gutenbergLicence })
        #expect((licence.beforeBlock ?? blocks.count) > note, "\(String(describing: licence.beforeBlock)) \(note)")
    }

    @Test func notesNamedOnlyByTheirIdsAreAnnouncedByTheirNumbers() throws {
        let html = """
            <html><head><title>Essays</title></head><body>
            <h2>CHAPTER I.</h2>
            <p>An essay on customs, with a note.<sup><a href="#note1">1</a></sup></p>
            <p>*** END OF THE PROJECT GUTENBERG EBOOK ESSAYS ***</p>
            <p>Updated editions will replace the previous one.</p>
            <div class="footnote" id="note1"><p>Customs change slowly.</p></div>
            <div class="footnote" id="note-xa"><p>A note nothing refers to.</p></div>
            </body></html>
            """
        let script = Self.script(try Self.readHTML(html))
        #expect(script.contains("quote[1]: Customs change slowly."), "\(script)")
        #expect(!script.contains { $0.contains("note1") || $0.contains("note-xa") })
        #expect(script.contains("paragraph: An essay on customs, with a note."), "the marker is silent")
        #expect(script.contains("quote[]: A note nothing refers to."))
    }

    /// Older Standard Ebooks editions give the note items no type of their own: the list's section says what they are.
    @Test(arguments: [#" epub:type="endnote""#, ""])
    func aStandardEbooksEndnotesFileIsNoChapter(itemType: String) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let chapter = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
            <head><title>Chapter 1</title></head><body epub:type="bodymatter">
            <section id="chapter-1" epub:type="chapter"><h2 epub:type="title">Chapter 1</h2>
            <p>And either master<a href="endnotes.xhtml#note-1" id="noteref-1" epub:type="noteref">1</a> the devil, or throw him out.</p>
            <p>The rest of the chapter goes on, long enough to be read as a chapter of its own.</p>
            </section></body></html>
            """
        let endnotes = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
            <head><title>Endnotes</title></head><body epub:type="backmatter">
            <section id="endnotes" epub:type="endnotes"><h2 epub:type="title">Endnotes</h2>
            <ol><li id="note-1"\(itemType)><p>A word is missing in the Second Quarto. <a href="chapter-1.xhtml#noteref-1" epub:type="backlink">↩</a></p></li></ol>
            </section></body></html>
            """
        let epub = dir.url.appendingPathComponent("book.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/chapter-1.xhtml", chapter), ("OEBPS/text/endnotes.xhtml", endnotes)],
                      nav: [("Chapter 1", "text/chapter-1.xhtml"), ("Endnotes", "text/endnotes.xhtml")])
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(book.chapters.map(\.title) == ["Chapter 1"], "\(book.chapters.map(\.title))")
        let script = Self.script(book)
        // Read at the chapter's end (`footnotes: chapter`, the default), announced by its marker's label.
        #expect(script == ["heading: Chapter 1", "paragraph: And either master the devil, or throw him out.",
                           "paragraph: The rest of the chapter goes on, long enough to be read as a chapter of its own.",
                           "quote[1]: A word is missing in the Second Quarto."], "\(script)")
        #expect(book.skipped.contains { $0.reason == SkipReason.footnotesHeading && $0.text == "Endnotes" })
    }
}
