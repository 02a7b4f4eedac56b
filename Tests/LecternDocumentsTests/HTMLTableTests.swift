import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// Reads `body` (an HTML page's body) with the given `tables` rule.
private func readTable(_ body: String, tables: ReadingRules.Tables = .read, footnotes: ReadingRules.Footnotes = .chapter) throws -> Book {
    let dir = try TempDir()
    defer { dir.remove() }
    let page = try dir.write("page.html", bytes: Array("<html lang=\"en\"><head><title>T</title></head><body>\(body)</body></html>".utf8))
    return try HTMLReader().read(Source(url: page, displayPath: "page.html", format: .html,
                                        rules: ReadingRules(tables: tables, footnotes: footnotes)))
}

/// What espeak-ng is given for a block: its text with each pronunciation's stretch replaced.
private func spoken(_ block: Block) -> String {
    var units = Array(block.text.utf16)
    for p in block.pronunciations.sorted(by: { $0.offset > $1.offset }) {
        units.replaceSubrange(p.offset..<p.end, with: Array(p.spoken.utf16))
    }
    return String(decoding: units, as: UTF16.self)
}

private func texts(_ book: Book) -> [String] { book.chapters.flatMap(\.blocks).map(\.text) }
private func spokenTexts(_ book: Book) -> [String] { book.chapters.flatMap(\.blocks).map(spoken) }

/// HTML data tables read a sentence per row, each cell after its column header; layout tables
/// cell by cell; `tables: summary` and `skip`.
@Suite struct HTMLTableTests {
    @Test func theadHeadersAreSaidBeforeEachCellWhileTheTextStaysAsWritten() throws {
        let book = try readTable("""
            <p>Before.</p>
            <table><caption>Prices of rooms</caption>
            <thead><tr><th>Room</th><th>Area:</th><th>Price</th></tr></thead>
            <tbody><tr><td>Blue</td><td>12 <em>hectares</em></td><td>8 to 11 euros</td></tr>
            <tr><td>Red</td><td>9 hectares</td><td> </td></tr></tbody></table>
            <p>After.</p>
            """)
        #expect(texts(book) == ["Before.", "Prices of rooms", "Blue. 12 hectares. 8 to 11 euros", "Red. 9 hectares", "After."])
        #expect(spokenTexts(book)[2] == "Room: Blue. Area: 12 hectares. Price: 8 to 11 euros")
        #expect(spokenTexts(book)[3] == "Room: Red. Area: 9 hectares")
        // Each header pronunciation covers one written word, so its timing points at that word.
        #expect(book.chapters[0].blocks[2].pronunciations.map(\.length) == [5, 2, 1])
        #expect(book.skipped.map(\.reason) == [.tableHeader])
        #expect(book.skipped.map(\.text) == ["Room Area: Price"])
    }

    @Test func aRowHeaderStartsTheSentenceWithNoColumnHeader() throws {
        let book = try readTable("""
            <table><tr><td></td><th scope="col">Area</th><th scope="col">Price</th></tr>
            <tr><th scope="row">Paris</th><td>105 km²</td><td>12</td></tr>
            <tr><th scope="row">Lyon</th><td>48 km²</td><td>9.</td></tr></table>
            """)
        #expect(texts(book) == ["Paris. 105 km². 12", "Lyon. 48 km². 9."])
        #expect(spokenTexts(book) == ["Paris. Area: 105 km². Price: 12", "Lyon. Area: 48 km². Price: 9."])
        #expect(book.skipped.map(\.text) == ["Area Price"])
    }

    @Test func aFirstRowOfLabelsOverFiguresIsTheHeader() throws {
        let bold = try readTable("""
            <table><tr><td><b>Name</b></td><td><strong>Born</strong></td></tr>
            <tr><td>Ada Lovelace</td><td>1815</td></tr></table>
            """)
        #expect(spokenTexts(bold) == ["Name: Ada Lovelace. Born: 1815"])
        let short = try readTable("""
            <table><tr><td>Planet</td><td>Moons</td></tr>
            <tr><td>Mars</td><td>2</td></tr><tr><td>Earth</td><td>1</td></tr></table>
            """)
        #expect(spokenTexts(short) == ["Planet: Mars. Moons: 2", "Planet: Earth. Moons: 1"])
        #expect(short.skipped.map(\.reason) == [.tableHeader])
    }

