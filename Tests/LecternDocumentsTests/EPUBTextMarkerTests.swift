import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// Marking an EPUB's own XHTML for media overlays, on small EPUBs written by the tests; every
/// marked document is checked with Python's ElementTree.
struct EPUBTextMarkerTests {
    static let chapters = """
        <?xml version='1.0' encoding='utf-8'?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
        <!-- Two chapters in one file. -->
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" \
        xmlns:ssml="http://www.w3.org/2001/10/synthesis" xml:lang="en">
        <head><title>One</title><link rel="stylesheet" type="text/css" href="../css/book.css"/></head>
        <body>
        <section epub:type="chapter" id="c1">
        <h1>Chapter One</h1>
        <p id="intro">He said <i>yes. Then</i> left.</p>
        <p><i>Moby</i>-Dick is a <em class="x">whale</em>’s tale, <a href="#fn1" id="ref">told by <b>Ishmael</b> him</a>self.</p>
        <p>The sea&mdash;grey and <span ssml:ph="koʊld">cold</span>&mdash;rolled on.<a epub:type="noteref" href="#fn1">1</a> It did.</p>
        <aside epub:type="footnote" id="fn1"><p>A note about <i>the sea</i>.</p></aside>
        <p>* * *</p>
        <ul><li>First item, <strong>bold</strong></li><li>Second <a id="empty"></a>item</li></ul>
        </section>
        <section epub:type="chapter" id="c2">
        <h2>Chapter Two</h2>
        <p>A <q>red fox</q>es ran.</p>
        <p>Last <![CDATA[words here]]>.</p>
        </section>
        </body>
        </html>
        """
    static let clash = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Two</title></head>
        <body><div id="lw-w1"><p id="lw-s1">Clash test sentence one. Sentence two.</p>
        <p>Plain paragraph <span class="smallcaps">in small <b>caps,</b></span> here.</p></div></body></html>
        """

    /// The fixture book, its paragraphs (from the reader's own blocks) and the marked result.
    static func marked(_ dir: TempDir, rules: ReadingRules = ReadingRules(), stylesheet: String? = nil,
                       extra: [NarratedParagraph] = []) throws -> (epub: URL, paragraphs: [NarratedParagraph], marked: MarkedEPUB) {
        let epub = dir.url.appendingPathComponent("marks.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/ch1.xhtml", chapters), ("OEBPS/ch2.xhtml", clash)],
                      nav: [("Chapter One", "text/ch1.xhtml#c1"), ("Chapter Two", "text/ch1.xhtml#c2"), ("Clash", "ch2.xhtml")])
        let source = epubSource(epub, rules: rules)
        let book = try EPUBReader().read(source).book
        let paragraphs = book.chapters.flatMap(\.blocks).compactMap { NarratedParagraph.narrated($0.text) } + extra
        return (epub, paragraphs, try EPUBTextMarker(source: source).mark(paragraphs, stylesheet: stylesheet))
    }

    @Test func everyParagraphSentenceAndWordGetsAnIDHoldingExactlyItsText() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (epub, paragraphs, marked) = try Self.marked(dir)
        #expect(paragraphs.map(\.text) == [
            "Chapter One", "He said yes. Then left.", "Moby-Dick is a whale’s tale, told by Ishmael himself.",
            "The sea—grey and cold—rolled on. It did.", "First item, bold", "Second item", "A note about the sea.",
            "Chapter Two", "A red foxes ran.", "Last words here.", "Clash test sentence one. Sentence two.",
            "Plain paragraph in small caps, here.",
        ])
        #expect(marked.placements.allSatisfy { $0 != nil })
        let expectations = MarkExpectations(paragraphs, marked.placements)
        // "foxes" starts inside <q>, which cannot be split without doubling its quotation marks.
        #expect(expectations.unmarkedWords == ["foxes"])
        #expect(expectations.unmarkedSentences == 0)
        expectations.verify(try ElementTree.check(marked, epub: epub, ids: expectations.ids, in: dir.url))
        #expect(Set(marked.documents.keys) == ["OEBPS/text/ch1.xhtml", "OEBPS/ch2.xhtml"])
    }

    @Test func wordsAndSentencesCrossingInlineElementsSplitThemAlongTheBoundary() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (_, _, marked) = try Self.marked(dir)
        let xhtml = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        // "He said <i>yes. Then</i> left.": <i> is split between the sentences, both halves kept italic.
        #expect(xhtml.contains(#"<p id="intro"><span id="lw-s2"><span id="lw-w3">He</span> <span id="lw-w4">said</span> <i>"#
                               + #"<span id="lw-w5">yes.</span></i></span><i> </i><span id="lw-s3"><i><span id="lw-w6">Then</span></i> "#
                               + #"<span id="lw-w7">left.</span></span></p>"#), "\(xhtml)")
        // "<i>Moby</i>-Dick" is one word; the link is split before "him", its id on the first half only.
        #expect(xhtml.contains(#"<span id="lw-w8"><i>Moby</i>-Dick</span>"#), "\(xhtml)")
        #expect(xhtml.contains(##"<a href="#fn1" id="ref"><span id="lw-w13">told</span> <span id="lw-w14">by</span> <b>"##
                               + ##"<span id="lw-w15">Ishmael</span></b> </a><span id="lw-w16"><a href="#fn1">him</a>self.</span>"##), "\(xhtml)")
        #expect(xhtml.components(separatedBy: #"id="ref""#).count == 2)
        // A word inside an ssml:ph element is marked inside it; the element is never split.
        #expect(xhtml.contains(#"<span ssml:ph="koʊld"><span id="lw-w21">cold</span></span>"#), "\(xhtml)")
    }

    @Test func aParagraphIsMarkedByItsOwnElementKeepingItsID() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (_, paragraphs, marked) = try Self.marked(dir)
        let placement = { (text: String) in marked.placements[paragraphs.firstIndex { $0.text == text }!] }
        #expect(placement("He said yes. Then left.")?.id == "intro")
        #expect(placement("Clash test sentence one. Sentence two.")?.id == "lw-s1")
        #expect(placement("Clash test sentence one. Sentence two.")?.document == "OEBPS/ch2.xhtml")
        // New ids skip those the document has (lw-s1 on the paragraph, lw-w1 on its div).
        #expect(placement("Clash test sentence one. Sentence two.")?.sentences.map(\.id) == ["lw-s2", "lw-s3"])
        #expect(placement("Clash test sentence one. Sentence two.")?.sentences.first?.words.first == "lw-w2")
        let ch1 = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        // Headings and list items get an id; a paragraph with a footnote reference in it is wrapped in a span.
        let heading = try #require(placement("Chapter One")?.id)
        #expect(ch1.contains(#"<h1 id="\#(heading)">"#))
        let item = try #require(placement("Second item")?.id)
        #expect(ch1.contains(#"<li id="\#(item)">"#))
        let sea = try #require(placement("The sea—grey and cold—rolled on. It did.")?.id)
        #expect(ch1.contains(#"<p><span id="\#(sea)"><span id="lw-s5"><span id="lw-w17">The</span>"#))
    }

    @Test func aFootnoteReadAfterItsParagraphIsMarkedWhereItIs() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (epub, paragraphs, marked) = try Self.marked(dir, rules: ReadingRules(footnotes: .paragraph))
        let texts = paragraphs.map(\.text)
        let note = try #require(texts.firstIndex(of: "A note about the sea."))
        #expect(texts[note - 1] == "The sea—grey and cold—rolled on. It did.", "read right after the paragraph referring to it")
        #expect(marked.placements.allSatisfy { $0 != nil })
        let placement = try #require(marked.placements[note])
        let xhtml = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        #expect(xhtml.contains(#"<aside epub:type="footnote" id="fn1"><p id="\#(placement.id)">"#), "\(xhtml)")
        let expectations = MarkExpectations(paragraphs, marked.placements)
        expectations.verify(try ElementTree.check(marked, epub: epub, ids: expectations.ids, in: dir.url))
    }

    @Test func aBlockWithoutWordsIsPassedOverAndAnUnknownParagraphIsNotPlaced() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let stray = NarratedParagraph.narrated("Nowhere in the book.")!
        let (_, paragraphs, marked) = try Self.marked(dir, extra: [stray])
        #expect(!paragraphs.contains { $0.text == "* * *" })
        #expect(marked.placements.count == paragraphs.count)
        #expect(marked.placements.dropLast().allSatisfy { $0 != nil })
        #expect(marked.placements.last! == nil)
        let xhtml = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        #expect(xhtml.contains("<p>* * *</p>"), "the punctuation-only block is left alone")
    }

    @Test func aTracedReadFindsTheSameBookAndEachUnitsOriginHoldsThatUnit() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (epub, _, _) = try Self.marked(dir)
        try expectFaithfulTrace(epubSource(epub))
    }

    @Test func paragraphsAndBlocksAreMatchedInOrderWithoutAStrayOneThrowingTheRestOutOfStep() {
        // "*" is a block without words; "x" is no block; a title "t" spoken first also ends the book.
        #expect(EPUBTextMarker.align(["a", "x", "b", "c"], ["a", "b", "*", "c"]) == [0, nil, 1, 3])
        #expect(EPUBTextMarker.align(["t", "a", "b", "c", "t"], ["a", "b", "c", "t"]) == [nil, 0, 1, 2, 3])
        // Paragraphs of another source among these, and a repeated text.
        #expect(EPUBTextMarker.align(["a", "z1", "b", "z2", "a", "c"], ["a", "b", "*", "a", "c"]) == [0, nil, 1, nil, 3, 4])
        #expect(EPUBTextMarker.align([], ["a"]) == [])
    }

    @Test func theDeclarationDoctypeCommentsNamespacesAndEntitiesAreKept() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (_, _, marked) = try Self.marked(dir)
        let xhtml = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        #expect(xhtml.hasPrefix("""
            <?xml version='1.0' encoding='utf-8'?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
            <!-- Two chapters in one file. -->
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" \
            xmlns:ssml="http://www.w3.org/2001/10/synthesis" xml:lang="en">
            """), "\(xhtml.prefix(400))")
        #expect(xhtml.contains("&mdash;"))
        #expect(xhtml.contains(#"<span id="lw-w42"><![CDATA[words]]></span><![CDATA[ ]]><span id="lw-w43"><![CDATA[here]]>.</span>"#),
                "a CDATA section is split like text")
        #expect(xhtml.contains(#"<a id="empty"></a>"#), "an empty element keeps its end tag")
        #expect(xhtml.contains(#"<link rel="stylesheet" type="text/css" href="../css/book.css"/>"#), "a void element stays self-closed")
        let ch2 = String(decoding: try #require(marked.documents["OEBPS/ch2.xhtml"]), as: UTF8.self)
        #expect(ch2.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n<html"))
    }

    @Test func theStylesheetIsLinkedRelativeToEachDocument() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (_, _, marked) = try Self.marked(dir, stylesheet: "lectern/overlay.css")
        let ch1 = String(decoding: try #require(marked.documents["OEBPS/text/ch1.xhtml"]), as: UTF8.self)
        let ch2 = String(decoding: try #require(marked.documents["OEBPS/ch2.xhtml"]), as: UTF8.self)
        #expect(ch1.contains(#"<link rel="stylesheet" type="text/css" href="../../lectern/overlay.css"/></head>"#))
        #expect(ch2.contains(#"<link rel="stylesheet" type="text/css" href="../lectern/overlay.css"/></head>"#))
        #expect(EPUBTextMarker.relativeHref(from: "OEBPS/ch1.xhtml", to: "OEBPS/css/a b.css") == "css/a%20b.css")
        #expect(EPUBTextMarker.relativeHref(from: "ch1.xhtml", to: "overlay.css") == "overlay.css")
        #expect(EPUBTextMarker.relativeHref(from: "a/b/c.xhtml", to: "a/d/e.css") == "../d/e.css")
    }

    @Test func aNonUTF8DeclarationIsRewrittenAndNoneStaysNone() {
        #expect(EPUBTextMarker.declaration(of: Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><html/>"#.utf8))
                == #"<?xml version="1.0" encoding="UTF-8"?>"#)
        #expect(EPUBTextMarker.declaration(of: Data("\u{FEFF}<?xml version=\"1.0\" standalone=\"yes\"?><html/>".utf8))
                == #"<?xml version="1.0" standalone="yes"?>"#)
        #expect(EPUBTextMarker.declaration(of: Data("<html/>".utf8)) == nil)
    }
}
