import Foundation
import LecternCore
import LecternText

/// A contents list as evidence for the chapters: when a book lists its chapters, the chapters
/// found after the list are those entries, whatever form their headings take in the body —
/// `CHAPTER I.` and its title on one line or two, a bare `IV.` whose title is only in the list
/// (the chapter is then titled from the list; what is spoken stays what the page says), a title
/// alone, a numeral inside an illustration's caption. Numbered lines the list does not name (the
/// verses of a song, the items of a list inside a chapter) are read as text, not chapters.
///
/// A list is trusted only when it names three chapters or more and two thirds of them are found,
/// in order; each list is evidence up to the next one (a volume's own contents).
enum ListedChapters {
    /// A contents list: its entries, and the line after it, where its chapters may start.
    struct List: Equatable {
        var after: Int
        var entries: [ContentsEntry]
    }

    /// The entries of a list's lines: one per line, a title line (`CONTENTS`) and column headers
    /// left out. A line going on in lower case or indented deeper, with no number of its own (and
    /// not both lines with page numbers), continues its entry; a title under a part is the part's; a number alone followed by a title alone is one entry
    /// (`CHAPTER I.` / `Down the Rabbit-Hole`, or a table's cells laid out one per block; not in a list
    /// whose chapters are numbers alone, where it is an entry of its own), and a
    /// number alone after a titled entry and before another number is that entry's page.
    static func entries(_ lines: some Collection<String>) -> [ContentsEntry] {
        var read: [(line: String, entry: ContentsEntry, afterBlank: Bool)] = []
        var blank = false
        for line in unflowed(Array(lines)) {
            guard !TextLines.isBlank(line) else { blank = true; continue }
            let t = TextLines.trim(line)
            if ContentsList.title(t) == nil, let entry = ContentsEntry.parse(t) { read.append((line, entry, blank)) }
            blank = false
        }
        var out: [ContentsEntry] = []
        for (k, (line, entry, afterBlank)) in read.enumerated() {
            guard let last = out.last, k > 0 else { out.append(entry); continue }
            let previous = read[k - 1]
            let bare = TextLines.trim(line)
            let isPage = bare.count <= 4 && (bare.allSatisfy(\.isNumber) || bare.allSatisfy { "ivxlcdm".contains($0) })
            if isPage, last.title != nil, k + 1 == read.count || (read[k + 1].entry.title == nil && read[k + 1].entry.number != nil) {
                continue  // a page number
            }
            let paged = { (l: String) in ContentsEntry.pageNumber.firstMatch(TextLines.trim(l)) != nil }
            // A title that ends as a phrase ends (`“Tiger! Tiger!”`) is not continued by a deeper line (`Mowgli’s Song`).
            let ended = TextLines.trim(previous.line).last.map { ".!?”’\"".contains($0) } ?? false
            let continues = !afterBlank && entry.number == nil && !(paged(previous.line) && paged(line))
                && (line.first(where: { !$0.isWhitespace })?.isLowercase == true
                    || (TextLines.indent(line) > titleColumn(previous.line, previous.entry) && !ended))
            // (An author's or editor's notice, `A NOTE ON THE TEXT` after `CHAPTER 31`, is an entry of its own.)
            // A list that names its chapters by number alone (`CHAPTER X` / `CHAPTER XI` / `APPENDIX`) gives
            // no number a title: a title after the last is an entry of its own.
            let bareNumbers = out.count >= 2 && out[out.count - 2].number != nil && out[out.count - 2].title == nil
                && !out[out.count - 2].isPart
            let titles = entry.number == nil && !entry.isPart && !HeadingCandidate.matterNote.matches(bare)
                && ((last.title == nil && last.number != nil && !bareNumbers) || (last.isPart && !afterBlank))
            if continues || titles {
                out[out.count - 1].title = [last.title, entry.title].compactMap { $0 }.joined(separator: " ")
            } else {
                out.append(entry)
            }
        }
        return out
    }

