import Foundation
import LecternCore
import LecternText

/// The shape of an HTML data table as a person reading it aloud sees it: its caption, its header
/// rows, and its body rows with each cell's column header. A table that is not data — one
/// column, no column headers, prose in its cells, a table nested in it, `role="presentation"` —
/// has no `TableReader` (``init(_:)`` returns nil) and is read cell by cell as before.
///
/// Column headers come from the leading rows in `thead` or whose cells are all `th` (`scope="col"`
/// or none; a row of `scope="row"` cells is not a header row), or, when the first row has no `th`,
/// from a first row of bold or short labels above rows of figures (its first cell may be empty). A header cell spanning columns
/// (`colspan`) heads each of them; headers of several header rows are joined ("Price, Low").
/// `rowspan` is followed so that the cells of the rows below fall in their columns. In a body row
/// a `th` cell is the row's header: it is read first, with no column header before it.
struct TableReader {
    /// A cell of a body row.
    struct Cell {
        let node: XMLNode
        /// Columns the cell covers (from 0).
        let columns: Range<Int>
        /// Whether it is the row's header (`th` in a body row).
        let isRowHeader: Bool
    }

    /// A body row and its cells, in document order.
    struct Row {
        let node: XMLNode
        let cells: [Cell]
    }

    let table: XMLNode
    let caption: XMLNode?
    /// The rows whose cells head the columns; their words are read with each body row.
    let headerRows: [XMLNode]
    let rows: [Row]
    /// Each column's header labels, top header row first (empty where a column has none).
    let columnHeaders: [[String]]

    /// Cells with more words than this are prose: a table whose headers are guessed (no `th`) and
    /// has such a cell is a layout table.
    static let proseWords = 12

    /// The table's structure when it is a data table; nil for a layout table.
    init?(_ table: XMLNode) {
        guard table.name == "table", table["role"]?.lowercased() != "presentation",
              table.first(where: { $0.name == "table" }) == nil else { return nil }
        self.table = table
        caption = table.elements.first { $0.name == "caption" }
        let allRows = Self.rows(of: table)
        guard allRows.count >= 2 else { return nil }
        let grid = Self.grid(allRows)
        let columnCount = grid.map { $0.map(\.columns.upperBound).max() ?? 0 }.max() ?? 0
        guard columnCount >= 2 else { return nil }

        // Leading header rows: in thead, or all th (not row headers).
        var headerCount = 0
        for (index, row) in allRows.enumerated() {
            let inHead = row.parent?.name == "thead"
            let cells = row.elements.filter(Self.isCell).filter { !Self.label(of: $0).isEmpty }
            let allTH = !cells.isEmpty && cells.allSatisfy { $0.name == "th" }
                && !cells.allSatisfy { $0["scope"]?.lowercased() == "row" }
            let title = grid[index].count == 1 && grid[index][0].columns.count > 1  // one cell across: a title
            guard inHead || allTH, !title, index < allRows.count - 1 else { break }
            headerCount += 1
        }
        var guessed = false
        if headerCount == 0, allRows[0].elements.allSatisfy({ $0.name != "th" }), Self.looksLikeHeader(allRows[0], below: Array(allRows.dropFirst())) {
            headerCount = 1
            guessed = true
        }
        guard headerCount > 0 else { return nil }
        headerRows = Array(allRows.prefix(headerCount))

        var labels = Array(repeating: [String](), count: columnCount)
        for cells in grid.prefix(headerCount) {
            for cell in cells {
                let text = Self.label(of: cell.node)
                guard !text.isEmpty else { continue }
                for c in cell.columns where labels[c].last != text { labels[c].append(text) }
            }
        }
        columnHeaders = labels
        guard labels.contains(where: { !$0.isEmpty }) else { return nil }
        rows = zip(allRows, grid).dropFirst(headerCount).map { row, cells in
            Row(node: row, cells: cells.map { Cell(node: $0.node, columns: $0.columns, isRowHeader: $0.node.name == "th") })
        }
        if guessed {
            let prose = rows.contains { $0.cells.contains { WordTokenizer.count(in: Self.label(of: $0.node)) > Self.proseWords } }
            if prose { return nil }
        }
    }

