import LecternCore

/// The structure of a plain text as a careful narrator finds it: which lines are part and chapter
/// headings, which are running text and footnotes, and which are not read (Project Gutenberg's
/// header and licence, title page, contents, illustrations, tables, index …) and why.
///
/// Every word of the input comes out exactly once, in a heading, a paragraph, a note or a skipped
/// passage, in the order of the input.
///
/// Skipped reasons: "Project Gutenberg header", "producer's credit", "transcriber's note", "title page",
/// "contents list", "list of illustrations", "illustration", "table", "transcriber's notation",
/// "footnote label", "footnotes heading", "page number", "index", "errata", "glossary (back matter)", "advertisements", "colophon",
/// "Project Gutenberg licence"; each no longer than its ``SkipBounds`` (a longer candidate is read,
/// and an ``TextItem/oversizedSkip(_:)`` item says so where it starts).
/// Silent-stretch reasons: "footnote marker", "transcriber's code", "illustration", "formatting markup".
public struct PlainTextStructure {
    /// What to do with `[Illustration: …]` captions.
    public enum Illustrations: Sendable { case skip, read }


    /// - parameter lines: the decoded text split at "\n" (CR and CRLF already turned into LF), as written.
    public static func analyse(_ lines: [String], illustrations: Illustrations = .skip) -> [TextItem] {
        SectionHeadings.apply(PlayReading.apply(analyse(lines, illustrations: illustrations, evidence: .none)))
    }