    /// A list's lines with each paragraph that runs its entries on, one after another
    /// (`I. TOM TIT TOT II. THE THREE SILLIES III. THE ROSE-TREE IV. THE OLD` / `WOMAN AND HER PIG V. …`),
    /// laid out one entry a line: the paragraph is cut before each number of a series that runs
    /// from 1 (and may start again at 1, a part's chapters), where two entries or more share a line
    /// (a list laid out one entry a line is left as it is); the text before the first is a line of its own.
    static func unflowed(_ lines: [String]) -> [String] {
        var out: [String] = []
        var block: [String] = []
        func flush() {
            defer { block = [] }
            guard !block.isEmpty else { return }
            let trimmed = block.map(TextLines.trim)
            let joined = trimmed.joined(separator: " ")
            var lineStarts = Set<Int>()
            var offset = 0
            for line in trimmed {
                lineStarts.insert(offset)
                offset += (line as NSString).length + 1
            }
            let ns = joined as NSString
            var cuts: [Int] = []
            var next = 1
            for m in inlineNumber.matches(in: joined, range: NSRange(location: 0, length: ns.length)) {
                let value = RomanNumeral.value(of: ns.substring(with: m.range(at: 1))) ?? Int(ns.substring(with: m.range(at: 1)))
                guard value == next || (value == 1 && next > 2) else { continue }
                cuts.append(m.range.location)
                next = (value ?? 0) + 1
            }
            guard cuts.count >= 3, cuts.filter({ !lineStarts.contains($0) }).count >= 2 else { out += block; return }
            var from = 0
            for cut in cuts + [ns.length] where cut > from {
                let piece = TextLines.trim(ns.substring(with: NSRange(location: from, length: cut - from)))
                if !piece.isEmpty { out.append(piece) }
                from = cut
            }
        }
        for line in lines {
            if TextLines.isBlank(line) {
                flush()
                out.append(line)
            } else {
                block.append(line)
            }
        }
        flush()
        return out
    }

