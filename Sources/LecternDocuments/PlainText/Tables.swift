import Foundation

/// ASCII-art, box-drawing and column-aligned tables: a block of lines most of which are table rows
/// (`+-----+---+`, `|` separators, `─│┌`, columns separated by 2+ spaces mostly holding numbers, or a
/// column of numbers in braces).
enum Tables {
    static let border = LinePattern(#"[-=]{2,}\+|\+[-=]{2,}"#)
    static let columnGap = LinePattern(#"\S\s{2,}\S"#)
    /// A column of numbers set off by braces (`THE MORNING.   {  5 } Rise, wash`, `{    }`, `  9 } Work.`):
    /// a timetable's hours, never words.
    static let braceCell = LinePattern(#"(?:^|\s{2})\{\s*\d{0,3}\s*\}|^\d{1,3}\s*\}"#)

    static func isTableLine(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        guard !t.isEmpty else { return false }
        if t.unicodeScalars.contains(where: { $0.value >= 0x2500 && $0.value <= 0x257F }) { return true }
        if t.hasPrefix("|") || t.hasPrefix("+-") || t.hasPrefix("+=") { return true }
        if t.utf8.contains(UInt8(ascii: "+")), border.matches(t) { return true }
        if t.filter({ $0 == "|" }).count >= 2 { return true }
        if t.utf8.contains(UInt8(ascii: "}")), braceCell.matches(t) { return true }
        return isNumericColumns(t)
    }

    /// Three or more cells separated by 2+ spaces, at least half (and two) of them numbers.
    static func isNumericColumns(_ trimmed: String) -> Bool {
        guard TextLines.has(trimmed, "  "), trimmed.contains(where: \.isNumber), columnGap.matches(trimmed) else { return false }
        let cells = trimmed.components(separatedBy: "  ").map(TextLines.trim).filter { !$0.isEmpty }
        guard cells.count >= 3 else { return false }
        let numeric = cells.filter { cell in
            cell.contains(where: \.isNumber) && cell.allSatisfy { $0.isNumber || ".,$£%/-–: ".contains($0) }
        }.count
        return numeric >= 2 && numeric * 2 >= cells.count
    }

    /// Whether the block of lines is a table: at least half its lines are table rows.
    static func isTable(_ block: ArraySlice<String>) -> Bool {
        guard !block.isEmpty else { return false }
        let rows = block.filter(isTableLine).count
        return rows >= 1 && rows * 2 >= block.count && (rows >= 2 || block.count == 1 && isBorderOnly(block.first!))
    }

    static func isBorderOnly(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        return t.count >= 3 && t.allSatisfy { "+-=|".contains($0) } && t.contains("+")
    }
}
