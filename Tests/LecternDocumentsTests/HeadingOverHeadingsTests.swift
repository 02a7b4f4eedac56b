import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A heading with no prose of its own over deeper headings is the chapter, with the deeper
/// headings as its sections (issue 39, item 2) — never a chapter of a few words followed by a
/// chapter for each of its pieces. Nested pieces that are the book's chapter series (scenes
/// numbered again under each act) stay chapters.
struct HeadingOverHeadingsTests {
    static let prose = "<p>Heartbreak House is not merely the name of the play which follows this preface. It is cultured, leisured Europe before the war, and the play was begun before a shot had been fired.</p>"

    static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
        <head><title>Piece</title></head><body epub:type="bodymatter">\(body)</body></html>
        """
    }

    /// Each chapter's title and its heading blocks, a section's marked `*`.
    static func outline(_ book: Book) -> [String] {
        book.chapters.map { chapter in
            chapter.title + ": " + chapter.blocks.indices.filter { chapter.blocks[$0].kind == .heading }
                .map { chapter.blocks[$0].text + (chapter.opensSection(at: $0) ? "*" : "") }.joined(separator: ", ")
        }
    }

    /// A preface whose title stands over titled pieces, each listed under it in the navigation:
    /// one chapter with its pieces as sections, then the play's act.
    @Test func aPrefaceOverTitledPiecesIsOneChapterInEPUB() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let pieces = ["Where the House Stands", "The Inhabitants", "Horseback Hall"]
        let sections = pieces.enumerated().map { #"<section id="s\#($0.offset)"><h3 epub:type="title">\#($0.element)</h3>\#(Self.prose)</section>"# }
        let preface = Self.document(#"<section id="preface" epub:type="preface"><h2 epub:type="title">House and Hall</h2>"# + sections.joined() + "</section>")
        let act = Self.document(#"<section id="act-1" epub:type="chapter"><h2 epub:type="title">Act I</h2>"# + Self.prose + "</section>")
        let nav = #"<li><a href="text/preface.xhtml">House and Hall</a><ol>"#
            + pieces.indices.map { #"<li><a href="text/preface.xhtml#s\#($0)">\#(pieces[$0])</a></li>"# }.joined() + "</ol></li>"
            + #"<li><a href="text/act-1.xhtml">Act I</a></li>"#
        let epub = dir.url.appendingPathComponent("house.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/preface.xhtml", preface), ("OEBPS/text/act-1.xhtml", act)], nav: [], navList: nav)
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(Self.outline(book) == [
            "House and Hall: House and Hall, Where the House Stands, The Inhabitants*, Horseback Hall*",
            "Act I: Act I",
        ], "\(Self.outline(book))")
    }

    /// Scenes numbered again under each act, listed under it in one file, are the play's chapters.
    @Test func scenesListedUnderTheirActsStayChaptersInEPUB() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var documents: [(path: String, xhtml: String)] = []
        var nav = ""
        for act in ["I", "II"] {
            let scenes = ["I", "II"].map { #"<section id="act-\#(act)-scene-\#($0)"><h3>Scene \#($0)</h3>\#(Self.prose)</section>"# }
            documents.append(("OEBPS/text/act-\(act).xhtml", Self.document(#"<section id="act-\#(act)"><h2>Act \#(act)</h2>"# + scenes.joined() + "</section>")))
            nav += #"<li><a href="text/act-\#(act).xhtml">Act \#(act)</a><ol>"#
                + ["I", "II"].map { #"<li><a href="text/act-\#(act).xhtml#act-\#(act)-scene-\#($0)">Scene \#($0)</a></li>"# }.joined() + "</ol></li>"
        }
        let epub = dir.url.appendingPathComponent("play.epub")
        try writeEPUB(epub, documents: documents, nav: [], navList: nav)
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(book.chapters.count == 4, "\(Self.outline(book))")
    }
}

/// The opening chapter keeps its own heading, and a heading over a part's opening is no chapter
/// (issue 39, items 2 and 3).
struct OpeningHeadingTests {
    static let sentence = "The house is not merely the name of the play which follows this preface, but cultured and leisured Europe before the war."

    static func prose(_ paragraphs: Int) -> String {
        (0..<paragraphs).map { _ in Array(repeating: sentence, count: 4).joined(separator: " ") }.joined(separator: "\n\n")
    }

    /// A long preface under the title page's lines, titled by a line in capitals over its first
    /// section: the chapter is named by that line, not by the file.
    @Test func aLongOpeningIsNamedByItsOwnHeadingNotTheFile() throws {
        let text = """
            THE HOUSE

            By A. Playwright



            HOUSE AND HALL


            Where the House Stands

            \(Self.prose(20))



            ACT I

            \(Self.prose(2))



            ACT II

            \(Self.prose(2))

            """
        let book = try PlainTextReader().read(text: text, source: textSource("house.txt"))
        #expect(book.chapters.map(\.title) == ["HOUSE AND HALL", "ACT I", "ACT II"], "\(book.chapters.map(\.title))")
    }

    /// The opening's title is found only among its heading and capitals lines over prose.
    @Test func anOpeningTitleIsTheLastHeadingOverItsFirstProse() {
        func block(_ text: String, _ kind: BlockKind = .paragraph) -> Block { Block(kind: kind, text: text) }
        let long = Self.sentence
        let headed = Chapter(title: "file", speaksTitle: false, blocks: [
            block("THE HOUSE", .heading), block("By A. Playwright", .heading), block("HOUSE AND HALL", .heading),
            block("Where the House Stands"), block(long)], source: "f")
        #expect(OpeningTitle.title(of: headed) == "HOUSE AND HALL")
        let dedicated = Chapter(title: "file", speaksTitle: false, blocks: [block(long), block("INTRODUCTION.", .heading), block(long)], source: "f")
        #expect(OpeningTitle.title(of: dedicated) == "INTRODUCTION.")
        let plain = Chapter(title: "file", speaksTitle: false, blocks: [block("THE HOUSE"), block("BY A. PLAYWRIGHT"), block(long)], source: "f")
        #expect(OpeningTitle.title(of: plain) == "THE HOUSE")
        let none = Chapter(title: "file", speaksTitle: false, blocks: [block(long), block("A LATER LINE"), block(long)], source: "f")
        #expect(OpeningTitle.title(of: none) == nil)
    }

    /// A volume's heading over a date, then the first book (a part) and its chapters: the volume's
    /// lines open the part's first chapter; no chapter of three words.
    @Test func aHeadingOverADateBeforeAPartOpensThePart() throws {
        let text = """
            Tome I--FANTINE

            (1862)



            Livre premier--Un juste



            Chapitre I

            Monsieur Myriel

            \(Self.prose(2))



            Chapitre II

            Monsieur Myriel devient monseigneur Bienvenu

            \(Self.prose(2))



            Livre deuxième--La chute



            Chapitre I

            La soirée d'un jour de marche

            \(Self.prose(2))

            """
        let book = try PlainTextReader().read(text: text, source: textSource("tome.txt"))
        #expect(book.chapters.count == 3, "\(book.chapters.map(\.title))")
        #expect(book.chapters.first?.blocks.first?.text == "Tome I--FANTINE", "\(book.chapters.first?.blocks.map(\.text).prefix(3) ?? [])")
    }
}
