import Testing
@testable import LecternDocuments

/// An HTML contents list laid out in paragraphs of links (`<blockquote><p class="toc"><a
/// href="#act1">ACT I.</a></p>…`, as many Project Gutenberg plays have it) is skipped as a
/// contents list, as a table or list of links is: its last entries open no chapter.
struct ParagraphContentsTests {
    static func scene(_ n: Int) -> String {
        (1...6).map { "<p>The \($0). speech of scene \(n) goes on, and the play goes on with it for a while yet.</p>" }.joined()
    }

    @Test func aBlockOfLinkParagraphsIsAContentsList() throws {
        let toc = ["ACT I.", "SCENE I.", "SCENE II.", "ACT II.", "SCENE I.", "FOOTNOTES."].enumerated()
            .map { "<p class=\"toc\"><a href=\"#l\($0.offset)\">\($0.element)</a></p>" }.joined()
        let body = "<h1>THE PLAY</h1><blockquote>\(toc)</blockquote>"
            + "<h2 id=\"l0\">ACT I.</h2><h3 id=\"l1\">SCENE I.</h3>\(Self.scene(1))<h3 id=\"l2\">SCENE II.</h3>\(Self.scene(2))"
            + "<h2 id=\"l3\">ACT II.</h2><h3 id=\"l4\">SCENE I.</h3>\(Self.scene(3))"
        let book = try HTMLPage.body(body)
        #expect(book.chapters.map(\.title) == ["SCENE I.", "SCENE II.", "SCENE I."], "\(book.chapters.map(\.title))")
        #expect(book.skipped.contains { $0.text.hasPrefix("ACT I. SCENE I. SCENE II.") })
    }

    /// A contents table whose page numbers (`17.`) and their column's header (`Bladz.`) stand
    /// beside the links is a contents list all the same, skipped as one.
    @Test func aTableOfLinksWithPageNumbersIsAContentsList() throws {
        let entries = ["AFSCHEID", "AAN DE NOORDZEE", "EEN EERSTE STORM", "PORTSMOUTH BINNEN"]
        let rows = entries.enumerated().map { n, title in
            "<tr><td><a href=\"#c\(n)\">\(title)</a></td><td class=\"right\">\(n * 17 + 103).</td></tr>"
        }.joined()
        let chapters = entries.enumerated().map { n, title in "<h2 id=\"c\(n)\">\(title).</h2>" + Self.scene(n) }.joined()
        let body = "<h1>ONTBOEZEMINGEN</h1><h2>INHOUD.</h2><h3>OP ZEE.</h3><table><tr><td></td><td>Bladz.</td></tr>\(rows)</table>\(chapters)"
        let book = try HTMLPage.body(body)
        #expect(book.skipped.contains { $0.text.contains("AFSCHEID") && $0.text.contains("PORTSMOUTH BINNEN") }, "\(book.skipped.map(\.text))")
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.text.contains("NOORDZEE 120") })
    }

    /// A table whose every row links to a heading of the book by its numeral alone, the title
    /// beside the link (`<td><a href="#VANCOUVER">I.</a></td><td>Vancouver</td>`, the notes listed
    /// under `HISTORICAL NOTES.` after the contents), is a contents list: left out, not read.
    @Test func aTableOfNumeralsLinkedToHeadingsIsAContentsList() throws {
        let notes = ["Vancouver", "The Oregon Trail", "Governor Stevens"]
        let numerals = ["I.", "II.", "III."]
        let rows = notes.indices.map { "<tr><td><a href=\"#n\($0)\"><b>\(numerals[$0])</b></a></td><td>\(notes[$0])</td></tr>" }.joined()
        let sections = notes.indices.map { "<h2>\(numerals[$0])</h2><h3><a name=\"n\($0)\" id=\"n\($0)\"></a>\(notes[$0].uppercased()).</h3>" + Self.scene($0) }
        let body = "<h1>A TALE</h1><h2>HISTORICAL NOTES.</h2><table>\(rows)</table><h2>CHAPTER I.</h2>\(Self.scene(9))"
            + "<h2>HISTORICAL NOTES.</h2>" + sections.joined()
        let book = try HTMLPage.body(body)
        let texts = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(!texts.contains("Vancouver") && !texts.contains("I.; Vancouver") && !texts.contains { $0.hasPrefix("I. Vancouver") }, "\(texts.prefix(8))")
        #expect(book.skipped.contains { $0.text.contains("Vancouver") && $0.text.contains("Governor Stevens") }, "\(book.skipped.map(\.text))")
    }

    @Test func aBlockOfParagraphsWithTextBesideTheirLinksIsRead() throws {
        // Links inside running text are no contents list.
        let body = "<h1>A BOOK</h1><h2>CHAPTER I.</h2><blockquote>"
            + (1...4).map { "<p>As the <a href=\"#n\($0)\">note</a> says, the \($0). remark stands in a long line of running text here.</p>" }.joined()
            + "</blockquote>" + Self.scene(1)
        let book = try HTMLPage.body(body)
        #expect(book.chapters.first?.blocks.contains { $0.text.hasPrefix("As the note says, the 1. remark") } == true)
    }

    /// A contents list set in one paragraph, each entry a link and its chapter's argument, entries
    /// apart by empty lines (`<a href="#c18">CHAPTER XVIII.</a><br> Col. Grangerford.…<br><br>`), is one
    /// list: its empty lines part no stanzas, so no entry of it (an argument on two long lines looks
    /// like prose and would end the list) becomes a chapter.
    @Test func aParagraphOfLinksApartByEmptyLinesIsOneContentsList() throws {
        let numerals = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]
        let toc = numerals.enumerated().map { n, r in
            "<a href=\"#c\(n)\">CHAPTER \(r).</a><br> The \(n + 1). Argument.&mdash;An Astronomical Theory.&mdash;Running a Temperance<br>"
                + " Revival.&mdash;The Duke of Bridgewater.&mdash;The Troubles of Royalty.<br><br>"
        }.joined()
        let chapters = numerals.enumerated().map { n, r in
            "<p><a id=\"c\(n)\"></a><br><br><br><br> CHAPTER \(r).</p>" + ParagraphContentsTests.scene(n)
        }.joined()
        let book = try HTMLPage.body("<h1>A BOOK</h1><h2>CONTENTS</h2><p>\(toc)</p><hr>\(chapters)")
        // Twelve chapters, each titled from its entry (the list is the book's contents), none from the list itself.
        #expect(book.chapters.map { $0.title.components(separatedBy: " The ").first! } == numerals.map { "CHAPTER \($0)." },
                "\(book.chapters.map(\.title))")
        #expect(book.chapters.allSatisfy { $0.blocks.contains { $0.text.hasPrefix("The 1. speech of scene") } })
    }
}