    @Test func aHeaderSpanningColumnsHeadsEachAndStackedHeadersJoin() throws {
        let book = try readTable("""
            <table><thead><tr><th rowspan="2">City</th><th colspan="2">Price</th></tr>
            <tr><th>Low</th><th>High</th></tr></thead>
            <tbody><tr><td>Rome</td><td>8</td><td>11</td></tr>
            <tr><td>Oslo</td><td colspan="2">closed</td></tr></tbody></table>
            """)
        #expect(spokenTexts(book) == ["City: Rome. Price, Low: 8. Price, High: 11", "City: Oslo. Price, Low, High: closed"])
        #expect(book.skipped.count == 2)
        let simple = try readTable("""
            <table><tr><th>City</th><th colspan="2">Price</th></tr><tr><td>Rome</td><td>8</td><td>11</td></tr></table>
            """)
        #expect(spokenTexts(simple) == ["City: Rome. Price: 8. Price: 11"])
    }

    @Test func aCellSaidInPhonemesTakesItsHeaderAfterTheWordBefore() throws {
        let book = try readTable("""
            <table xmlns:ssml="http://www.w3.org/2001/10/synthesis"><tr><th>Room</th><th>Town</th></tr>
            <tr><td>Blue</td><td><span ssml:ph="ˈmeɪkən">Macon</span> north</td></tr>
            <tr><td><span ssml:ph="ɹɛd">Red</span></td><td>Lyon</td></tr></table>
            """)
        let said = spokenTexts(book)
        #expect(said[0].hasPrefix("Room: Blue. Town: [[") && said[0].hasSuffix("]] north"), "\(said[0])")
        // The first cell of a row has no word before it: its header is not said.
        #expect(said[1].hasPrefix("[[") && said[1].hasSuffix("]]. Town: Lyon"), "\(said[1])")
    }

