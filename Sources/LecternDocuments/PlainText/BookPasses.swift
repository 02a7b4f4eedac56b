import LecternCore

/// Decisions that need the whole book: which BOOK/PART/EPOCH headings hold chapters, the title page
/// before the first heading, a book title repeated before a chapter, advertisements after THE END,
/// and section breaks that do not stand between two stretches of text.
enum BookPasses {
    /// A part-keyword heading with no chapter after it (before the next part) is a chapter.
    static func nestParts(_ pieces: [StructurePiece]) -> [StructurePiece] {
        var out = pieces
        var partIndex: Int?
        var holdsChapters = false
        func settle() {
            if let p = partIndex, !holdsChapters, case .heading(let lines, let first, var c) = out[p] {
                c.kind = .keyword(isPart: false)
                out[p] = .heading(lines: lines, firstLine: first, candidate: c)
            }
        }
        for (k, piece) in pieces.enumerated() {
            guard case .heading(_, _, let c) = piece else { continue }
            if c.isPart {
                settle()
                partIndex = k
                holdsChapters = false
            } else {
                holdsChapters = true
            }
        }
        settle()
        return out
    }

    /// A short upper-case line right before a heading that repeats the title page (`JACK SHEPPARD.`,
    /// `CRITICAL AND HISTORICAL ESSAYS`) is title-page matter.
    static func repeatedTitles(_ pieces: [StructurePiece], frontText: String) -> [StructurePiece] {
        var out = pieces
        for k in pieces.indices.dropLast() {
            // Section breaks between them do not count (an HTML page's `<hr>` before each chapter).
            guard case .paragraph(let lines, let first) = pieces[k], lines.count <= 2,
                  pieces[(k + 1)...].first(where: { if case .sectionBreak = $0 { false } else { true } })?.isHeading == true
            else { continue }
            let text = lines.joined(separator: " ")
            let key = TextLines.letterKey(text)
            guard TextLines.isUpperCase(text), TextLines.words(text).count <= 10, key.count >= 4, frontText.contains(key) else { continue }
            out[k] = .skipped(text: TextLines.collapse(text), reason: SkipReason.titlePage, firstLine: first)
        }
        return out
    }

    /// In a book with headings, what is read before the first heading is title-page matter, unless it is
    /// too long for one (more than 1,500 words and a tenth of the book): then the first heading found is
    /// late in the book (an EPILOGUE after unheaded text) and the text before it is read. Running text
    /// there (``FrontMatter/runningTextStart(_:read:)``) is read from where it starts.
    ///
    /// Where the format names its chapters (an EPUB's table of contents, `namedChapters`), its own
    /// marks say what is front matter (`matter:`, landmarks, `epub:type`), not this pass.
    static func frontMatter(_ pieces: [StructurePiece], namedChapters: [Int] = []) -> [StructurePiece] {
        guard namedChapters.isEmpty, let first = pieces.firstIndex(where: \.isHeading) else { return pieces }
        func words(_ slice: ArraySlice<StructurePiece>) -> Int {
            slice.reduce(0) { n, piece in
                switch piece {
                case .paragraph(let lines, _), .note(_, let lines, _): n + lines.reduce(0) { $0 + TextLines.wordCount($1) }
                default: n
                }
            }
        }
        let front = words(pieces[..<first])
        if front > 1500, front * 10 > words(pieces[...]) { return pieces }
        let read = FrontMatter.read(pieces[..<first])
        // Running text before the first heading (a prologue, a note to the reader, a song's verses) is no title page.
        let running = FrontMatter.runningTextStart(pieces[..<first], read: read) ?? first
        return pieces[..<first].enumerated().compactMap { k, piece in
            read.contains(k) || k >= running ? piece : piece.skipped(SkipReason.titlePage)
        } + pieces[first...]
    }

