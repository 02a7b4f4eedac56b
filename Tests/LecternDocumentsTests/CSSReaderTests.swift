import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// The CSS reader: the selector subset, the cascade of the properties narration uses, and hostile
/// stylesheets that must neither hang nor explode.
struct CSSReaderTests {
    static func tree(_ body: String, style: String = "") throws -> XMLTree {
        let xhtml = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><style>\(style)</style></head>\
            <body>\(body)</body></html>
            """
        return try XMLTree.xml(Data(xhtml.utf8), name: "test.xhtml")
    }

    static func element(_ tree: XMLTree, id: String) throws -> XMLNode {
        try #require(tree.root?.first { $0["id"] == id })
    }

    @Test func selectorsOfTheSubsetMatch() throws {
        let t = try Self.tree("""
            <div class="sect1 main" id="s1"><p class="titre" id="a">One</p><div><p class="titre" id="b">Deep</p></div></div>\
            <p class="titre" id="c" epub:type="title">Out</p><p lang="fr" id="d">Bonjour</p>
            """)
        let a = try Self.element(t, id: "a"), b = try Self.element(t, id: "b"), c = try Self.element(t, id: "c"), d = try Self.element(t, id: "d")
        let child = try #require(CSSSelector.parse("div.sect1 > p.titre"))
        #expect(child.matches(a) && !child.matches(b) && !child.matches(c))
        let descendant = try #require(CSSSelector.parse(".sect1 .titre"))
        #expect(descendant.matches(a) && descendant.matches(b) && !descendant.matches(c))
        #expect(CSSSelector.parse("#s1 p")?.matches(b) == true)
        #expect(CSSSelector.parse("div.main.sect1 > p")?.matches(a) == true)
        #expect(CSSSelector.parse("p[lang=fr]")?.matches(d) == true)
        #expect(CSSSelector.parse("p[lang='en']")?.matches(d) == false)
        #expect(CSSSelector.parse("[epub|type~=\"title\"]")?.matches(c) == true)
        #expect(CSSSelector.parse("*")?.matches(d) == true)
        let group = CSSSelector.parseList("h1, p.titre ,div > p#a")
        #expect(group.count == 3)
        #expect(CSSSelector.parse("#a")!.specificity > CSSSelector.parse("div.sect1 p.titre")!.specificity)
        // Outside the subset: the selector is dropped, never half-read.
        for unsupported in ["p:first-child", "h1 + p", "p ~ p", "a::before", "> p", "p >", "", "p..x", "p[", "p\\31"] {
            #expect(CSSSelector.parse(unsupported) == nil, "\(unsupported)")
        }
    }

    @Test func theCascadeWeighsOriginImportanceSpecificityAndOrder() throws {
        let css = """
            /* a comment { with braces } */
            @import url("other.css");
            @font-face { font-family: X; src: url(x.otf) }
            @media print { p { font-size: 50px } .x { display: none } }
            @page :first { margin: 0 }
            body { font-size: 12pt }
            p { font-size: 1em; font-weight: normal }
            .big { font-size: 150% }
            p.big { font-weight: 700 }
            #b { font-size: 2em }
            .big { font-size: 120% }
            p.small { font-size: small !important }
            #c { font-size: 3em }
            .rh { display: oeb-page-head } .rf { display: oeb-page-foot }
            .run { position: running(header) }
            div.title { text-transform: uppercase; text-align: center; font: bold 1.5em/1.2 serif }
            """
        let t = try Self.tree("""
            <p id="p">Body</p><p class="big" id="a">A</p><p class="big" id="b">B <span id="s">s</span></p>\
            <p class="small" id="c">C</p><div class="rh" id="h">Head</div><div class="rf" id="f">Foot</div>\
            <div class="run" id="r">Run</div><div class="title" id="t">T</div><h1 id="h1">H</h1><p style="font-size: 20px" id="i">I</p>
            """, style: css)
        let styles = CSSStyles(root: t.root!, sheets: CSSStyleSheet.sheets(of: t.root!) { _ in nil })
        func style(_ id: String) throws -> CSSStyles.Style { try #require(styles.style(Self.element(t, id: id))) }
        #expect(styles.bodySize == 16)
        #expect(try style("p").fontSize == 16)
        #expect(try style("a").fontSize == 16 * 1.2, "the later of two equal rules wins")
        #expect(try style("a").bold)
        #expect(try style("b").fontSize == 32, "an id beats classes")
        #expect(try style("s").fontSize == 32, "font size is inherited")
        #expect(try style("s").bold)
        #expect(try style("c").fontSize == 13, "!important beats an id")
        #expect(try style("h").display == "oeb-page-head")
        #expect(try style("f").display == "oeb-page-foot")
        #expect(try style("r").running)
        #expect(try style("t").textTransform == "uppercase" && style("t").textAlign == "center")
        #expect(try style("t").bold && style("t").fontSize == 24, "the font shorthand")
        #expect(try style("h1").fontSize == 32 && style("h1").bold, "the browser's defaults")
        #expect(try style("i").fontSize == 20, "a style attribute beats selectors")
        #expect(CSSStyles.fontSize("10pt", parent: 16) == 40.0 / 3)
        #expect(CSSStyles.fontSize("x-large", parent: 10) == 24)
        #expect(CSSStyles.fontSize("nonsense", parent: 10) == 10)
    }

    @Test func hostileStylesheetsStayBounded() throws {
        let clock = ContinuousClock()
        let start = clock.now
        // Unclosed blocks and comments, deep nesting, a flood of rules, a huge selector.
        _ = CSSStyleSheet(parsing: String(repeating: "{", count: 200_000))
        _ = CSSStyleSheet(parsing: "p { color: red } /* never closed " + String(repeating: "x", count: 100_000))
        _ = CSSStyleSheet(parsing: String(repeating: "@media a { ", count: 50_000))
        let flood = CSSStyleSheet(parsing: String(repeating: "p.a { font-size: 2em }\n", count: 100_000))
        #expect(flood.rules.count <= CSSStyleSheet.maxRules)
        #expect(CSSSelector.parse(Array(repeating: "div", count: 5_000).joined(separator: " ")) == nil)
        // Backtracking: many descendant combinators over a deep tree of matching elements.
        let deep = String(repeating: "<div>", count: 200) + "<p id=\"x\">x</p>" + String(repeating: "</div>", count: 200)
        let t = try Self.tree(deep)
        let selector = try #require(CSSSelector.parse(Array(repeating: "div", count: 13).joined(separator: " ") + " section p"))
        #expect(!selector.matches(try Self.element(t, id: "x")))
        let styles = CSSStyles(root: t.root!, sheets: [CSSStyleSheet(parsing: "div div div div div div div div div div p { font-size: 2em }")])
        #expect(styles.style(try Self.element(t, id: "x"))?.fontSize == 32)
        #expect(clock.now - start < .seconds(20))
    }

    @Test func aLongValidDescendantChainIsReadAndMatches() throws {
        // 300 nested sections, a paragraph at the bottom; the selector names every level.
        let deep = String(repeating: "<section>", count: 300) + "<p id=\"x\">x</p>" + String(repeating: "</section>", count: 300)
        let t = try Self.tree(deep)
        let chain = Array(repeating: "section", count: 300).joined(separator: " ") + " p"
        let selector = try #require(CSSSelector.parse(chain), "a 301-step descendant selector is one Lectern reads")
        #expect(selector.compounds.count == 301)
        #expect(selector.matches(try Self.element(t, id: "x")))
        let tooMany = try #require(CSSSelector.parse(Array(repeating: "section", count: 301).joined(separator: " ") + " p"))
        #expect(!tooMany.matches(try Self.element(t, id: "x")), "one level more than the tree has")
    }

    @Test func aSelectorErrorQuotesAtMost120CharactersOfIt() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = dir.url.appendingPathComponent("page.html")
        try Data("<html><body><h1>One</h1><p>Words.</p></body></html>".utf8).write(to: url)
        var source = Source(url: url, format: .html)
        let huge = "p:" + String(repeating: "x", count: 1 << 20)
        source.chapters.selector = huge
        do { _ = try HTMLReader().read(source); Issue.record("a 1 MB selector was accepted") } catch {
            let message = "\(error)"
            #expect(message.contains("\"p:" + String(repeating: "x", count: 118) + "…\" (\(huge.count) characters) is not a selector Lectern reads"),
                    "\(message.prefix(300))")
            #expect(message.count < 400, "the message is \(message.count) characters")
        }
        source.chapters.selector = "p:first-child"
        do { _ = try HTMLReader().read(source); Issue.record("accepted") } catch {
            #expect("\(error)".contains("\"p:first-child\" is not a selector Lectern reads"), "\(error)")
        }
    }

    static func structure(_ body: String, css: String, mode: HeadingDetector.Mode = .toc) throws -> (XMLTree, ShownStructure) {
        let t = try tree(body, style: css)
        let styles = CSSStyles(root: t.root!, sheets: CSSStyleSheet.sheets(of: t.root!) { _ in nil })
        return (t, HeadingDetector.find(in: [HeadingDetector.Document(root: t.root!, styles: styles, entryAtStart: true)], mode: mode))
    }

    static let text = "The morning was grey and the sea lay flat and quiet under a low sky, waiting for the wind to rise."

    @Test func classedBlocksThatLookLikeHeadingsAreRankedByFontSize() throws {
        let css = ".ct { font-size: 1.8em } .st { font-weight: bold } .note { font-weight: bold } .rh { display: oeb-page-head }"
        let body = """
            <div class="rh" id="rh">Running Head</div>\
            <p class="ct" id="c1">The First Part</p><p class="st" id="s1">Morning</p><p>\(Self.text)</p><p class="st" id="s2">Evening</p><p>\(Self.text)</p>\
            <p class="ct" id="c2">The Second Part</p><p class="st" id="s3">Night</p><p>\(Self.text)</p>\
            <p class="note" id="n1">This bold paragraph is a note that runs on for far more than a dozen words, as notes do.</p>\
            <p class="note" id="n2">Short.</p><p>\(Self.text)</p>
            """
        let (t, shown) = try Self.structure(body, css: css)
        func level(_ id: String) throws -> Int? { shown.headings[try Self.element(t, id: id).pointer] }
        #expect(try level("c1") == 1 && level("c2") == 1)
        #expect(try level("s1") == 2 && level("s2") == 2 && level("s3") == 2)
        #expect(try level("n1") == nil && level("n2") == nil, "a class used for long text is not a heading class")
        #expect(shown.skips[try Self.element(t, id: "rh").pointer] == .runningHead)
        #expect(shown.chapterStarts == Set([try Self.element(t, id: "c1").pointer, try Self.element(t, id: "c2").pointer]),
                "one table-of-contents entry covering two top-level headings is split at them")

        let (t2, byLevel) = try Self.structure(body, css: css, mode: .level(2))
        #expect(byLevel.chapterStarts.count == 5)
        _ = t2
        let (t3, bySelector) = try Self.structure(body, css: css, mode: .selector(CSSSelector.parseList("p.st")))
        #expect(bySelector.chapterStarts == Set(["s1", "s2", "s3"].map { try! Self.element(t3, id: $0).pointer }))
    }

    @Test func rolesAndTypesMakeHeadingsAndTagsOutrankClasses() throws {
        let body = """
            <h1 id="h">Book</h1><div role="heading" aria-level="3" id="r">Aside Title</div><p>\(Self.text)</p>\
            <p epub:type="subtitle" id="e">A subtitle</p><p>\(Self.text)</p>\
            <p class="x" id="x1">Big One</p><p>\(Self.text)</p><p class="x" id="x2">Big Two</p><p>\(Self.text)</p><p class="plain">\(Self.text)</p>
            """
        let (t, shown) = try Self.structure(body, css: ".x { font-size: 3em }")
        func level(_ id: String) throws -> Int? { shown.headings[try Self.element(t, id: id).pointer] }
        #expect(try level("r") == 3)
        #expect(try level("e") == 2)
        #expect(try level("x1") == 2 && level("x2") == 2, "in a book that tags headings, classes rank below its deepest tag")
        #expect(try level("h") == nil, "h1–h6 are the walker's own")
        #expect(shown.chapterStarts.isEmpty, "one top-level heading: nothing to split")
    }

    @Test func anHTMLFileTakesItsLinkedStylesheetAndASelector() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try Data(".chap { font-size: 2em; font-weight: bold } .rh { display: oeb-page-head }".utf8).write(to: dir.url.appendingPathComponent("book.css"))
        let html = """
            <html><head><title>Styled</title><link rel="stylesheet" href="book.css"></head><body>\
            <div class="rh">Styled Book</div><p class="chap">First Things</p><p>\(Self.text)</p>\
            <div class="rh">Styled Book</div><p class="chap">Second Things</p><p>\(Self.text)</p></body></html>
            """
        let url = dir.url.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: url)
        let book = try HTMLReader().read(Source(url: url, format: .html))
        #expect(book.chapters.map(\.title) == ["First Things", "Second Things"], "shown headings at level 1 start chapters")
        #expect(book.chapters.first?.blocks.first?.kind == .heading)
        #expect(book.skipped.filter { $0.reason == .runningHead }.map(\.text) == ["Styled Book", "Styled Book"])

        var source = Source(url: url, format: .html)
        source.chapters.selector = "p.nothing, body > p.chap"
        #expect(try HTMLReader().read(source).chapters.map(\.title) == ["First Things", "Second Things"])
        source.chapters.selector = "p:first-child"
        #expect(throws: ManifestError.self) { try HTMLReader().read(source) }
    }

    @Test func aTableOfContentsEntryPerHeadingIsNotSplit() throws {
        let body = """
            <h2><a id="one"/>One</h2><p>\(Self.text)</p><h2 id="two">Two</h2><p>\(Self.text)</p>\
            <h2>Three</h2><p>\(Self.text)</p><h2>Four</h2><p>\(Self.text)</p>
            """
        let t = try Self.tree(body)
        let styles = CSSStyles(root: t.root!, sheets: [])
        let document = HeadingDetector.Document(root: t.root!, styles: styles, entryAtStart: false, entryAnchors: ["one", "two"])
        let shown = HeadingDetector.find(in: [document], mode: .toc)
        let split = t.root!.all { $0.name == "h2" }.filter { shown.chapterStarts.contains($0.pointer) }.map(\.textContent)
        #expect(split == ["Two", "Three", "Four"], "only the entry covering three headings is split; an anchor inside a heading counts")
    }
}
