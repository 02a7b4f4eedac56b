import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// What comes before the first heading — a dedication, an epigraph — is read at the start of the
/// first chapter in every format, not as a chapter of its own; a Standard Ebooks–like EPUB's
/// chapters are titled as the book shows them and its volumes are parts.
struct UnheadedOpeningTests {
    /// A content document like Standard Ebooks': its `<title>` names the book, the section its type.
    static func document(_ title: String, _ type: String, _ body: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
        <head><title>\(title)</title></head><body epub:type="\(type == "chapter" || type == "part" ? "bodymatter" : "frontmatter")">\
        <section epub:type="\(type)">\(body)</section></body></html>
        """
    }

    static func prose(_ words: Int, _ seed: String) -> String {
        "<p>" + Array(repeating: "\(seed) walked along the quiet river", count: words / 6).joined(separator: " ") + ".</p>"
    }

    /// Dedication, half-title "Novel" holding Volume I (chapters I, II) and Volume II (chapter I).
    static func seLikeEPUB(_ dir: TempDir, dedication: String = "<p>To my dear friend, who heard this story first.</p>") throws -> URL {
        let url = dir.url.appendingPathComponent("novel.epub")
        let documents: [(path: String, xhtml: String)] = [
            ("OEBPS/dedication.xhtml", document("Dedication", "dedication", dedication)),
            ("OEBPS/halftitle.xhtml", document("Novel", "halftitlepage", "<h2>Novel</h2>")),
            ("OEBPS/volume-1.xhtml", document("Volume I", "part", "<h2>Volume I</h2>")),
            ("OEBPS/chapter-1-1.xhtml", document("Novel, I", "chapter", "<h2>I</h2>" + prose(120, "Anna"))),
            ("OEBPS/chapter-1-2.xhtml", document("Novel, II", "chapter", "<h2>II</h2>" + prose(120, "Ben"))),
            ("OEBPS/volume-2.xhtml", document("Volume II", "part", "<h2>Volume II</h2>")),
            ("OEBPS/chapter-2-1.xhtml", document("Novel, III", "chapter", "<h2>I</h2>" + prose(120, "Cora"))),
        ]
        let list = """
            <li><a href="dedication.xhtml">Dedication</a></li><li><a href="halftitle.xhtml">Novel</a><ol>\
            <li><a href="volume-1.xhtml">Volume I</a><ol><li><a href="chapter-1-1.xhtml">I</a></li><li><a href="chapter-1-2.xhtml">II</a></li></ol></li>\
            <li><a href="volume-2.xhtml">Volume II</a><ol><li><a href="chapter-2-1.xhtml">I</a></li></ol></li></ol></li>
            """
        try writeEPUB(url, documents: documents, nav: [], navList: list, title: "Novel")
        return url
    }

    @Test func aStandardEbooksLikeEPUBReadsVolumesAsPartsAndItsDedicationInTheFirstChapter() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let book = try EPUBReader().read(epubSource(try Self.seLikeEPUB(dir))).book
        // Not "Novel, I" (the book's title), not the file's <title>; the volume is the part.
        #expect(book.chapters.map(\.title) == ["Volume I, I", "Volume I, II", "Volume II, I"], "\(book.chapters.map(\.title))")
        #expect(book.chapters.map(\.part) == ["Volume I", "Volume I", "Volume II"])
        // The dedication is no chapter: it is read first in chapter I, before the volume's and the chapter's headings.
        let first = try #require(book.chapters.first)
        #expect(first.blocks.prefix(3).map(\.text) == ["To my dear friend, who heard this story first.", "Volume I", "I"], "\(first.pairs.prefix(4))")
        #expect(first.blocks.first?.kind != .heading)
    }

    @Test func aNumberedEntryUnderTheBooksOwnTitleIsTitledAsTheBookShowsIt() {
        #expect(EPUBPackage.title("IV", parent: "Emma", bookTitle: "Emma") == "IV")
        #expect(EPUBPackage.title("IV", parent: "Jane Eyre", bookTitle: "Jane Eyre: An Autobiography") == "IV")
        #expect(EPUBPackage.title("IV", parent: "Volume II", bookTitle: "Emma") == "Volume II, IV")
        #expect(EPUBPackage.part("Volume II", bookTitle: "Emma") == "Volume II")
        #expect(EPUBPackage.part("Emma", bookTitle: "Emma") == nil)
    }

    @Test func aLongUnheadedOpeningFileStaysAChapterOfItsOwn() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let book = try EPUBReader().read(epubSource(try Self.seLikeEPUB(dir, dedication: Self.prose(1_800, "Dora")))).book
        #expect(book.chapters.map(\.title) == ["Dedication", "Volume I, I", "Volume I, II", "Volume II, I"])
    }

    @Test func aTextsDedicationBeforeChapterOneIsReadAtTheStartOfChapterOne() throws {
        let text = """
            To my mother, who read to me every evening by the fire.


            CHAPTER I

            \(Array(repeating: "The morning was cold and the road was long.", count: 30).joined(separator: " "))


            CHAPTER II

            \(Array(repeating: "The evening was warm and the inn was full.", count: 30).joined(separator: " "))
            """
        // Headings by the source's pattern: the front-matter rules, which may list such a line as
        // part of the title page, do not apply; the line is read.
        let book = try PlainTextReader().read(text: text, source: textSource(heading: "^CHAPTER "))
        #expect(book.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II"], "\(book.chapters.map(\.title))")
        #expect(book.chapters[0].blocks.first?.text == "To my mother, who read to me every evening by the fire.", "\(book.chapters[0].pairs.prefix(3))")
        #expect(book.chapters[0].blocks.dropFirst().first?.text == "CHAPTER I")
    }

    @Test func aLongUnheadedFrameStoryBeforeChapterOneStaysAChapter() throws {
        let frame = Array(repeating: "The story had held us round the fire, and we listened to it until late.", count: 120).joined(separator: " ")
        let text = """
            \(frame)


            CHAPTER I

            \(Array(repeating: "The morning was cold and the road was long.", count: 30).joined(separator: " "))


            CHAPTER II

            \(Array(repeating: "The evening was warm and the inn was full.", count: 30).joined(separator: " "))
            """
        let book = try PlainTextReader().read(text: text, source: textSource(heading: "^CHAPTER "))
        #expect(book.chapters.map(\.title) == ["book", "CHAPTER I", "CHAPTER II"], "\(book.chapters.map(\.title))")
    }

    @Test func skippedPassagesKeepTheirPlacesWhenTheOpeningIsJoined() {
        var book = Book()
        book.chapters = [Chapter(title: "book", speaksTitle: false, blocks: [Block(kind: .paragraph, text: "To Anna.")], source: "b"),
                         Chapter(title: "One", blocks: [Block(kind: .paragraph, text: "First."), Block(kind: .paragraph, text: "Second.")], source: "b"),
                         Chapter(title: "Two", blocks: [Block(kind: .paragraph, text: "Third.")], source: "b")]
        book.skipped = [SkippedText(source: "b", chapter: 1, reason: .index, text: "a"), SkippedText(source: "b", chapter: 2, reason: .index, text: "b"),
                        SkippedText(source: "b", chapter: 3, reason: .index, text: "c")]
        book.skipped[0].beforeBlock = 1
        book.skipped[1].beforeBlock = 1
        book.skipped[2].beforeBlock = 0
        UnheadedOpening.join(&book)
        #expect(book.chapters.map(\.title) == ["One", "Two"])
        #expect(book.chapters[0].blocks.map(\.text) == ["To Anna.", "First.", "Second."])
        #expect(book.skipped.map(\.chapter) == [1, 1, 2])
        #expect(book.skipped.map(\.beforeBlock) == [1, 2, 0])
    }

    /// An EPUB's epigraph under a title of its own and its dedication, each a file with an entry in
    /// the table of contents (Standard Ebooks' `epigraph.xhtml`, `dedication.xhtml`), are the
    /// book's opening, read before chapter I's heading, as the plain text reads them: no chapters.
    @Test func anEPUBsTitledEpigraphAndDedicationAreTheOpeningNotChapters() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = dir.url.appendingPathComponent("island.epub")
        let documents: [(path: String, xhtml: String)] = [
            // (A title page, all of it left out, opens no chapter the epigraph would be read in.)
            ("OEBPS/titlepage.xhtml", Self.document("Titlepage", "titlepage", "<h1>Island</h1><p>By R. L. S.</p>")),
            ("OEBPS/epigraph.xhtml", Self.document("Epigraph", "epigraph z3998:poem",
                                                   "<h2>To the Hesitating Reader</h2><p>If sailor tales to sailor tunes,<br/>Storm and adventure, heat and cold,</p>")),
            ("OEBPS/dedication.xhtml", Self.document("Dedication", "dedication", "<p>To my dear friend, who heard this story first.</p>")),
            ("OEBPS/chapter-1.xhtml", Self.document("I", "chapter", "<h2>I</h2>" + Self.prose(120, "Anna"))),
            ("OEBPS/chapter-2.xhtml", Self.document("II", "chapter", "<h2>II</h2>" + Self.prose(120, "Ben"))),
        ]
        let list = """
            <li><a href="epigraph.xhtml">To the Hesitating Reader</a></li><li><a href="dedication.xhtml">Dedication</a></li>\
            <li><a href="chapter-1.xhtml">I</a></li><li><a href="chapter-2.xhtml">II</a></li>
            """
        try writeEPUB(url, documents: documents, nav: [], navList: list, title: "Island")
        let book = try EPUBReader().read(epubSource(url)).book
        #expect(book.chapters.map(\.title) == ["I", "II"], "\(book.chapters.map(\.title))")
        let texts = try #require(book.chapters.first).blocks.prefix(4).map(\.text)
        #expect(texts.first == "To the Hesitating Reader", "\(texts)")
        #expect(texts.dropFirst().first?.hasPrefix("If sailor tales") == true, "\(texts)")
        #expect(texts.dropFirst(2).first == "To my dear friend, who heard this story first.", "\(texts)")
        #expect(texts.last == "I", "\(texts)")
    }
}