    /// After the last `THE END` (with no heading after it but an afterword's or a catalogue's): the publisher's
    /// advertisements (``Advertisements``), headings and all, are skipped; an afterword before them is read.
    static func advertisements(_ pieces: [StructurePiece]) -> [StructurePiece] {
        /// `THE END` on a line of its own, or set as a heading (an HTML page's `<h2>THE END.</h2>`).
        func isTheEnd(_ k: Int) -> Bool {
            switch pieces[k] {
            case .paragraph(let lines, _), .heading(let lines, _, _): lines.count == 1 && BackMatter.theEnd.matches(lines[0])
            default: false
            }
        }
        /// A heading after `THE END` that leaves it the book's end: an afterword's or a catalogue's,
        /// one over nothing of its own (`Selections from`), or one over a catalogue's listing
        /// (`THE BLUE BONNET SERIES` over its prices and titles).
        func keepsTheEnd(_ k: Int) -> Bool {
            guard case .heading(let lines, _, _) = pieces[k] else { return true }
            if isTheEnd(k) || Advertisements.keepsTheEnd(lines.joined(separator: " ")) { return true }
            let own = pieces[(k + 1)...].prefix { !$0.isHeading }.compactMap { piece -> String? in
                if case .paragraph(let lines, _) = piece { lines.joined(separator: " ") } else { nil }
            }
            let listings = own.filter { Advertisements.isListing($0) || Advertisements.isPriced($0) }.count
            return own.isEmpty || listings > 0
        }
        guard let end = pieces.indices.last(where: isTheEnd), end + 1 < pieces.count,
              pieces.indices[(end + 1)...].allSatisfy(keepsTheEnd),
              var start = Advertisements.start(in: pieces[(end + 1)...]) else { return pieces }
        // The catalogue's headings right before its first listing (`Selections from`, `THE BLUE BONNET SERIES`) are its own.
        func isTitleLine(_ piece: StructurePiece) -> Bool {
            // A line of display type: short, no sentence (`Selections from`, `Books for Girls`; not `PRINTED BY … LONDON.`).
            if case .paragraph(let lines, _) = piece, lines.count == 1, let last = TextLines.trim(lines[0]).last {
                TextLines.wordCount(lines[0]) <= 8 && !".!?:;\"”'’)]".contains(last)
            } else { false }
        }
        while start - 1 > end, pieces[start - 1].isHeading || pieces[start - 1].isSkipped || isTitleLine(pieces[start - 1]) { start -= 1 }
        return Array(pieces[..<start]) + pieces[start...].compactMap { piece in
            if case .heading(let lines, let first, _) = piece {
                return .skipped(text: TextLines.collapse(lines.joined(separator: " ")), reason: SkipReason.advertisements, firstLine: first)
            }
            return piece.skipped(SkipReason.advertisements)
        }
    }

    /// A section break is kept only between two stretches of text (paragraphs or notes), once.
    static func sectionBreaks(_ pieces: [StructurePiece]) -> [StructurePiece] {
        var out: [StructurePiece] = []
        for (k, piece) in pieces.enumerated() {
            guard case .sectionBreak = piece else { out.append(piece); continue }
            let before = out.last(where: { if case .skipped = $0 { false } else { true } })
            let after = pieces[(k + 1)...].first(where: { if case .skipped = $0 { false } else { true } })
            if let before, before.isReadText, let after, after.isReadText { out.append(piece) }
        }
        return out
    }
}

extension BookPasses {
    /// Lone numbers (`I.`, `II.`) and numbered titles (`I. A SCANDAL IN BOHEMIA`) are chapter headings only
    /// where the book has no CHAPTER-style headings;
    /// in a book that has them they number stanzas or sections inside a chapter, and are read.
    static func demoteNumbers(_ pieces: [StructurePiece]) -> [StructurePiece] {
        // Headings that name themselves chapters; not a lone `V` a contents list found (``ListedChapters``),
        // which is the very series of numbers.
        let keywordChapters = pieces.filter { piece in
            guard case .heading(_, _, let c) = piece, c.kind == .keyword(isPart: false) else { return false }
            return HeadingCandidate.of(c.text).map { if case .keyword = $0.kind { true } else { false } } ?? true
        }
        guard keywordChapters.count >= 2 else { return pieces }
        return pieces.flatMap { piece -> [StructurePiece] in
            guard case .heading(let lines, let first, let c) = piece, c.number != nil else { return [piece] }
            return lines.map { StructurePiece.paragraph(lines: [$0], firstLine: first) }
        }
    }

