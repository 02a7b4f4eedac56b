/// A contents list set in two levels, each entry with its page: titles flush left (`Readings for
/// Arbor Day      3`) and, set in under some of them, the pieces each holds (`  About Trees      3`,
/// `  I. Exercises in the School Room      19`). The flush entries are the book's chapters; the
/// entries set in are sections inside them (read where they stand, under the chapter's heading),
/// as a narrator following the list would take them. A list whose flush entries are parts (`BOOK I`)
/// over their chapters is left to ``ListedParts``; numerals set flush right (`  IV.` / `XXIV.`)
/// are no level: the column where each title starts is.
enum ContentsLevels {
    /// The chapters' entries of a list: without the deeper ones when the list has two levels (two
    /// flush entries at least that hold three or more deeper ones between them, none a part, every entry with its page).
    static func chapters(_ placed: [(entry: ContentsEntry, line: String)]) -> [ContentsEntry] {
        let entries = placed.map(\.entry)
        guard placed.count >= 5, placed.allSatisfy({ ContentsEntry.pageNumber.firstMatch(TextLines.trim($0.line)) != nil }),
              !entries.contains(where: \.isPart) else { return entries }
        let columns = placed.map { titleColumn(of: $0.line, title: $0.entry.title) }
        guard let flush = columns.min(), Set(columns).count == 2 else { return entries }
        let deeper = columns.indices.filter { columns[$0] > flush }
        // Flush entries with deeper ones after them (holding them).
        let holders = Set(deeper.map { k in (0..<k).last { columns[$0] == flush } ?? -1 })
        guard deeper.count >= 3, holders.filter({ $0 >= 0 }).count >= 2, !holders.contains(-1) else { return entries }
        return entries.indices.filter { columns[$0] == flush }.map { entries[$0] }
    }

    /// The column where the entry's title starts in its line (where the line starts when it has none).
    static func titleColumn(of line: String, title: String?) -> Int {
        if let title, let range = line.range(of: title) { return line.distance(from: line.startIndex, to: range.lowerBound) }
        return TextLines.indent(line)
    }
}