    /// What is said before a cell: the header of the columns it covers (nil for a row header or
    /// a column with no header).
    func header(for cell: Cell) -> String? {
        guard !cell.isRowHeader else { return nil }
        var parts: [String] = []
        for c in cell.columns where c < columnHeaders.count {
            for label in columnHeaders[c] where !parts.contains(label) { parts.append(label) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    static func isCell(_ node: XMLNode) -> Bool { node.name == "td" || node.name == "th" }

    /// The table's rows in document order: its own, and those of its thead, tbody and tfoot.
    static func rows(of table: XMLNode) -> [XMLNode] {
        table.elements.flatMap { child -> [XMLNode] in
            switch child.name {
            case "tr": return [child]
            case "thead", "tbody", "tfoot": return child.elements.filter { $0.name == "tr" }
            default: return []
            }
        }
    }

    /// Each row's cells and the columns they cover, following `colspan` and `rowspan`.
    static func grid(_ rows: [XMLNode]) -> [[(node: XMLNode, columns: Range<Int>)]] {
        var occupied: [Int: Int] = [:]  // column → rows it is still taken for (by a rowspan above)
        return rows.map { row in
            var result: [(node: XMLNode, columns: Range<Int>)] = []
            var column = 0
            var taken = occupied.filter { $0.value > 0 }
            for cell in row.elements where isCell(cell) {
                while (taken[column] ?? 0) > 0 { column += 1 }
                let span = min(max(Int(cell["colspan"] ?? "") ?? 1, 1), 100)
                let down = min(max(Int(cell["rowspan"] ?? "") ?? 1, 1), 1000)
                result.append((cell, column..<(column + span)))
                for c in column..<(column + span) where down > 1 { taken[c] = down }
                column += span
            }
            occupied = taken.mapValues { $0 - 1 }
            return result
        }
    }

    /// A first row of labels over rows of data: every cell bold, or short (at most four words)
    /// with no digit while some column below holds figures. A row of one cell is never a header.
    static func looksLikeHeader(_ row: XMLNode, below: [XMLNode]) -> Bool {
        var cells = row.elements.filter(isCell)
        if let corner = cells.first, label(of: corner).isEmpty { cells.removeFirst() }  // above a column of row headers
        let labels = cells.map(label(of:))
        guard cells.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return false }
        let bold = cells.allSatisfy { cell in
            let strong = cell.all { $0.name == "b" || $0.name == "strong" || $0.name == "th" }.map(\.textContent).joined(separator: " ")
            return WordTokenizer.count(in: strong) == WordTokenizer.count(in: label(of: cell))
        }
        if bold { return true }
        let short = labels.allSatisfy { WordTokenizer.count(in: $0) <= 4 && !$0.contains(where: \.isNumber) }
        let figures = below.contains { $0.elements.filter(isCell).contains { label(of: $0).contains(where: \.isNumber) } }
        return short && figures
    }

    /// A cell's text as a label: whitespace collapsed, without footnote references and page
    /// numbers, and without a colon at its end (one is said after it).
    static func label(of cell: XMLNode) -> String {
        var parts: [String] = []
        func collect(_ node: XMLNode) {
            if node.isElement {
                let semantics = node.semantics
                if semantics.contains("noteref") || semantics.contains("pagebreak") || HTMLWalker.skippedElements.contains(node.name) { return }
                if node.name == "br" { parts.append(" ") }
            }
            if let t = node.text { parts.append(t) }
            for c in node.children { collect(c) }
        }
        collect(cell)
        var text = parts.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while text.hasSuffix(":") { text.removeLast() }
        return text.replacingOccurrences(of: "[[", with: "[").trimmingCharacters(in: .whitespaces)
    }
}