    /// - parameter lines: as above, or a ``BlockStream`` laid out as lines.
    /// - parameter evidence: what the format's markup says about the lines. The caller reads
    ///   plays (``PlayReading``) once the items carry what the format said of each block.
    static func analyse(_ lines: [String], illustrations: Illustrations = .skip, evidence: FormatEvidence) -> [TextItem] {
        var boundaries = GutenbergBoundaries.find(in: lines)
        var oversized: [OversizedSkip] = []
        // A header or licence longer than one is no header or licence: its lines are the book's.
        if let h = boundaries.headerEnd, let over = SkipBounds.oversized(lines[0...h], reason: SkipReason.gutenbergHeader, firstLine: 0) {
            oversized.append(over)
            boundaries.headerEnd = nil
            boundaries.credit = nil
        }
        if let f = boundaries.footerStart, let over = SkipBounds.oversized(lines[f...], reason: SkipReason.gutenbergLicence, firstLine: f) {
            oversized.append(over)
            boundaries.footerStart = nil
        }
        var head: [StructurePiece] = []
        var start = 0
        if let h = boundaries.headerEnd {
            head.append(skipped(lines, 0..<(h + 1), SkipReason.gutenbergHeader))
            start = h + 1
        }
        if let credit = boundaries.credit {
            head.append(skipped(lines, credit, SkipReason.producersCredit))
            start = credit.upperBound
        }
        let limit = boundaries.footerStart ?? lines.count

        var scanner = StructureScanner(lines: lines, limit: limit, illustrations: illustrations, fallbackHeadings: false,
                                       evidence: evidence)
        scanner.run(from: start)
        // Numbers of poems or stanzas within the sections are no chapters (and no evidence that the
        // book's headings are numbered).
        // A dictionary's lone letters in order are headings (``BookPasses/loneLetters(_:)``).
        var (body, sections) = RestartingNumbers.apply(BookPasses.loneLetters(scanner.pieces))
        var contentsLists = scanner.contentsLists
        var scannerOversized = scanner.oversized
        // Short upper-case lines are headings only in a book with no numbered ones (a PREFACE alone does not count, nor a title in capitals set as a chapter's: ``GapCapitals``),
        // nor numbered notes at the back (``BackNotes``).
        let backNotes = BackNotes.start(of: body, lines: lines, start: start, limit: limit)
        let numbered = backNotes == nil && body.contains { piece in
            if case .heading(_, _, let c) = piece { return c.kind != .standalone && c.kind != .fallback }
            return false
        }
        // Nor are the stanza numbers of the book's last piece (``RestartingNumbers/isLateSeries(_:)``),
        // where the short lines find titled pieces before them.
        let lateStanzas = numbered && RestartingNumbers.isLateSeries(body)
        if !numbered || lateStanzas {
            var fallback = StructureScanner(lines: lines, limit: limit, illustrations: illustrations, fallbackHeadings: true,
                                            evidence: evidence)
            fallback.run(from: start)
            let read = RestartingNumbers.apply(BookPasses.loneLetters(fallback.pieces))
            if !lateStanzas || !read.sections.isEmpty {
                (body, sections) = read
                contentsLists = fallback.contentsLists
                scannerOversized = fallback.oversized
            }
        }
        if let backNotes {
            let read = BackNotes.apply(body, after: backNotes, lines: lines)
            body = read.pieces
            sections.formUnion(read.sections)
        }

        body = BookPasses.untitledContents(body)
        let unheaded = UnheadedContents.apply(body, lines: lines)
        body = unheaded.pieces
        let lists = contentsLists.map { ListedChapters.List(after: $0.upperBound, entries: ListedChapters.entries(lines[$0])) }
            + evidence.contentsLists + unheaded.lists
        let bookTitle = (start..<limit).first { !TextLines.isBlank(lines[$0]) }.map { TextLines.letterKey(lines[$0]) }
        body = ListedChapters.apply(body, lists: lists, bookTitle: bookTitle, marked: evidence.headings)
        body = BookPasses.demoteNumbers(body)
        body = BookPasses.nestParts(body)
        body = ClosingNote.apply(body)
        let front = frontText(lines, body: body)
        var cast: [Int: BlockKind] = [:]
        if evidence.namedChapters.isEmpty { (body, cast) = CastList.apply(body, lines: lines) }
        for line in sections { cast[line] = .heading }
        // A cast list's last name before the first act is no repeated title.
        body = zip(body, BookPasses.repeatedTitles(body, frontText: front)).map { cast[$0.0.firstLine] != nil ? $0.0 : $0.1 }
        body = ProducersMatter.apply(body, transcribed: boundaries.headerEnd != nil || boundaries.footerStart != nil)
        body = BookPasses.frontMatter(body, namedChapters: evidence.namedChapters)
        body = BookPasses.advertisements(body)
        body = BookPasses.colophon(body, frontText: front)
        let bounded = SkipBounds.apply(body, lines: lines, limit: limit, checked: StructureScanner.boundedKinds)
        body = BookPasses.sectionBreaks(bounded.pieces)
        oversized += scannerOversized + bounded.oversized
        let letterNotes = Set(body.compactMap { piece -> String? in
            if case .note(let id, _, _) = piece, id.count == 1, id.first!.isLetter { return id }
            return nil
        })

        let notes = body.compactMap { piece -> String? in
            if case .skipped(let text, SkipReason.transcribersNote, _) = piece { return text }
            return nil
        }
        let codes = TranscribersNote.definedCodes(in: notes)
        let letters = AccentDefinitions.letters(in: notes)
        let accents = Accents(defined: letters, notation: codes.subtracting(letters.keys),
                              slashO: AccentDefinitions.writesSlashO(notes: notes, lines: lines[start..<limit]))

        var tail: [StructurePiece] = []
        if let f = boundaries.footerStart { tail.append(skipped(lines, f..<lines.count, SkipReason.gutenbergLicence)) }
        let items = (head + body + tail).compactMap {
            item($0, letterNotes: letterNotes, codes: codes, accents: accents, illustrations: illustrations, cast: cast)
        }
        return placing(oversized, in: items)
    }

    /// `items` with each warning of a passage read although taken for a skip before the first item
    /// at or after its line.
    static func placing(_ oversized: [OversizedSkip], in items: [TextItem]) -> [TextItem] {
        guard !oversized.isEmpty else { return items }
        var out: [TextItem] = []
        var pending = oversized.sorted { $0.firstLine < $1.firstLine }[...]
        for item in items {
            while let next = pending.first, next.firstLine <= item.firstLine {
                out.append(.oversizedSkip(next))
                pending = pending.dropFirst()
            }
            out.append(item)
        }
        return out + pending.map { .oversizedSkip($0) }
    }

