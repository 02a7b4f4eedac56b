/// Lone numbers that start again under the book's other headings — `I. LIFE.` over poems `I.`,
/// `II.` …, then `II. LOVE.` over poems `I.`, `II.` …; an `<h2>` edition's title over its quatrains
/// `I.`, `II.` … — number the poems or stanzas inside the sections those headings open: they are
/// section headings of those chapters (read after the section pause, a level under the chapter),
/// not chapters. Numbers that run on through the book, numbers under parts (`BOOK I` over
/// chapters `I.`, `II.` …) and numbers over long sections (a story told in numbered chapters)
/// stay chapters.
enum RestartingNumbers {
    /// Sections longer than this, in words (median), are chapters, not poems or stanzas.
    static let maxSectionWords = 300

    /// Whether the book's numbered headings are one series of lone numbers (`1`, `2`, `3` …) over
    /// short sections that starts late: after more words than it numbers. Such a series numbers the
    /// stanzas of the book's last piece (a song book's last song), not the book's chapters: its
    /// pieces are titled by lines no number marks (``GapTitle``, short capital lines).
    static func isLateSeries(_ pieces: [StructurePiece]) -> Bool {
        var numbers: [Int] = []
        var last = 0
        for (k, piece) in pieces.enumerated() {
            guard case .heading(_, _, let c) = piece else { continue }
            switch c.kind {
            case .standalone, .fallback:
                continue
            case .bareNumber(let n) where n > last:
                numbers.append(k)
                last = n
            default:
                return false
            }
        }
        guard numbers.count >= 2, let first = numbers.first else { return false }
        let lengths = numbers.map { k in words(pieces[(k + 1)...].prefix { !$0.isHeading }) }
        guard lengths.sorted()[lengths.count / 2] <= maxSectionWords else { return false }
        return words(pieces[..<first]) > lengths.reduce(0, +)
    }

    /// The words of the paragraphs among `pieces`.
    static func words(_ pieces: ArraySlice<StructurePiece>) -> Int {
        pieces.reduce(0) { n, piece in
            if case .paragraph(let lines, _) = piece { n + lines.reduce(0) { $0 + TextLines.wordCount($1) } } else { n }
        }
    }

    /// The pieces with such numbers turned into paragraphs, and those paragraphs' first lines.
    /// Most series must start under a heading of another kind (a poem's own numbered parts start
    /// again under the poem's number).
    static func apply(_ pieces: [StructurePiece]) -> (pieces: [StructurePiece], sections: Set<Int>) {
        var numbers: [Int] = []     // indices of the lone numbers
        var last: Int?              // the last lone number's value
        var headed = false          // another heading since the last lone number
        var series = 0              // series started under another heading
        var starts = 0
        for (k, piece) in pieces.enumerated() {
            switch piece {
            case .heading(_, _, let c):
                guard case .bareNumber(let n) = c.kind else {
                    // Numbers under parts are the parts' chapters.
                    if c.isPart { return (pieces, []) }
                    headed = true
                    continue
                }
                if last == nil || n <= last! {
                    starts += 1
                    if headed { series += 1 }
                }
                last = n
                headed = false
                numbers.append(k)
            default:
                continue
            }
        }
        // One series under a piece's title, late in the book: that piece's stanzas (``isLateSeries(_:)``).
        let late = series == 1 && starts == 1 && isLateSeries(pieces)
        guard (series >= 2 && series * 3 >= starts * 2) || late else { return (pieces, []) }
        // The words under each number, up to the next heading.
        let lengths = numbers.map { k in words(pieces[(k + 1)...].prefix { !$0.isHeading }) }.sorted()
        guard lengths[lengths.count / 2] <= maxSectionWords else { return (pieces, []) }
        var out = pieces
        for k in numbers {
            guard case .heading(let lines, let first, _) = pieces[k] else { continue }
            out[k] = .paragraph(lines: lines, firstLine: first)
        }
        return (out, Set(numbers.map { pieces[$0].firstLine }))
    }
}