    @Test func aOneWordRespellingTakesTheHeaderAndOneOfSeveralWordsKeepsItsWordCount() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        _ = try dir.write("names.pls", bytes: Array("""
            <lexicon version="1.0" alphabet="ipa" xml:lang="en" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon">
              <lexeme><grapheme>Saone</grapheme><alias>sohn</alias></lexeme>
              <lexeme><grapheme>New York</grapheme><alias>Noo Yawk</alias></lexeme>
            </lexicon>
            """.utf8))
        let page = try dir.write("page.html", bytes: Array("""
            <html lang="en"><head><link rel="pronunciation" href="names.pls"/></head><body>
            <table><tr><th>City</th><th>River</th></tr>
            <tr><td>Lyon</td><td>Saone</td></tr><tr><td>New York</td><td>Hudson</td></tr></table></body></html>
            """.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "page.html", format: .html))
        #expect(spokenTexts(book) == ["City: Lyon. River: sohn", "Noo Yawk. River: Hudson"])
    }

    @Test func anEmptyCornerOverRowHeadersStillMakesAHeaderRow() throws {
        let book = try readTable("""
            <table><tr><td></td><td>Area</td><td>Price</td></tr>
            <tr><th>Paris</th><td>105</td><td>12</td></tr></table>
            """)
        #expect(spokenTexts(book) == ["Paris. Area: 105. Price: 12"])
    }

    @Test func footnoteReferencesInCellsAreSkippedAndTheNoteFollowsTheRow() throws {
        let book = try readTable("""
            <table><tr><th>Name</th><th>Years</th></tr>
            <tr><td>James Oglethorpe<a href="#n8" epub:type="noteref">8</a></td><td>1732-1743</td></tr></table>
            <aside epub:type="footnote" id="n8"><p>Founder of the colony.</p></aside>
            """, footnotes: .paragraph)
        #expect(texts(book) == ["James Oglethorpe. 1732-1743", "Founder of the colony."])
        #expect(spokenTexts(book)[0] == "Name: James Oglethorpe. Years: 1732-1743")
        #expect(book.skipped.map(\.reason) == [.tableHeader, .footnoteReference])
    }

    @Test func layoutTablesAreReadCellByCellAsBefore() throws {
        let oneColumn = try readTable("""
            <table><tr><th>Letters</th></tr><tr><td>Letter 1</td></tr><tr><td>Letter 2</td></tr></table>
            """)
        #expect(texts(oneColumn) == ["Letters", "Letter 1", "Letter 2"])
        let prose = try readTable("""
            <table><tr><td>When</td><td>What</td></tr>
            <tr><td>In 1818</td><td>The monster, having wandered for many months through the forests and the towns, spoke at last.</td></tr></table>
            """)
        #expect(texts(prose) == ["When", "What", "In 1818", "The monster, having wandered for many months through the forests and the towns, spoke at last."])
        let noHeader = try readTable("""
            <table><tr><td colspan="3">I. <em>Administration of the Trustees.</em></td></tr>
            <tr><td>James Edward Oglethorpe</td><td colspan="2">1732-1743</td></tr></table>
            """)
        #expect(texts(noHeader) == ["I. Administration of the Trustees.", "James Edward Oglethorpe", "1732-1743"])
        let titled = try readTable("""
            <table><tr><th colspan="2">Kings</th></tr><tr><td>Henry</td><td>1509</td></tr></table>
            """)
        #expect(texts(titled) == ["Kings", "Henry", "1509"])
        let blocks = (oneColumn.chapters + prose.chapters + noHeader.chapters + titled.chapters).flatMap(\.blocks)
        #expect(blocks.allSatisfy { $0.pronunciations.isEmpty })
        #expect(oneColumn.skipped.isEmpty && prose.skipped.isEmpty && noHeader.skipped.isEmpty)
    }

    @Test func summaryReadsTheCaptionAndTheRowCountAndListsTheRows() throws {
        let table = """
            <table><caption>Prices of rooms.</caption><thead><tr><th>Room</th><th>Price</th></tr></thead>
            <tbody><tr><td>Blue</td><td>8 euros</td></tr><tr><td>Red</td><td>9 euros</td></tr></tbody></table>
            """
        let book = try readTable(table, tables: .summary)
        #expect(texts(book) == ["Prices of rooms."])
        #expect(spokenTexts(book) == ["Table: Prices of rooms, 2 rows."])
        #expect(book.skipped.map(\.reason) == Array(repeating: .tableSummarised, count: 3))
        #expect(book.skipped.map(\.text) == ["Room Price", "Blue 8 euros", "Red 9 euros"])
        let untitled = try readTable("<table><tr><th>Room</th><th>Price</th></tr><tr><td>Blue</td><td>8</td></tr></table>", tables: .summary)
        #expect(texts(untitled) == ["Room, Price"])
        #expect(spokenTexts(untitled) == ["Table: Room, Price, 1 row."])
        #expect(untitled.skipped.map(\.text) == ["Blue 8"])
    }

    @Test func skipListsTheWholeTable() throws {
        let book = try readTable("""
            <p>Text.</p><table><caption>Prices</caption><tr><th>Room</th><th>Price</th></tr><tr><td>Blue</td><td>8</td></tr></table>
            """, tables: .skip)
        #expect(texts(book) == ["Text."])
        #expect(book.skipped.map(\.reason) == [.tableSkipped])
        #expect(book.skipped.map(\.text) == ["Prices Room Price Blue 8"])
    }

    /// A bilingual libretto set in one table, the original and its translation side by side a
    /// speech to a row, its act headings in the rows' cells: the text is read row by row as laid
    /// out, and its headings open chapters as they would outside a table.
    @Test func headingsOfAParallelTextTableOpenChapters() throws {
        func act(_ german: String, _ english: String) -> String {
            "<tr><td><h3>\(german)</h3></td><td><h3>\(english)</h3></td></tr>"
                + (1...12).map { n in
                    "<tr><td><p>Die \(n). Rede geht weiter, und das Spiel geht mit ihr noch eine Weile fort.</p></td>"
                        + "<td><p>The \(n). speech goes on, and the play goes on with it for a while yet.</p></td></tr>"
                }.joined()
        }
        let book = try readTable("<h1>DER FLIEGENDE HOLLÄNDER</h1><table>" + act("ERSTER AKT.", "ACT I.")
            + act("ZWEITER AKT.", "ACT II.") + "</table>")
        #expect(book.chapters.count == 2, "\(book.chapters.map(\.title))")
        #expect(book.chapters.last?.title.contains("ACT II.") == true, "\(book.chapters.map(\.title))")
        let read = texts(book)
        #expect(read.contains("Die 12. Rede geht weiter, und das Spiel geht mit ihr noch eine Weile fort."))
        #expect(read.contains("The 12. speech goes on, and the play goes on with it for a while yet."))
    }
}
