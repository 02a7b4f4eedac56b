import LecternCore
import LecternText

/// Data tables read as a person reads them aloud (``TableReader`` tells data from layout).
///
/// `tables: read` — the caption is read as a paragraph, then each body row is one paragraph whose
/// text is its cells' text as written, joined with ". " ("Paris. 12 hectares. 8 to 11 euros"):
/// each cell is said after its column header ("Paris. Area: 12 hectares. Price: 8 to 11 euros."),
/// the header spoken through a ``SpokenFrame`` so timings point at the cells' written words. The
/// header row's words are written once but said with every row, so they are listed as skipped
/// ("table header (read with each row)"): every word of the table is timed or skipped, once.
/// Empty cells are left out of the sentence; a `th` in a body row starts it, with no header.
///
/// `tables: summary` — one paragraph: the caption (or, without one, the header labels) said as
/// "Table: Prices of rooms, 12 rows."; the caption's words are timed, "Table:" and the count are
/// spoken around them, and the rows are listed as skipped ("table (tables: summary)").
extension HTMLWalker {
    mutating func read(_ table: TableReader, language: String?) {
        let language = table.table.language ?? language
        if table.table.all(where: { ($0["id"] ?? $0["name"]).map { chapterStarts[$0] != nil } ?? false }).isEmpty == false {
            // A chapter starts inside: read cell by cell, where the walk meets each start.
            for child in table.table.children { visit(child, kind: .paragraph, language: language) }
            flush(as: .paragraph, language: language)
            return
        }
        if rules.tables == .summary {
            summarise(table, language: language)
            return
        }
        if let caption = table.caption {
            gather(caption, language: caption.language ?? language)
            flush(as: .paragraph, language: language)
        }
        for row in table.headerRows { skip(row.textContent, reason: .tableHeader) }
        for row in table.rows {
            let rowLanguage = row.node.language ?? language
            var frames: [SpokenFrame] = []
            for cell in row.cells {
                if let range = appendCell(cell.node, language: rowLanguage, separator: ". "), let header = table.header(for: cell) {
                    frames.append(SpokenFrame(range: range, before: header + ":"))
                }
            }
            flush(as: .paragraph, language: rowLanguage, frames: frames)
        }
    }

    private mutating func summarise(_ table: TableReader, language: String?) {
        let count = table.rows.count
        if let caption = table.caption {
            gather(caption, language: caption.language ?? language)
            for row in table.headerRows { skip(row.textContent, reason: .tableSummarised) }
        } else {
            for row in table.headerRows {
                for cell in row.elements where TableReader.isCell(cell) { _ = appendCell(cell, language: language, separator: ", ") }
            }
        }
        let length = block.normalised().text.utf16.count
        flush(as: .paragraph, language: language,
              frames: [SpokenFrame(range: 0..<length, before: "Table:", after: count == 1 ? ", 1 row." : ", \(count) rows.")])
        for row in table.rows { skip(row.node.textContent, reason: .tableSummarised) }
    }

    /// Appends a cell's text to the block being gathered, after `separator` when the block has
    /// text already (just a space when it ends a sentence already). Returns the cell's UTF-16
    /// range in the block's normalised text; nil, with the block as it was, for a cell with no
    /// words.
    private mutating func appendCell(_ cell: XMLNode, language: String?, separator: String) -> Range<Int>? {
        let saved = block
        let previous = block.normalised().text
        var start = 0
        if let last = previous.last {
            let ends = ".!?:;".contains(last) || separator.first.map { last == $0 } == true
            let joint = ends ? " " : separator
            block.append(joint, language: language)
            start = previous.utf16.count + joint.utf16.count
        }
        gather(cell, language: cell.language ?? language)
        let end = block.normalised().text.utf16.count
        guard end > start, WordTokenizer.tokens(in: block.normalised().text).contains(where: { $0.start >= start }) else {
            block = saved
            return nil
        }
        return start..<end
    }

    /// Gathers an element's text into the current block without ending it: block-level children
    /// (a `p` in a cell) are kept apart by a space, images and drawings are listed as skipped;
    /// everything else is visited as usual (inline markup, languages, pronunciations, footnote
    /// references).
    private mutating func gather(_ node: XMLNode, language: String?) {
        for child in node.children {
            guard child.isElement, child.semantics.isEmpty else {
                visit(child, kind: .paragraph, language: language)
                continue
            }
            let name = child.name
            let childLanguage = child.language ?? language
            switch name {
            case "img":
                skip(child["alt"] ?? "", reason: .image)
            case "svg", "math":
                skip(child.textContent, reason: name == "svg" ? .drawing : .mathematics)
            case _ where Self.blockElements.contains(name) || Self.cellBlocks.contains(name):
                block.append(" ", language: childLanguage)
                gather(child, language: childLanguage)
                block.append(" ", language: childLanguage)
            default:
                visit(child, kind: .paragraph, language: childLanguage)
            }
        }
    }

    /// Rows and words a layout table has at least to lay out a text (a title page, a box or a
    /// navigation bar set in a table has fewer).
    static let textLayoutRows = 4
    static let textLayoutWords = 100

    /// Whether a layout table (no ``TableReader``) sets a text out row by row: a bilingual edition's
    /// original and translation side by side, a speech or a verse line to a row, its act and scene
    /// headings in the rows' cells. At least ``textLayoutRows`` rows and ``textLayoutWords`` words,
    /// most rows with two cells or more that hold words, no table inside and no link to a place in
    /// the book (a contents table, its numbers, titles and pages side by side, heads nothing).
    static func isTextLayout(_ table: XMLNode) -> Bool {
        guard table.first(where: { $0.name == "table" || ($0.name == "a" && internalTarget($0) != nil) }) == nil else { return false }
        let rows = TableReader.rows(of: table)
        guard rows.count >= textLayoutRows, WordTokenizer.count(in: table.textContent) >= textLayoutWords else { return false }
        let sideBySide = rows.filter { row in
            row.elements.filter { TableReader.isCell($0) && !TableReader.label(of: $0).isEmpty }.count >= 2
        }.count
        return sideBySide * 2 >= rows.count
    }

    private static let cellBlocks: Set<String> = ["li", "blockquote", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th"]
}