    /// Upper-cased letters of everything before the first heading (PG header and title page), to recognise
    /// a book title repeated before a chapter.
    static func frontText(_ lines: [String], body: [StructurePiece]) -> String {
        let first = body.lazy.compactMap { piece -> Int? in
            if case .heading(_, let line, _) = piece { return line }
            return nil
        }.first ?? 0
        return TextLines.letterKey(lines[0..<first].joined(separator: " "))
    }

    /// `_The scene is a drawing-room…_`, `[_Note: …_]`: one pair of italic marks around it all.
    static func isWhollyItalic(_ lines: [String]) -> Bool {
        let text = TextLines.collapse(lines.joined(separator: " "))
        guard text.utf8.filter({ $0 == UInt8(ascii: "_") }).count == 2 else { return false }
        let inner = text.hasPrefix("[") ? text.dropFirst() : Substring(text)
        let end = inner.hasSuffix("]") ? inner.dropLast() : inner
        return end.hasPrefix("_") && (end.hasSuffix("_") || end.hasSuffix("_.") || end.hasSuffix("_:"))
    }

    static func skipped(_ lines: [String], _ range: Range<Int>, _ reason: SkipReason) -> StructurePiece {
        .skipped(text: TextLines.collapse(lines[range].joined(separator: " ")), reason: reason, firstLine: range.lowerBound)
    }

    /// What the book's accent codes stand for (``AccentCodes``, ``AccentDefinitions``).
    struct Accents {
        var defined: [String: String] = [:]
        var notation: Set<String> = []
        var slashO = false
    }

    /// `cast`: the kinds of a cast list's blocks (``CastList``) and of section headings
    /// (``RestartingNumbers``), by their first lines.
    static func item(_ piece: StructurePiece, letterNotes: Set<String>, codes: Set<String>, accents: Accents,
                     illustrations: Illustrations, cast: [Int: BlockKind] = [:]) -> TextItem? {
        switch piece {
        case .heading(let lines, let first, let candidate):
            let level: TextHeading.Level = candidate.isPart ? .part : .chapter
            return .heading(TextHeading(level: level, lines: lines, firstLine: first, listedTitle: candidate.listedTitle))
        case .paragraph(let lines, let first):
            var p = TextCleaner.paragraph(lines, firstLine: first, letterNotes: letterNotes, definedCodes: codes,
                                          skipIllustrations: illustrations == .skip)
            p.pronunciations = AccentCodes.pronunciations(in: p.text, defined: accents.defined, notation: accents.notation, slashO: accents.slashO)
            if let kind = cast[first] {
                p.kind = kind
                if kind == CastList.entryKind {
                    p.silent = (p.silent + CastList.silentBraces(in: p.text)).sorted { $0.offset < $1.offset }
                }
            } else if isWhollyItalic(lines) {
                // A stage direction if the book is a play (``PlayReading`` decides).
                p.italic = true
                p.kind = .stageDirection
            } else if let label = lines.first.flatMap(ItalicSpeakerLabel.label(opening:)), p.text.hasPrefix(label) {
                p.speakerLabel = label.utf16.count  // a speaker's if the book is a play (``PlayReading`` decides)
            }
            return p.text.isEmpty ? nil : .paragraph(p)
        case .note(let id, let lines, let first):
            var note = TextCleaner.note(id: id, lines: lines, firstLine: first, definedCodes: codes)
            note.pronunciations = AccentCodes.pronunciations(in: note.text, defined: accents.defined, notation: accents.notation, slashO: accents.slashO)
            return .note(note)
        case .sectionBreak(let line):
            return .sectionBreak(line: line)
        case .skipped(let text, let reason, let first):
            return text.isEmpty ? nil : .skipped(SkippedPassage(text: text, reason: reason, firstLine: first))
        }
    }
}
