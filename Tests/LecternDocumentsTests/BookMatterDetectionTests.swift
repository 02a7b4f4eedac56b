import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// The detectors of issue #13 on their own: ``BookMatter`` (front and back matter by its
/// semantics), ``OmittedParts`` (what the walker leaves out, with reasons) and
/// ``RunningFurniture`` (running heads and feet by repetition), and the readers with them.
struct BookMatterDetectionTests {
    static func body(_ inner: String) throws -> XMLNode {
        let xhtml = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head>\
            <body>\(inner)</body></html>
            """
        let tree = try XMLTree.xml(Data(xhtml.utf8), name: "test.xhtml")
        return try #require(tree.root?.first { $0.name == "body" })
    }

    @Test func typesRolesAndGuideNamesMapToTheirSide() {
        #expect(BookMatter(type: "title-page") == .titlePage)
        #expect(BookMatter(type: "acknowledgements") == .acknowledgments)
        #expect(BookMatter.marked(["frontmatter", "copyright-page"]) == .copyrightPage)
        #expect(BookMatter.marked(["toc"]) == nil, "a toc section is navigation")
        #expect(BookMatter.marked(["chapter"]) == nil)
        #expect(BookMatter.marked(["frontmatter", "colophon"]) == nil, "Moby-Dick's transcriber's notes are read")
        #expect(BookMatter.marked(["backmatter", "colophon"]) == .colophon)
        #expect(BookMatter.marked(["frontmatter", "acknowledgments"]) == .acknowledgments)
        #expect(BookMatter.index.side(afterBody: false) == .back)
        #expect(BookMatter.acknowledgments.side(afterBody: false) == .front)
        #expect(BookMatter.acknowledgments.side(afterBody: true) == .back)
        #expect(BookMatter.copyrightPage.skipReason(.init(), afterBody: true) == .matter("copyright page", side: "front"))
        #expect(BookMatter.copyrightPage.skipReason(.init(front: .read), afterBody: true) == nil)
        #expect(BookMatter.colophon.skipReason(.init(front: .read), afterBody: true) == .matter("colophon", side: "back"))
    }

    @Test func listedTextKeepsMarksApartFromTheWords() throws {
        let body = try Self.body(##"<p>a unit of currency.<a epub:type="noteref" href="#n1">1</a></p><span epub:type="pagebreak" title="12"/><img alt="A map"/>"##)
        #expect(BookMatter.listedText(body) == "a unit of currency. 1 12 A map")
    }

    @Test func omittedPartsGiveReasonsByRoleAndType() throws {
        let body = try Self.body("""
            <div role="doc-pageheader">Head</div><div role="doc-pagefooter">Foot</div>\
            <section role="doc-colophon"><p>Set in Garamond.</p></section>\
            <section epub:type="titlepage"><h1>A Title</h1><p>An Author</p></section><p>Text</p>
            """)
        var parts = OmittedParts()
        let reasons = body.elements.map { parts.reason(for: $0, keptText: false) }
        #expect(reasons == [.runningHead, .runningFoot, .matter("colophon", side: "back"), .matter("title page", side: "front"), nil])
        #expect(parts.titlePageTitle == "A Title")
        parts.matter = .init(front: .read, back: .read)
        let colophon = parts.reason(for: body.elements[2], keptText: true), head = parts.reason(for: body.elements[0], keptText: true)
        #expect(colophon == nil)
        #expect(head == .runningHead, "furniture is never read")
    }

    @Test func aLandmarkOnAHeadingLeavesOutItsSection() throws {
        let body = try Self.body("""
            <h1 id="t">Book</h1><h2 id="contents">Contents</h2><table><tr><td>I.</td></tr></table><p>More list</p>\
            <h2 id="one">One</h2><p>Story</p>
            """)
        var parts = OmittedParts()
        let found = parts.omitSection(id: "contents", in: body, reason: .matter("table of contents", side: "front"))
        #expect(found)
        let omitted = body.elements.map { parts.nodes[$0.pointer] != nil }
        #expect(omitted == [false, true, true, true, false, false])
        let missing = parts.omitSection(id: "missing", in: body, reason: .index)
        #expect(!missing)
    }

    static func chapter(_ head: String, _ heading: String, _ foot: String) -> String {
        "<div class=\"rh\">\(head)</div><section><h1 class=\"ct\">\(heading)</h1><p>Words of \(heading).</p></section><p class=\"rf\">\(foot)</p>"
    }

    @Test func runningHeadsAndFeetRepeatTheTitleOrAHeading() throws {
        let documents = try [
            Self.body("<h1>The Book</h1><p>By Someone</p>"),
            Self.body(Self.chapter("The Book", "Chapter 1. Arrival", "The Book 12")),
            Self.body(Self.chapter("Arrival", "Chapter 2. Arrival Again", "The Book 14")),
            Self.body(Self.chapter("The Book", "Chapter 3. Departure", "The Book 16")),
        ]
        let found = RunningFurniture.detect(documents, title: "The Book")
        for document in documents.dropFirst() {
            #expect(found[document.elements.first!.pointer] == .runningHead)
            #expect(found[document.elements.last!.pointer] == .runningFoot)
            #expect(found[document.elements[1].elements.first!.pointer] == nil, "the heading is read")
        }
        #expect(found.count == 6)
    }

    @Test func headingsInOneClassWithTextsOfTheirOwnAreNotFurniture() throws {
        let documents = try (1...4).map { n in
            try Self.body("<h1 class=\"ct\">Chapter \(n): \(["Arrival", "Storm", "Harbour", "Departure"][n - 1])</h1><p>Text \(n).</p>"
                          + "<p class=\"end\">\(["Fin.", "Onward.", "Later.", "The end."][n - 1])</p>")
        }
        #expect(RunningFurniture.detect(documents, title: "Chapter").isEmpty)
        // The same text at the foot of every document is furniture, though no heading says it.
        let repeated = try (1...3).map { n in try Self.body("<h1>Part \(n)</h1><p>Text \(n).</p><p class=\"f\">Harbourside Press</p>") }
        #expect(RunningFurniture.detect(repeated, title: nil).count == 3)
    }

    @Test func nearlyEqualIgnoresNumbersAndPunctuation() {
        let n = RunningFurniture.normalised
        #expect(RunningFurniture.nearlyEqual(n("The Book · 12"), n("The Book")))
        #expect(RunningFurniture.nearlyEqual(n("Loomings"), n("Chapter 1. Loomings.")))
        #expect(!RunningFurniture.nearlyEqual(n("The"), n("The Adventures of Sherlock Holmes")))
        #expect(!RunningFurniture.nearlyEqual(n("Storm"), n("Harbour")))
        #expect(RunningFurniture.shortens(n("Moby-Dick"), n("Moby-Dick; or, The Whale")))
        #expect(!RunningFurniture.shortens(n("Chapter 1: Arrival"), n("Chapter")), "a heading that adds to the title is its own")
    }

    @Test func anEPUBWithoutATitleTakesItFromItsTitlePageAndSkipsItsGuidesMatter() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        func page(_ body: String) -> String {
            "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>p</title></head><body>\(body)</body></html>"
        }
        let entries: [String: String] = [
            "META-INF/container.xml": """
                <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
                <rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
                """,
            "content.opf": """
                <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">\
                <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier></metadata>\
                <manifest><item id="t" href="t.html" media-type="application/xhtml+xml"/><item id="c" href="c.html" media-type="application/xhtml+xml"/>\
                <item id="k" href="k.html" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="t"/><itemref idref="c"/><itemref idref="k"/></spine>\
                <guide><reference type="title-page" href="t.html"/><reference type="colophon" href="k.html"/></guide></package>
                """,
            "t.html": page("<h1>Salt and Stone</h1><p>Ann Ode</p>"),
            "c.html": page("<h1>One</h1><p>The tide came in.</p>"),
            "k.html": page("<p>Set in Caslon by hand.</p>"),
        ]
        let spec = try dir.write("spec.json", bytes: Array(try JSONSerialization.data(withJSONObject: entries)))
        let epub = dir.url.appendingPathComponent("book.epub")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[2], "w") as z:
                z.writestr("mimetype", "application/epub+zip")
                for name, text in json.load(open(sys.argv[1])).items(): z.writestr(name, text, compress_type=zipfile.ZIP_DEFLATED)
            """, spec.path, epub.path]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0)
        let book = try EPUBReader().read(Source(url: epub, format: .epub)).book
        #expect(book.metadata.title == "Salt and Stone")
        #expect(book.chapters.flatMap(\.blocks).map(\.text) == ["One", "The tide came in."])
        #expect(book.skipped.map(\.reason) == [.matter("title page", side: "front"), .matter("colophon", side: "back")])
        #expect(book.skipped.map(\.text) == ["Salt and Stone Ann Ode", "Set in Caslon by hand."])
    }

    @Test func anHTMLFileSkipsItsMarkedMatterAndTakesTheTitleFromItsTitlePage() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let html = """
            <html><body><section role="doc-titlepage"><h1>Salt and Stone</h1><p>Ann Ode</p></section>\
            <section role="doc-acknowledgments"><p>Thanks to my editor.</p></section>\
            <h1>One</h1><p>The tide came in.</p>\
            <section role="doc-acknowledgments"><p>Thanks again, reader.</p></section>\
            <section role="doc-index"><h2>Index</h2><p>tide, 1</p></section></body></html>
            """
        let url = try dir.write("book.html", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html))
        #expect(book.metadata.title == "Salt and Stone")
        // The structure pass speaks a chapter's heading as a heading block of its own.
        #expect(book.chapters.map(\.title) == ["One"])
        #expect(book.chapters.flatMap(\.blocks).map(\.text) == ["One", "The tide came in."])
        #expect(book.chapters.flatMap(\.blocks).map(\.kind) == [.heading, .paragraph])
        #expect(book.skipped.map(\.reason) == [.matter("title page", side: "front"), .matter("acknowledgments", side: "front"),
                                               .matter("acknowledgments", side: "back"), .matter("index", side: "back")])
        var rules = ReadingRules()
        rules.matter = .init(front: .skip, back: .read)
        let back = try HTMLReader().read(Source(url: url, format: .html, rules: rules))
        #expect(back.chapters.flatMap(\.blocks).map(\.text) == ["One", "The tide came in.", "Thanks again, reader.", "Index", "tide, 1"])
    }
}
