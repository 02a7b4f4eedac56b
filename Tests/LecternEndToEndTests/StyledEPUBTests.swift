import Foundation
import Testing
import LecternTesting

/// A publisher's EPUB 3 with no `h1`–`h6`: headings are classed `div`/`p`s styled by the book's
/// own CSS, the nav has three entries (cover, title page, "start reading"), and every page has a
/// running head and foot styled `display: oeb-page-head`/`oeb-page-foot`. Lectern finds the
/// headings and the chapters from what the book shows, and never reads the page furniture.
struct StyledEPUBTests {
    static let css = """
        /* the publisher's stylesheet */
        @font-face { font-family: "Book"; src: url(book.otf) }
        @page { margin: 1em }
        body { font-size: 1em; font-family: "Book", serif }
        p { text-indent: 1.2em; margin: 0 }
        div.sect1 > p.titre { font-size: 1.6em; font-weight: bold; text-align: center; text-transform: uppercase }
        .sect2 .titre { font-size: 1.25em; font-weight: 600 }
        .rh, .running-head { display: oeb-page-head }
        div.rf { display: oeb-page-foot }
        @media print { p.titre { font-size: 40pt } }
        """

    static let sections: [(title: String, subsections: [(String, String)])] = [
        ("The Harbour at Dawn", [("Nets and Ropes", "The fishermen mended their nets on the quay while the gulls wheeled overhead and the tide crept in."),
                                 ("A Letter", "Marguerite opened the letter slowly, reading each line twice before she dared to believe it.")]),
        ("The Long Road North", [("Leaving", "They left before the sun rose, the cart heavy with everything they owned and the road still wet."),
                                 ("The Inn", "At the inn the keeper gave them bread and soup and asked no questions about where they were going.")]),
        ("Winter in the Hills", [("Snow", "Snow fell for nine days without stopping and the village disappeared under it one roof at a time."),
                                 ("Spring Again", "When the thaw came at last the river ran brown and loud, and the children ran down to watch it.")]),
    ]

