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

    @Test func aBlockOfParagraphsWithTextBesideTheirLinksIsRead() throws {
        // Links inside running text are no contents list.
        let body = "<h1>A BOOK</h1><h2>CHAPTER I.</h2><blockquote>"
            + (1...4).map { "<p>As the <a href=\"#n\($0)\">note</a> says, the \($0). remark stands in a long line of running text here.</p>" }.joined()
            + "</blockquote>" + Self.scene(1)
        let book = try HTMLPage.body(body)
        #expect(book.chapters.first?.blocks.contains { $0.text.hasPrefix("As the note says, the 1. remark") } == true)
    }
}
