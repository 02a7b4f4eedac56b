import Foundation
import LecternText

/// A contents list's group titles as parts: an entry with no number between two numbered ones whose
/// numbers run on across it (`XXV. …` / `THE HEART OF THE SOUTH` / `XXVI. …`) names a group of the
/// chapters — a part, though no `PART` says so. When a list has two such titles or more, an entry
/// with no number just before its first numbered one (`THE BORDERLAND` / `I. …`) is one too. The
/// group's title in the body (a tagged heading, or a line alone before the heading of the chapter
/// it opens, an epigraph at most between them) is then read as a part's heading: announced with its first chapter, never a chapter
/// of its own nor a line of the chapter before.
enum ListedParts {
    /// The entries with their group titles marked as parts.
    static func marked(_ entries: [ContentsEntry]) -> [ContentsEntry] {
        guard entries.count >= 3 else { return entries }
        var found: [Int] = []
        for k in 1..<(entries.count - 1) {
            let (before, entry, after) = (entries[k - 1], entries[k], entries[k + 1])
            guard number(of: entry) == nil, entry.title != nil, !entry.isPart, let n = number(of: before), let m = number(of: after),
                  m == n + 1 else { continue }
            found.append(k)
        }
        guard found.count >= 2 else { return entries }
        if let first = entries.firstIndex(where: { number(of: $0) != nil }), first > 0,
           number(of: entries[first - 1]) == nil, entries[first - 1].title != nil {
            found.append(first - 1)
        }
        var out = entries
        for k in found { out[k].isPart = true }
        return out
    }

    /// The pieces after a list with its group titles' headings (or lines) read as parts.
    static func apply(_ pieces: ArraySlice<StructurePiece>, entries: [ContentsEntry]) -> ArraySlice<StructurePiece> {
        var out = pieces
        var from = pieces.startIndex
        for (j, entry) in entries.enumerated() where entry.isPart && number(of: entry) == nil && j + 1 < entries.count {
            guard let next = number(of: entries[j + 1]) else { continue }
            // The title comes before the heading of the chapter it opens.
            let limit = pieces[from...].firstIndex { piece in
                guard case .heading(let lines, _, let c) = piece, !c.isPart, let heading = ContentsEntry.heading(lines) else { return false }
                return heading.number == next
            } ?? pieces.endIndex
            // An epigraph at most between them: a titled stretch of text (an interlude between two chapters) is a chapter.
            guard let k = pieces[from..<limit].firstIndex(where: { names(entry, $0) }),
                  words(pieces[(k + 1)..<limit]) <= maxEpigraphWords else { continue }
            switch pieces[k] {
            case .heading(let lines, let first, _), .paragraph(let lines, let first):
                let text = TextLines.collapse(lines.joined(separator: " "))
                out[k] = .heading(lines: lines, firstLine: first, candidate: HeadingCandidate(kind: .keyword(isPart: true), text: text, hasTitle: true))
            default:
                continue
            }
            from = limit
        }
        return out
    }

    /// An entry's number, or the value of the capital Roman numeral its title opens with (`XXV COLONEL
    /// TAYLOR`: a list that sets its numerals a space from the titles), which the list's run of numbers confirms.
    static func number(of entry: ContentsEntry) -> Int? {
        if let n = entry.number { return n }
        guard let first = entry.title?.split(separator: " ", maxSplits: 1).first else { return nil }
        // (A table's row laid out as a line: `XXV; COLONEL TAYLOR; 258`.)
        let word = first.trimmingCharacters(in: .punctuationCharacters)
        guard !word.isEmpty, word.allSatisfy(\.isUppercase), let n = RomanNumeral.value(of: word) else { return nil }
        return n
    }

    /// The most words a group title's page may hold besides it (a verse or two and its author's name).
    static let maxEpigraphWords = 120

    private static func words(_ pieces: ArraySlice<StructurePiece>) -> Int {
        pieces.reduce(0) { n, piece in
            if case .paragraph(let lines, _) = piece { n + lines.reduce(0) { $0 + TextLines.wordCount($1) } } else { n }
        }
    }

    /// Whether a piece is the group title alone: a heading, or a line or two of text, that is its words exactly.
    private static func names(_ entry: ContentsEntry, _ piece: StructurePiece) -> Bool {
        switch piece {
        case .heading(let lines, _, let c):
            return !c.isPart && ContentsEntry.heading(lines).map { entry.matches($0, exactly: true) } ?? false
        case .paragraph(let lines, _):
            return lines.count <= 2 && ContentsEntry.parse(lines.joined(separator: " ")).map { entry.matches($0, exactly: true) } ?? false
        default:
            return false
        }
    }
}