    /// A number and its stop inside a line, where an entry may start (`XIV. `, `7. `).
    private static let inlineNumber = try! NSRegularExpression(pattern: #"(?<![\w'’.])([IVXLCDM]+|\d{1,3})\.\s"#)

    /// The column where an entry's title starts on its line: past its number (`  XIV.  Of the Sorrow Songs`
    /// at 8), where a title of a line of its own under it (`        The Afterthought`) stands in the same column,
    /// and only a deeper line goes on with it; the line's indent for an entry with no number.
    static func titleColumn(_ line: String, _ entry: ContentsEntry) -> Int {
        guard entry.number != nil, let title = entry.title, let r = line.range(of: String(title.prefix(8))) else { return TextLines.indent(line) }
        return line.distance(from: line.startIndex, to: r.lowerBound)
    }

    /// The pieces with each trusted list's chapters found.
    /// - parameter bookTitle: the letters of the title the title page opens with (``TextLines/letterKey(_:)``).
    /// - parameter marked: the first lines of the headings the format marks.
    static func apply(_ pieces: [StructurePiece], lists: [List], bookTitle: String? = nil, marked: Set<Int> = []) -> [StructurePiece] {
        var out = pieces
        // A list with no text between it and the next is one list with it (a contents page that lists
        // each part's chapters in a table of its own).
        var sorted: [List] = []
        for list in lists.sorted(by: { $0.after < $1.after }) {
            if let last = sorted.last, !pieces.contains(where: { piece in
                guard piece.firstLine >= last.after, piece.firstLine < list.after else { return false }
                if case .paragraph = piece { return true } else { return false }
            }) {
                sorted[sorted.count - 1] = List(after: list.after, entries: last.entries + list.entries.filter { !last.entries.contains($0) })
            } else {
                sorted.append(list)
            }
        }
        for (n, list) in sorted.enumerated() {
            let start = out.firstIndex { $0.firstLine >= list.after } ?? out.count
            let end = n + 1 < sorted.count ? (out.firstIndex { $0.firstLine >= sorted[n + 1].after } ?? out.count) : out.count
            // Its group titles are parts (``ListedParts``), found first: no chapter and no line of one.
            let entries = ListedParts.marked(list.entries)
            let replaced = chapters(ListedParts.apply(out[start..<end], entries: entries), entries: entries.filter { !$0.isPart },
                                    bookTitle: bookTitle, marked: marked)
            out.replaceSubrange(start..<end, with: replaced)
        }
        return out
    }

    /// How a piece was found to be an entry's chapter.
    private enum Found {
        case heading(listed: String?)
        case paragraph(ContentsEntry, listed: String?)
        case caption(prefix: String, text: String, ContentsEntry, listed: String?)
    }

    /// The pieces between a list and the next with the list's chapters found, if it is trusted.
    static func chapters(_ pieces: ArraySlice<StructurePiece>, entries: [ContentsEntry], bookTitle: String? = nil,
                         marked: Set<Int> = []) -> [StructurePiece] {
        guard entries.count >= 3 else { return Array(pieces) }
        var found: [Int: Found] = [:]
        // An entry the body heads with a heading of its own (`CHAPTER XII`) is that heading, never
        // a line of text before it that repeats its title (a diary entry's `Dr. Seward's Diary.`
        // inside an earlier chapter).
        let headings = pieces.compactMap { piece -> ContentsEntry? in
            guard case .heading(let lines, _, let c) = piece, !c.isPart else { return nil }
            return ContentsEntry.heading(lines)
        }
        // A number names an entry only when the list gives it to that entry alone (a book in parts
        // numbers its chapters again in each, and a misprint can repeat a number).
        let uniqueNumber = { (j: Int) in entries.indices.filter { entries[$0].hasNumber(of: entries[j]) }.count == 1 }
        let headed = Set(entries.indices.filter { j in
            headings.contains { entries[j].matches($0) || (entries[j].hasNumber(of: $0) && uniqueNumber(j)) }
        })
        var places: [Int: [Int]] = [:]  // entry → the pieces that name it
        func hasLater(_ j: Int, after k: Int) -> Bool {
            if places[j] == nil {
                places[j] = pieces.indices.filter { i in
                    switch pieces[i] {
                    case .heading(let lines, _, _): return ContentsEntry.heading(lines).map { entries[j].matches($0) } ?? false
                    case .paragraph(let lines, _):
                        return lines.count <= 2 && ContentsEntry.parse(lines.joined(separator: " ")).map { entries[j].matches($0, exactly: true) } ?? false
                    default: return false
                    }
                }
            }
            return places[j]!.contains { $0 > k }
        }
        func hasTitledLater(_ heading: ContentsEntry, after k: Int) -> Bool {
            pieces[(k + 1)...].contains { piece in
                guard case .heading(let lines, _, let c) = piece, !c.isPart, let later = ContentsEntry.heading(lines) else { return false }
                return later.title != nil && later.hasNumber(of: heading)
            }
        }
        var e = 0
        for k in pieces.indices where e < entries.count {
            switch pieces[k] {
            case .heading(let lines, _, let c):
                guard !c.isPart, let heading = ContentsEntry.heading(lines),
                      // A number alone (a stanza's `XV.` in a ballad quoted before CHAPTER XV) names no entry
                      // that a heading further on names with its number and a title.
                      heading.title != nil || !hasTitledLater(heading, after: k),
                      // An entry the body does not have is passed over only by a heading whose title says so.
                      let j = (e..<min(heading.title == nil ? e + 1 : e + 3, entries.count)).first(where: { entries[$0].matches(heading) })
                        // The next entry's number on a heading that titles it otherwise (`CHAPTER IX` /
                        // `Letter, Mina Harker to Lucy Westenra.` listed as `Mina Murray's Journal`).
                        ?? (entries[e].hasNumber(of: heading) ? e : nil)
                        // The next entry's title in other words (``ContentsEntry/nearlyMatches(_:)``).
                        ?? (entries[e].nearlyMatches(heading) ? e : nil)
                else { continue }
                found[k] = .heading(listed: listedTitle(entries[j], heading))
                e = j + 1
            case .paragraph(let lines, let line):
                // A line that is an entry's title exactly may pass over an entry or two the body has nowhere further on;
                // a heading the format marks may be a long title (`DESCRIPTION OF THE METHODS ADOPTED BY …`).
                guard (lines.count <= 2 && lines.allSatisfy({ $0.count <= 80 }))
                        || (marked.contains(line) && lines.count <= 4 && lines.joined(separator: " ").count <= 300),
                      let match = listedLine(lines, entries: entries, from: e, headed: headed)
                        ?? nearTitle(lines, entries: entries, at: e, headed: headed).flatMap({ hasLater(e, after: k) ? nil : $0 }),
                      (e..<match.index).allSatisfy({ !hasLater($0, after: k) }) else { continue }
                found[k] = .paragraph(match.entry, listed: listedTitle(entries[match.index], match.entry))
                e = match.index + 1
            case .skipped(let text, SkipReason.illustration, _):
                guard !headed.contains(e), let colon = text.firstIndex(of: ":") else { continue }
                var inner = TextLines.trim(String(text[text.index(after: colon)...]))
                if inner.hasSuffix("]") { inner.removeLast() }
                guard inner.count <= 80, let caption = ContentsEntry.parse(inner), entries[e].matches(caption, exactly: true) else { continue }
                found[k] = .caption(prefix: String(text[...colon]) + (text.hasSuffix("]") ? "]" : ""), text: TextLines.trim(inner), caption,
                                    listed: listedTitle(entries[e], caption))
                e += 1
            default:
                continue
            }
        }
        guard found.count >= 3, found.count * 3 >= entries.count * 2, let first = found.keys.min(),
              !(entries.filter({ $0.number != nil }).count * 10 <= entries.count && arePoemsInBooks(pieces, found: Set(found.keys))) else { return Array(pieces) }
        for k in sectionsOfFrontMatter(pieces, found: found, bookTitle: bookTitle) { found[k] = nil }
        for k in repeatedTitles(pieces, found: found, bookTitle: bookTitle) { found[k] = nil }
        let parts = listsParts(pieces, entries: entries, found: Set(found.keys))
        var out: [StructurePiece] = []
        for k in pieces.indices {
            let piece = pieces[k]
            switch (piece, found[k]) {
            case (.heading(let lines, let line, var c), .heading(let listed)?):
                if c.number != nil || c.kind == .fallback || parts { c.kind = .keyword(isPart: parts) }
                c.listedTitle = listed
                out.append(.heading(lines: lines, firstLine: line, candidate: c))
            case (.paragraph(let lines, let line), .paragraph(let entry, let listed)?):
                let cleaned = lines.map { Emphasis.remove(TextLines.collapse($0)) }
                out.append(.heading(lines: cleaned, firstLine: line, candidate: HeadingCandidate(
                    kind: .keyword(isPart: parts), text: cleaned.joined(separator: " "), hasTitle: entry.title != nil, listedTitle: listed)))
            case (.skipped(_, let reason, let line), .caption(let prefix, let text, let entry, let listed)?):
                out.append(.skipped(text: prefix, reason: reason, firstLine: line))
                out.append(.heading(lines: [text], firstLine: line, candidate: HeadingCandidate(
                    kind: .keyword(isPart: false), text: text, hasTitle: entry.title != nil, listedTitle: listed)))
            case (.heading(let lines, let line, let c), nil) where k > first && !c.isPart && (c.number != nil || c.kind == .fallback) && !parts
                && lines.first.flatMap({ HeadingCandidate.of($0) })?.kind != .standalone:
                // A numbered line the list does not name: a verse, an item, read as text. (Not a heading the format
                // marks whose words name it (`APPENDIX.`): a plain text's such line stays a heading, unlisted.)
                out += lines.map { StructurePiece.paragraph(lines: [$0], firstLine: line) }
            default:
                out.append(piece)
            }
        }
        return out
    }

    /// The found entries that are lines of text (no heading by their own words) under a front matter's
    /// heading that names itself (`INTRODUCTION` over `YOUTH — Aet. 1-25`, `OFFICE …`), before the book's
    /// chapters that name themselves (`CHAPTER I`): the sections of that introduction or preface, though the
    /// list names them at one level with the chapters. A listener hears one introduction, in sections.
    /// The book's title again (`The Complete ANGLER.` over an unnumbered first chapter) starts the work: no section.
    private static func sectionsOfFrontMatter(_ pieces: ArraySlice<StructurePiece>, found: [Int: Found], bookTitle: String?) -> [Int] {
        guard let series = pieces.indices.first(where: { k in
            if case .heading(_, _, let c) = pieces[k], case .keyword = c.kind, found[k] != nil { return true }
            return false
        }), case .heading(let first, _, _) = pieces[series],
        // A series that opens at its second chapter (`CHAP. II.`) has its first unnumbered: the entry before it.
        ContentsEntry.heading(first)?.number == 1 else { return [] }
        var out: [Int] = []
        var underMatter = false
        for k in pieces.indices where k < series {
            if case .heading(_, _, let c) = pieces[k] {
                underMatter = c.kind == .standalone
            } else if case .paragraph? = found[k], underMatter, case .paragraph(let lines, _) = pieces[k] {
                if let bookTitle, TextLines.letterKey(lines.joined(separator: " ")) == bookTitle { underMatter = false; continue }
                out.append(k)
            }
        }
        return out
    }

    /// The found entries that are the book's title again (its title page's first line) over a heading
    /// that names itself (`THE PRINCE` over `CHAPTER I`): a half-title, the title page's (``BookPasses/repeatedTitles(_:frontText:)``),
    /// no chapter, though the list names it.
    private static func repeatedTitles(_ pieces: ArraySlice<StructurePiece>, found: [Int: Found], bookTitle: String?) -> [Int] {
        guard let bookTitle, bookTitle.count >= 4 else { return [] }
        return found.keys.filter { k in
            guard case .paragraph(let lines, _) = pieces[k], TextLines.letterKey(lines.joined(separator: " ")) == bookTitle,
                  let next = pieces[(k + 1)...].firstIndex(where: { if case .sectionBreak = $0 { false } else { true } }) else { return false }
            if case .heading(_, _, let c) = pieces[next], case .keyword = c.kind { return true }
            return false
        }
    }

    /// The entry a short block of text names, as a title of its own: the next entry, or, both
    /// titles without numbers, the one after it when the body does not have the next (an `Introductory Note` the edition left out,
    /// a `Footnotes:` list the reader took apart); the block is the entry's words exactly, or two
    /// lines whose second is (a running title above the heading: `The Song of Hiawatha` /
    /// `Introduction`). An entry the body heads with a heading of its own is never a text's.
    private static func listedLine(_ lines: [String], entries: [ContentsEntry], from e: Int, headed: Set<Int>) -> (index: Int, entry: ContentsEntry)? {
        let whole = ContentsEntry.parse(lines.joined(separator: " "))
        let last = lines.count == 2 && HeadingCandidate.isTitleLike([lines[0]]) ? ContentsEntry.parse(lines[1]) : nil
        // Up to two entries passed over, titles only: a numbered entry's place is its number's.
        let reach = (e..<min(e + 3, entries.count)).prefix(while: { !headed.contains($0) && ($0 == e || entries[$0 - 1].number == nil) }).count
        for j in e..<(e + reach) where j == e || entries[j].number == nil {
            if let whole, entries[j].matches(whole, exactly: true) { return (j, whole) }
            if let last, entries[j].matches(last, exactly: true) { return (j, last) }
        }
        return nil
    }

    /// The next entry, for a line alone that reads as a title and gives that entry's title in other words
    /// (``ContentsEntry/nearlyMatches(_:)``): `A Lac of Rupees for a Bit of Advice` for `A LAC OF RUPEES FOR A PIECE OF
    /// ADVICE`, where the body sets its titles as lines of text. Not an entry the body heads with a heading of its own,
    /// nor one a line further on names exactly (the caller's check).
    private static func nearTitle(_ lines: [String], entries: [ContentsEntry], at e: Int, headed: Set<Int>) -> (index: Int, entry: ContentsEntry)? {
        guard e < entries.count, !headed.contains(e), lines.count == 1, HeadingCandidate.isTitleLike(lines),
              let line = ContentsEntry.parse(lines[0]), entries[e].nearlyMatches(line) else { return nil }
        return (e, line)
    }

    /// Whether the list names the book's parts (`Second Series`, `Third Series`), not its chapters:
    /// its entries have no numbers, and under two or more of those found the body's own numbered
    /// and titled headings start again at 1 (`I. LIFE.`, `II. LOVE.` …; not a poem's bare stanza
    /// numbers). Those headings are then the chapters.
    private static func listsParts(_ pieces: ArraySlice<StructurePiece>, entries: [ContentsEntry], found: Set<Int>) -> Bool {
        guard entries.allSatisfy({ $0.number == nil }) else { return false }
        var restarts = 0
        for k in found {
            var numbers: [Int] = []
            var j = k + 1
            while j < pieces.endIndex, !found.contains(j) {
                if case .heading(_, _, let c) = pieces[j], c.hasTitle, let n = c.number { numbers.append(n) }
                j += 1
            }
            if numbers.count >= 2, numbers.first == 1 { restarts += 1 }
        }
        return restarts >= 2
    }

    /// Whether the entries found, titles with no numbers (but a tenth: `1861`), are the poems of a collection listed under
    /// its books (`BOOK I. INSCRIPTIONS` over `One's-Self I Sing` …): the body has part headings
    /// and the text under each entry is short (``RestartingNumbers/maxSectionWords``, median). The books are then the
    /// chapters, not the poems.
    private static func arePoemsInBooks(_ pieces: ArraySlice<StructurePiece>, found: Set<Int>) -> Bool {
        guard pieces.contains(where: { if case .heading(_, _, let c) = $0 { c.isPart } else { false } }) else { return false }
        let lengths = found.sorted().map { k in
            var words = 0
            var j = k + 1
            while j < pieces.endIndex, !pieces[j].isHeading, !found.contains(j) {
                if case .paragraph(let lines, _) = pieces[j] { words += lines.reduce(0) { $0 + TextLines.wordCount($1) } }
                j += 1
            }
            return words
        }.sorted()
        return lengths[lengths.count / 2] <= RestartingNumbers.maxSectionWords
    }

    /// The entry's title, for a heading that shows only the number.
    private static func listedTitle(_ entry: ContentsEntry, _ heading: ContentsEntry) -> String? {
        heading.title == nil ? entry.title : nil
    }
}
