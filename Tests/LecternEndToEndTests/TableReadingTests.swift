import Foundation
import Testing
import LecternTesting

/// Data tables in an HTML page and an EPUB 3, rendered by the real binary: each row is one timed
/// paragraph whose spoken form pairs each cell with its column header, every word of the
/// document is timed or listed as skipped exactly once (held against ``IndependentText``), and
/// `tables: summary` says the caption and the row count and lists the rows.
struct TableReadingTests {
    static let body = """
        <h1>Rooms and Cities</h1>
        <p>The house has two rooms, and the guide lists two cities.</p>
        <table><caption>Prices of rooms</caption>
        <thead><tr><th>Room</th><th>Area</th><th>Price</th></tr></thead>
        <tbody><tr><td>Blue</td><td>12 <em>hectares</em></td><td>8 to 11 euros</td></tr>
        <tr><td>Red</td><td>9 hectares</td><td></td></tr></tbody></table>
        <p>The cities follow.</p>
        <table><tr><td></td><th scope="col">Population</th><th scope="col">River</th></tr>
        <tr><th scope="row">Paris</th><td>two million</td><td>Seine</td></tr>
        <tr><th scope="row">Lyon</th><td>half a million</td><td>Rhone and Saone</td></tr></table>
        <p>That is all.</p>
        """

    /// The rows as written (the sidecar's paragraph text) and as spoken (`check --text`).
    static let rows = [
        ("Blue. 12 hectares. 8 to 11 euros", "Room: Blue. Area: 12 hectares. Price: 8 to 11 euros"),
        ("Red. 9 hectares", "Room: Red. Area: 9 hectares"),
        ("Paris. two million. Seine", "Paris. Population: two million. River: Seine"),
        ("Lyon. half a million. Rhone and Saone", "Lyon. Population: half a million. River: Rhone and Saone"),
    ]

    static func manifest(_ ws: Workspace, _ name: String, source: String, tables: String) throws -> URL {
        try ws.write("\(name).yml", "title: Tables\nvoice: { name: en-us }\nsources:\n  - path: \(source)\n    tables: \(tables)\n")
    }

    static func epub(_ ws: Workspace) throws -> URL {
        let opf = """
            <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">tables</dc:identifier>\
            <dc:title>Tables</dc:title><dc:language>en</dc:language></metadata>\
            <manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest>\
            <spine><itemref idref="ch1"/></spine></package>
            """
        let chapter = """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><head><title>One</title></head>\
            <body>\(body)</body></html>
            """
        return try HostileEPUBTests.epub(ws, "tables.epub", [("META-INF/container.xml", HostileEPUBTests.container),
                                                             ("OEBPS/content.opf", opf), ("OEBPS/ch1.xhtml", chapter)])
    }

    /// Renders `document` with `tables`, checks the word coverage against the independent
    /// extraction and returns the sidecar and the script `check --text` prints.
    static func render(_ ws: Workspace, _ document: URL, tables: String) throws -> (sidecar: Sidecar, spoken: [String]) {
        let manifest = try manifest(ws, "tables-\(tables)", source: document.lastPathComponent, tables: tables)
        _ = try RenderedJob.run(ws, manifest)
        let name = manifest.deletingPathExtension().lastPathComponent
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/\(name)/\(name).timings.json"))
        BookChecks.expectWordCoverage(input: try IndependentText.of(document).text, sidecar)
        let script = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(script.status == 0, "\(script.stderr)")
        return (sidecar, SpokenFormTests.spokenLines(script.stdout))
    }

    static func expectRowsRead(_ ws: Workspace, _ document: URL) throws {
        let (sidecar, spoken) = try render(ws, document, tables: "read")
        let paragraphs = sidecar.chapters.flatMap(\.paragraphs)
        for (written, said) in rows {
            let paragraph = try #require(paragraphs.first { $0.text == written }, "no paragraph \"\(written)\"")
            #expect(paragraph.words.map { paragraph.text(of: $0) } == independentWords(written))
            #expect(spoken.contains(said), "\"\(said)\" not in \(spoken)")
        }
        #expect(paragraphs.contains { $0.text == "Prices of rooms" })
        #expect(sidecar.skipped.filter { $0.reason == "table header (read with each row)" }.map(\.text) == ["Room Area Price", "Population River"])
    }

    static func expectSummary(_ ws: Workspace, _ document: URL) throws {
        let (sidecar, spoken) = try render(ws, document, tables: "summary")
        let texts = sidecar.chapters.flatMap(\.paragraphs).map(\.text)
        #expect(texts.contains("Prices of rooms") && texts.contains("Population, River"), "\(texts)")
        #expect(!texts.contains { $0.contains("hectares") || $0.contains("Seine") }, "\(texts)")
        #expect(spoken.contains("Table: Prices of rooms, 2 rows."), "\(spoken)")
        #expect(spoken.contains("Table: Population, River, 2 rows."), "\(spoken)")
        let listed = sidecar.skipped.filter { $0.reason == "table (tables: summary)" }.map(\.text)
        #expect(listed == ["Room Area Price", "Blue 12 hectares 8 to 11 euros", "Red 9 hectares",
                           "Paris two million Seine", "Lyon half a million Rhone and Saone"], "\(listed)")
    }

    @Test func htmlDataTablesAreReadARowASentenceWithTheirHeaders() throws {
        let ws = try Workspace("tables-html")
        let page = try ws.write("page.html", "<html lang=\"en\"><head><title>Tables</title></head><body>\(Self.body)</body></html>")
        try Self.expectRowsRead(ws, page)
        try Self.expectSummary(ws, page)
    }

    @Test func epubDataTablesAreReadARowASentenceWithTheirHeaders() throws {
        let ws = try Workspace("tables-epub")
        let book = try Self.epub(ws)
        try Self.expectRowsRead(ws, book)
        try Self.expectSummary(ws, book)
    }
}
