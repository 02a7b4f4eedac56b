import LecternCore

/// A contents list under a title the scanner does not know (`Herein Is Written`) or under none: a
/// block before the first heading whose entries are mostly numbered, from 1 on (`I. Of Our Spiritual
/// Strivings`, `II. Of the Dawn of Freedom` …), each a short line; a line over them that repeats the title
/// page is the list's title, not an entry. It is skipped as a contents list and
/// is evidence for the chapters (``ListedChapters``, which trusts it only as it trusts any list: when
/// the body has its entries, in order), so an unnumbered entry (`The Forethought`) is a chapter too.
enum UnheadedContents {
    static let maxLine = 80

    /// The pieces with each such block skipped as a contents list, and the lists.
    static func apply(_ pieces: [StructurePiece], lines: [String]) -> (pieces: [StructurePiece], lists: [ListedChapters.List]) {
        guard let first = pieces.firstIndex(where: \.isHeading) else { return (pieces, []) }
        var out = pieces
        var lists: [ListedChapters.List] = []
        for k in 0..<first {
            guard case .paragraph(let block, let start) = pieces[k], block.count >= 3, start + block.count <= lines.count,
                  TextLines.trim(lines[start]) == block[0], block.allSatisfy({ $0.count <= maxLine && $0.first?.isLowercase != true }) else { continue }
            let raw = Array(lines[start..<(start + block.count)])
            var entries = ListedChapters.entries(raw)
            // A line over the entries that repeats the title page before it (`TREASURE ISLAND`) is the list's title.
            let before = TextLines.letterKey(lines[0..<start].joined(separator: " "))
            while let entry = entries.first, entry.number == nil, !entry.isPart, !entry.titleKey.isEmpty, before.contains(entry.titleKey) {
                entries.removeFirst()
            }
            let numbers = entries.compactMap { $0.isPart ? nil : $0.number }
            guard numbers.count >= 3, numbers.prefix(3).elementsEqual(1...3), numbers.count * 2 >= entries.count else { continue }
            out[k] = .skipped(text: TextLines.collapse(block.joined(separator: " ")), reason: SkipReason.contentsList, firstLine: start)
            lists.append(ListedChapters.List(after: start + block.count, entries: entries))
        }
        return (out, lists)
    }
}