    static func page(_ title: String, _ body: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
        <head><title>\(title)</title><link rel="stylesheet" type="text/css" href="../Styles/book.css"/></head>
        <body>\(body)</body></html>
        """
    }

    /// The EPUB's entries; `ch*.xhtml` are the three sections, each a file the nav does not list.
    /// Two data tables with `th` headers, in the first two sections (for the whole-book test).
    static let tables: [Int: String] = [
        0: """
            <table class="data"><caption>Boats in the harbour</caption><thead><tr><th>Boat</th><th>Length</th><th>Crew</th></tr></thead>
            <tbody><tr><td>Marie-Louise</td><td>12 metres</td><td>four sailors</td></tr>
            <tr><td>Étoile</td><td>9 metres</td><td>two sailors</td></tr></tbody></table>
            """,
        1: """
            <table class="data"><thead><tr><th>Town</th><th>Distance</th><th>Inn</th></tr></thead>
            <tbody><tr><td>Saint-Malo</td><td>40 miles</td><td>The Anchor</td></tr>
            <tr><td>Dinan</td><td>65 miles</td><td>The Old Mill</td></tr>
            <tr><td>Rennes</td><td>110 miles</td><td>The Crown</td></tr></tbody></table>
            """,
    ]

    /// The copyright page of the whole-book test.
    static let copyright = """
        <section epub:type="copyright-page" class="copyright"><p>Copyright 2026 Anne Marchal. All rights reserved.</p>
        <p>Edited by Paul Girard; cover by Léa Morin.</p><p>ISBN 978-0-00-000000-1</p></section>
        """

    static func entries(whole: Bool = false) -> [(String, String)] {
        var files: [(String, String)] = []
        let container = """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        files.append(("META-INF/container.xml", container))
        var items = """
            <item id="css" href="Styles/book.css" media-type="text/css"/>
            <item id="nav" href="Text/nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="cover" href="Text/cover.xhtml" media-type="application/xhtml+xml"/>
            <item id="title" href="Text/title.xhtml" media-type="application/xhtml+xml"/>
            """
        var spine = #"<itemref idref="cover"/><itemref idref="title"/>"#
        if whole {
            items += #"<item id="copyright" href="Text/copyright.xhtml" media-type="application/xhtml+xml"/>"#
            spine += #"<itemref idref="copyright"/>"#
        }
        for i in sections.indices {
            items += #"<item id="ch\#(i + 1)" href="Text/ch\#(i + 1).xhtml" media-type="application/xhtml+xml"/>"#
            spine += #"<itemref idref="ch\#(i + 1)"/>"#
        }
        files.append(("OEBPS/content.opf", """
            <?xml version="1.0" encoding="utf-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:isbn:9780000000001</dc:identifier>
            <dc:title>Seasons of the Coast</dc:title><dc:creator>Anne Marchal</dc:creator><dc:language>en</dc:language>
            <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>
            <manifest>\(items)</manifest><spine>\(spine)</spine></package>
            """))
        files.append(("OEBPS/Styles/book.css", css))
        files.append(("OEBPS/Text/nav.xhtml", page("Contents", """
            <nav epub:type="toc" id="toc"><h1>Contents</h1><ol>
            <li><a href="cover.xhtml">Cover</a></li><li><a href="title.xhtml">Title Page</a></li>
            <li><a href="ch1.xhtml">Start Reading</a></li></ol></nav>
            """)))
        files.append(("OEBPS/Text/cover.xhtml", page("Cover", #"<div class="cover"><img src="cover.jpg" alt="Cover"/></div>"#)))
        files.append(("OEBPS/Text/title.xhtml", page("Title Page", """
            <div class="titlepage"><p class="booktitle">Seasons of the Coast</p><p class="author">Anne Marchal</p>
            <p>A novel in three seasons, first published by the Harbour Press, with every character invented.</p></div>
            """)))
        if whole { files.append(("OEBPS/Text/copyright.xhtml", page("Copyright", copyright))) }
        for (i, section) in sections.enumerated() {
            var body = #"<div class="rh">Seasons of the Coast</div>"#
            body += #"<div class="sect1" id="s\#(i + 1)"><p class="titre">\#(section.title)</p>"#
            body += "<p>Chapter \(i + 1) opens here, and the story of the coast goes on through the year as the seasons turn.</p>"
            if whole, let table = tables[i] { body += table }
            for (sub, text) in section.subsections {
                body += #"<div class="sect2"><p class="titre">\#(sub)</p><p>\#(text)</p></div>"#
            }
            body += #"</div><div class="rf">Page \#(i * 10 + 7)</div>"#
            files.append(("OEBPS/Text/ch\(i + 1).xhtml", page(section.title, body)))
        }
        return files
    }

    static func make(_ ws: Workspace, chapters: String? = nil, whole: Bool = false) throws -> (epub: URL, manifest: URL) {
        let epub = try HostileEPUBTests.epub(ws, "coast.epub", entries(whole: whole))
        let rule = chapters.map { ", chapters: \($0)" } ?? ""
        let manifest = try ws.write("coast.yml", "title: Seasons\nsources: [{path: coast.epub\(rule)}]\nvoice: { name: en-us }\n"
                                    + "pauses: { heading: { before: 0.5, after: 2.0 }, paragraph: { before: 0, after: 0.3 } }\n")
        return (epub, manifest)
    }

    @Test func headingsAndChaptersComeFromWhatTheBookShows() throws {
        let ws = try Workspace("styled-epub")
        let (epub, manifest) = try Self.make(ws)

        let check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let script = check.stdout
        for (i, section) in Self.sections.enumerated() {
            #expect(script.contains("=== Chapter \(i + 1): \(section.title) ==="), "\(script)")
            #expect(script.contains("  [heading] \(section.title)"), "\(script)")
            for (sub, _) in section.subsections { #expect(script.contains("  [section] \(sub)"), "a heading after the chapter's text opens a section") }
        }
        // The title page, short and with no heading of its own, is read at the start of chapter 1.
        #expect(!script.contains("=== Chapter 1: Title Page ==="))
        #expect(!script.contains("=== Chapter 4"))
        #expect(!script.contains("Start Reading"), "the coarse nav entry is split at the headings")
        #expect(!script.contains("=== Chapter 5"))
        #expect(script.components(separatedBy: "[skipped: running head] Seasons of the Coast").count - 1 == 3)
        for i in Self.sections.indices { #expect(script.contains("[skipped: running foot] Page \(i * 10 + 7)")) }

        let job = try RenderedJob.run(ws, manifest)
        let sidecarURL = job.mp3.deletingPathExtension().appendingPathExtension("timings.json")
        let sidecar = try Sidecar.load(sidecarURL)
        let expectedTitles: [String] = Self.sections.map { $0.title }
        let sidecarTitles: [String] = sidecar.chapters.map { $0.title }
        #expect(sidecarTitles == expectedTitles)
        let mp3Titles = try BookChecks.chapterTitles(job.mp3)
        #expect(mp3Titles == expectedTitles)
        for (i, section) in Self.sections.enumerated() {
            let paragraphs: [Sidecar.Paragraph] = Array(sidecar.chapters[i].paragraphs.drop { i == 0 && $0.kind != "heading" })
            #expect(paragraphs.first?.kind == "heading")
            #expect(paragraphs.first?.text == section.title)
            let headings: [String] = paragraphs.filter { $0.kind == "heading" }.map { $0.text }
            let expectedHeadings: [String] = [section.title] + section.subsections.map { $0.0 }
            #expect(headings == expectedHeadings)
            // The heading pause (2 s after a heading): from the heading's last word to the next paragraph's first.
            let last: Int = paragraphs[0].words.last?.start ?? 0
            let first: Int = paragraphs[1].words.first?.start ?? 0
            #expect(first - last >= 2_000, "heading pause \(first - last) ms")
        }
        let timed: String = sidecar.chapters.flatMap { $0.paragraphs }.map { $0.text }.joined(separator: " ")
        #expect(timed.components(separatedBy: "Seasons of the Coast").count == 2, "only the title page's title is timed, no running head")
        #expect(!timed.contains("Page 7"))
        #expect(!timed.contains("Page 17"))
        #expect(sidecar.skipped.filter { $0.reason == "running head" }.count == 3)
        #expect(sidecar.skipped.filter { $0.reason == "running foot" }.count == 3)
        BookChecks.expectWordCoverage(input: try IndependentText.of(epub).text, sidecar)
    }

    @Test func chaptersBySelectorOrLevelAndTheHeadingKeyIsRefused() throws {
        let ws = try Workspace("styled-epub-rules")
        var (_, manifest) = try Self.make(ws, chapters: #"{selector: "div.sect2 > p.titre"}"#)
        var check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let subs: [String] = Self.sections.flatMap { $0.subsections.map { $0.0 } }
        for (i, sub) in subs.enumerated() { #expect(check.stdout.contains("=== Chapter \(i + 2): \(sub) ==="), "\(check.stdout)") }
        #expect(!check.stdout.contains("=== Chapter \(subs.count + 2)"))

        (_, manifest) = try Self.make(ws, chapters: "{level: 2}")
        check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let titles: [String] = Self.sections.flatMap { [$0.title] + $0.subsections.map { $0.0 } }
        for (i, title) in titles.enumerated() { #expect(check.stdout.contains("=== Chapter \(i + 2): \(title) ==="), "\(check.stdout)") }

        (_, manifest) = try Self.make(ws, chapters: "{level: 1}")
        check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("=== Chapter 4: Winter in the Hills ===") && !check.stdout.contains("Chapter 5"))

        (_, manifest) = try Self.make(ws, chapters: #"{heading: "^Chapter"}"#)
        check = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(check.status != 0)
        #expect(check.stderr.contains("sources[1].chapters.heading"), "\(check.stderr)")
    }

    /// Issue #13's book whole: classed headings at two levels, a three-entry nav, running heads
    /// and feet, two data tables with `th` headers and a copyright page. Chapters at the top-level
    /// headings, titled by them; headings paused; no running head, foot or copyright text timed,
    /// all listed; every table row timed as one sentence spoken with its headers.
    @Test func thePublishersBookReadAsAReaderSeesIt() throws {
        let ws = try Workspace("publisher-epub")
        let (epub, manifest) = try Self.make(ws, whole: true)
        let check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let script = check.stdout
        for (i, section) in Self.sections.enumerated() { #expect(script.contains("=== Chapter \(i + 1): \(section.title) ==="), "\(script)") }
        #expect(script.contains("[skipped: copyright page"), "\(script)")
        #expect(!script.components(separatedBy: "\n").contains { !$0.hasPrefix("  [skipped") && $0.contains("ISBN") })
        // Rows spoken with their headers, in the script as espeak-ng will be given them.
        for row in ["Boat: Marie-Louise. Length: 12 metres. Crew: four sailors", "Town: Rennes. Distance: 110 miles. Inn: The Crown"] {
            #expect(script.contains(row), "\(row) missing from\n\(script)")
        }

        let job = try RenderedJob.run(ws, manifest)
        let sidecar = try Sidecar.load(job.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        #expect(sidecar.chapters.map(\.title) == Self.sections.map(\.title))
        let timed = sidecar.chapters.flatMap(\.paragraphs)
        #expect(!timed.contains { $0.text.contains("ISBN") || $0.text.contains("All rights reserved") })
        // The title page (not marked as one) is read; the running heads repeating its title are not.
        #expect(sidecar.chapters.flatMap(\.paragraphs).filter { $0.text == "Seasons of the Coast" }.count == 1)
        #expect(sidecar.skipped.contains { $0.reason.contains("copyright") && $0.text.contains("ISBN") })
        // Each of the five data rows is one timed paragraph holding its cells.
        for cells in [["Marie-Louise", "12 metres"], ["Étoile", "9 metres"], ["Saint-Malo", "40 miles"], ["Dinan", "65 miles"], ["Rennes", "110 miles"]] {
            #expect(timed.filter { p in cells.allSatisfy { p.text.contains($0) } }.count == 1, "\(cells)")
        }
        BookChecks.expectWordCoverage(input: try IndependentText.of(epub).text, sidecar)
    }
}