    /// Lone capital letters are headings only as a series of three or more (a dictionary's `A`, `B`,
    /// `C` …); one or two are lines of the text.
    static func loneLetters(_ pieces: [StructurePiece]) -> [StructurePiece] {
        let isLetter = { (piece: StructurePiece) -> Bool in
            if case .heading(_, _, let c) = piece, case .letter = c.kind { return true }
            return false
        }
        guard pieces.filter(isLetter).count < 3 else { return pieces }
        return pieces.flatMap { piece -> [StructurePiece] in
            guard isLetter(piece), case .heading(let lines, let first, _) = piece else { return [piece] }
            return lines.map { StructurePiece.paragraph(lines: [$0], firstLine: first) }
        }
    }

    /// After the last `THE END` (a line, or an illustration of it): what repeats the title page (a printer's
    /// imprint) is a colophon, not read.
    static func colophon(_ pieces: [StructurePiece], frontText: String) -> [StructurePiece] {
        let lastHeading = pieces.lastIndex(where: \.isHeading) ?? -1
        guard let end = pieces.indices.last(where: { k in
            guard k > lastHeading else { return false }
            switch pieces[k] {
            case .paragraph(let lines, _): return lines.count == 1 && BackMatter.theEnd.matches(lines[0])
            case .skipped(let text, let reason, _):
                return reason == SkipReason.illustration && TextLines.letterKey(text) == "ILLUSTRATIONTHEEND"
            default: return false
            }
        }) else { return pieces }
        var out = pieces
        for k in (end + 1)..<pieces.count {
            guard case .paragraph(let lines, _) = pieces[k] else { continue }
            let key = TextLines.letterKey(lines.joined(separator: " "))
            if key.count >= 8, frontText.contains(key), let s = pieces[k].skipped(SkipReason.colophon) { out[k] = s }
        }
        return out
    }
}

extension BookPasses {
    /// Three or more headings in a row with nothing read between them, each of which comes again later as
    /// a heading, are an untitled contents list (`CHAPTER I. Loomings` / `CHAPTER II. The Carpet-Bag` …
    /// separated by blank lines), not empty chapters. The run's last heading is an entry too when the next
    /// heading repeats its first (`Chapter V` / an epigraph / `Chapter I`).
    static func untitledContents(_ pieces: [StructurePiece]) -> [StructurePiece] {
        let keys: [String?] = pieces.map { piece in
            if case .heading(let lines, _, _) = piece { return TextLines.letterKey(lines.joined(separator: " ")) }
            return nil
        }
        func repeatsLater(_ k: Int) -> Bool {
            guard let key = keys[k] else { return false }
            return keys[(k + 1)...].contains { other in
                guard let other else { return false }
                return other.hasPrefix(key) || key.hasPrefix(other)
            }
        }
        var out = pieces
        var k = 0
        while k < pieces.count {
            guard keys[k] != nil else { k += 1; continue }
            var run = [k]
            var j = k + 1
            while j < pieces.count {
                if keys[j] != nil { run.append(j) } else if pieces[j].isReadText || pieces[j].isHeading { break }
                else if case .skipped = pieces[j] { break }
                j += 1
            }
            // The last heading of the run may be a real one (it has the text after it): only those before it,
            // unless the next heading starts the series over (an epigraph between the list and its first chapter).
            var entries = run.count >= 3 ? Array(run.dropLast()) : []
            if let last = run.last, entries.count >= 2, repeatsLater(last),
               let restart = keys[(last + 1)...].firstIndex(where: { $0 != nil }), keys[restart] == keys[run[0]] {
                entries.append(last)
            }
            if entries.count >= 2, entries.allSatisfy(repeatsLater) {
                for e in entries {
                    if case .heading(let lines, let first, _) = pieces[e] {
                        out[e] = .skipped(text: lines.joined(separator: " "), reason: SkipReason.contentsList, firstLine: first)
                    }
                }
            }
            k = j
        }
        return out
    }
}
