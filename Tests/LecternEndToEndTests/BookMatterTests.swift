import Foundation
import Testing
import LecternTesting

/// Issue #13: a publisher's EPUB 3 with a title page, a copyright page, running heads and feet
/// on every chapter document and an index is read as its three chapters: the rest is listed as
/// skipped with its reason, every word accounted for; `matter: { front: read, back: read }`
/// reads the front and back matter. A chapter heading that opens every document in the same
/// class is not taken for a running head.
struct BookMatterTests {
    static let title = "The Lantern Keeper"
    static let chapters = [
        ("ch1.xhtml", "Chapter One. The Tower", "Mira climbed the hundred steps before dawn and trimmed the wick.",
         "Below her the fishing boats waited for the fog to lift."),
        ("ch2.xhtml", "Chapter Two. The Bell", "At noon the harbour bell rang twice, which meant a stranger had come ashore.",
         "Mira watched him walk the quay with a sailor's uneven gait."),
        ("ch3.xhtml", "Chapter Three. The Storm", "The storm broke after supper and shook every shutter in the village.",
         "By morning the stranger was gone, and so was the rowing boat."),
    ]

    static func xhtml(_ title: String, _ body: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
        <head><title>\(title)</title><link rel="stylesheet" href="style.css" type="text/css"/></head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    /// The publisher's book: front matter, three chapters with running heads and feet (the third
    /// with `role="doc-pageheader"` instead of the class), an index; landmarks in the nav.
    static func publisherEntries() -> [(String, String)] {
        var entries: [(String, String)] = []
        entries.append(("OEBPS/title.xhtml", xhtml(title, """
            <section epub:type="frontmatter titlepage" class="titlepage">
              <h1 class="booktitle">\(title)</h1>
              <p class="subtitle">A Novel</p>
              <p class="author">Ada Quill</p>
              <p class="publisher">Harbourside Press · Falmouth</p>
            </section>
            """)))
        entries.append(("OEBPS/copyright.xhtml", xhtml("Copyright", """
            <section epub:type="frontmatter copyright-page" class="copyright">
              <p>Copyright © 2024 by Ada Quill. All rights reserved.</p>
              <p>Contributors: cover design by Tom Reed; edited by May Lin; proofread by Sam Oduya.</p>
              <p>ISBN 978-1-23456-789-7</p>
              <p>Printed in Cornwall. First edition.</p>
            </section>
            """)))
        for (i, (file, heading, first, second)) in chapters.enumerated() {
            let page = 3 + i * 2
            // The first document's running head is the book's title, the second's its chapter's.
            let head = i == 2 ? #"<div role="doc-pageheader"><p>\#(title)</p></div>"#
                : #"<div class="rh">\#(i == 0 ? title : String(heading.split(separator: ".").last!).trimmingCharacters(in: .whitespaces))</div>"#
            entries.append(("OEBPS/\(file)", xhtml(heading, """
                \(head)
                <section epub:type="bodymatter chapter" id="c\(i + 1)">
                  <h1 class="chapter">\(heading)</h1>
                  <p>\(first)</p>
                  <span epub:type="pagebreak" id="p\(page)" title="\(page)"/>
                  <p>\(second)</p>
                </section>
                <div class="rf">\(title) · \(page)</div>
                """)))
        }
        entries.append(("OEBPS/index.xhtml", xhtml("Index", """
            <section role="doc-index" class="index">
              <h1>Index</h1>
              <ul>
                <li>bell, harbour, 5</li>
                <li>boats, fishing, 3</li>
                <li>Quill, Mira, 3–7</li>
              </ul>
            </section>
            """)))
        let spine = ["title", "copyright", "ch1", "ch2", "ch3", "index"]
        let items = spine.map { #"<item id="\#($0)" href="\#($0).xhtml" media-type="application/xhtml+xml"/>"# }.joined()
        entries.append(("OEBPS/content.opf", """
            <?xml version="1.0" encoding="utf-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:isbn:9781234567897</dc:identifier>
            <dc:title>\(title)</dc:title><dc:creator>Ada Quill</dc:creator><dc:language>en</dc:language>
            <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>
            <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\(items)</manifest>
            <spine>\(spine.map { #"<itemref idref="\#($0)"/>"# }.joined())</spine>
            </package>
            """))
        let toc = chapters.map { #"<li><a href="\#($0.0)">\#($0.1)</a></li>"# }.joined()
        entries.append(("OEBPS/nav.xhtml", xhtml("Contents", """
            <nav epub:type="toc" id="toc"><h1>Contents</h1><ol>
              <li><a href="copyright.xhtml">Copyright</a></li>\(toc)<li><a href="index.xhtml">Index</a></li></ol></nav>
            <nav epub:type="landmarks"><ol>
              <li><a epub:type="titlepage" href="title.xhtml">Title Page</a></li>
              <li><a epub:type="copyright-page" href="copyright.xhtml">Copyright</a></li>
              <li><a epub:type="bodymatter" href="ch1.xhtml">Begin Reading</a></li>
              <li><a epub:type="index" href="index.xhtml">Index</a></li></ol></nav>
            """)))
        entries.append(("META-INF/container.xml", HostileEPUBTests.container))
        return entries
    }

    static func manifest(_ ws: Workspace, _ epub: URL, name: String, keys: String = "") throws -> URL {
        try ws.write("\(name).yml", """
            title: \(title)
            sources:
              - path: \(epub.lastPathComponent)
            \(keys.isEmpty ? "" : "    " + keys + "\n")voice: { name: en-us, wpm: 400 }
            audio: { bitrate: 56, quality: 9 }
            """)
    }

    static func timedWords(_ sidecar: Sidecar) -> [String] {
        sidecar.chapters.flatMap(\.paragraphs).flatMap { p in
            p.words.map { String(p.text(of: $0).unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init)) }
        }
    }

    @Test func thePublishersBookIsReadAsItsThreeChaptersWithTheMatterAndFurnitureListed() throws {
        let ws = try Workspace("matter")
        let epub = try HostileEPUBTests.epub(ws, "lantern.epub", Self.publisherEntries())
        let manifest = try Self.manifest(ws, epub, name: "lantern")

        let check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let script = check.stdout
        #expect(script.contains("=== Chapter 1: Chapter One. The Tower ==="))
        #expect(script.contains("=== Chapter 3: Chapter Three. The Storm ==="))
        #expect(!script.contains("=== Chapter 4"), "\(script)")
        for reason in ["title page (matter: front)", "copyright page (matter: front)", "index (matter: back)", "running head", "running foot"] {
            #expect(script.contains("[skipped: \(reason)]"), "\(reason) missing from\n\(script)")
        }
        // The script closes with what it left out: the share by kind and the largest passages.
        let summary = script.components(separatedBy: "=== Left out of the narration ===\n").last ?? ""
        #expect(summary.hasPrefix("  skipped: ") && summary.contains("copyright page (matter: front)"), "\(script)")
        #expect(summary.contains("largest: 29 words, copyright page (matter: front), before the first chapter"), "\(script)")
        // The first line is the title; the summary of what was left out closes the script.
        let spokenLines = script.components(separatedBy: "=== Left out")[0]
            .split(separator: "\n").filter { !$0.contains("[skipped:") }.dropFirst()
        for word in ["ISBN", "Contributors", "Lantern", "Keeper", "Index", "Quill"] {
            #expect(!spokenLines.contains { $0.contains(word) }, "\(word) is spoken:\n\(script)")
        }

        let run = try RenderedJob.run(ws, manifest)
        let sidecar = try Sidecar.load(run.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        #expect(sidecar.chapters.map(\.title) == Self.chapters.map(\.1))
        let timed = Set(Self.timedWords(sidecar).map { $0.lowercased() })
        for word in ["isbn", "contributors", "copyright", "lantern", "keeper", "index", "quill"] {
            #expect(!timed.contains(word), "\(word) was timed")
        }
        #expect(timed.contains("tower") && timed.contains("stranger"))
        let reasons = sidecar.skipped.map(\.reason)
        #expect(reasons.filter { $0 == "running head" }.count == 3, "\(reasons)")
        #expect(reasons.filter { $0 == "running foot" }.count == 3, "\(reasons)")
        #expect(sidecar.skipped.contains { $0.reason == "copyright page (matter: front)" && $0.text.contains("ISBN 978-1-23456-789-7") })
        #expect(sidecar.skipped.contains { $0.reason == "index (matter: back)" && $0.text.contains("boats, fishing") })
        #expect(sidecar.skipped.contains { $0.reason == "title page (matter: front)" && $0.text.contains("A Novel") })
        BookChecks.expectWordCoverage(input: try IndependentText.of(epub).text, sidecar)
    }

    @Test func matterReadReadsTheCopyrightPageAndTheIndex() throws {
        let ws = try Workspace("matter-read")
        let epub = try HostileEPUBTests.epub(ws, "lantern.epub", Self.publisherEntries())
        let manifest = try Self.manifest(ws, epub, name: "lantern", keys: "matter: { front: read, back: read }")
        let run = try RenderedJob.run(ws, manifest)
        let sidecar = try Sidecar.load(run.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        let timed = Set(Self.timedWords(sidecar))
        for word in ["ISBN", "Contributors", "Index", "fishing", "Novel"] { #expect(timed.contains(word), "\(word) not timed") }
        #expect(sidecar.chapters.map(\.title).contains("Copyright") && sidecar.chapters.map(\.title).contains("Index"))
        #expect(!sidecar.skipped.contains { $0.reason.contains("matter:") })
        // Running heads and feet are furniture whatever `matter` says.
        #expect(sidecar.skipped.filter { $0.reason == "running head" }.count == 3)
        BookChecks.expectWordCoverage(input: try IndependentText.of(epub).text, sidecar)
    }

    @Test func aHeadingOpeningEveryDocumentInTheSameClassIsNotARunningHead() throws {
        let ws = try Workspace("matter-headings")
        var entries = Self.chapters.enumerated().map { i, chapter in
            ("OEBPS/\(chapter.0)", Self.xhtml(chapter.1, """
                <p class="chapter-head">\(chapter.1)</p>
                <p>\(chapter.2)</p>
                <p>\(chapter.3)</p>
                <p class="chapter-end">\(["Anchors aweigh.", "Fair winds.", "Home at last."][i])</p>
                """))
        }
        let items = Self.chapters.enumerated().map { #"<item id="c\#($0)" href="\#($1.0)" media-type="application/xhtml+xml"/>"# }.joined()
        entries.append(("OEBPS/content.opf", """
            <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>\(Self.title)</dc:title>\
            <dc:language>en</dc:language></metadata><manifest>\(items)</manifest>\
            <spine>\((0..<3).map { #"<itemref idref="c\#($0)"/>"# }.joined())</spine></package>
            """))
        entries.append(("META-INF/container.xml", HostileEPUBTests.container))
        let epub = try HostileEPUBTests.epub(ws, "headings.epub", entries)
        let run = try RenderedJob.run(ws, try Self.manifest(ws, epub, name: "headings"))
        let sidecar = try Sidecar.load(run.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        let texts = sidecar.chapters.flatMap(\.paragraphs).map(\.text)
        for chapter in Self.chapters { #expect(texts.contains(chapter.1), "\(chapter.1) not read") }
        for end in ["Anchors aweigh.", "Fair winds.", "Home at last."] { #expect(texts.contains(end), "\(end) not read") }
        #expect(!sidecar.skipped.contains { $0.reason.hasPrefix("running") }, "\(sidecar.skipped.map(\.reason))")
        BookChecks.expectWordCoverage(input: try IndependentText.of(epub).text, sidecar)
    }
}
