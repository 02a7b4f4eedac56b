import Foundation
import LecternCore

/// Walks the body of a plain text once, line by line, and finds its pieces with the detectors
/// (illustrations, notation, separators, transcriber's notes, contents lists, index, footnotes,
/// tables, headings). Decisions that need the whole book are left to `PlainTextStructure`.
struct StructureScanner {
    let lines: [String]
    /// The end (exclusive) of the body.
    let limit: Int
    let illustrations: PlainTextStructure.Illustrations
    /// Whether isolated short upper-case lines count as headings (only when nothing else does).
    let fallbackHeadings: Bool
    /// What the format's markup says about the lines (none for a plain text).
    let evidence: FormatEvidence

    private(set) var pieces: [StructurePiece] = []
    /// Candidates too long for what they were taken for (``SkipBounds``): read, not skipped.
    private(set) var oversized: [OversizedSkip] = []
    /// The lines of each contents list skipped (the evidence for ``ListedChapters``).
    private(set) var contentsLists: [Range<Int>] = []
    private var paragraph: [String] = []
    private var paragraphStart = 0
    private var inFootnotes = false
    private var lastNumber: Int?
    private var lastTitledNumber: Int?
    private var lastLetter: Int?
    private var labelCounts: [String: Int]?
    /// How often each short line's letters stand as a line of the body (``isRefrain(_:)``).
    private var shortLineCounts: [String: Int]?
    private var blockLabels: Int?
    /// The letters of the body's first line: the title the title page opens with.
    private var bookTitle: String?
    /// The book numbers its lines in the margin (`[5]`, `[10]` …): no such label opens a note.
    private let marginLineNumbers: Bool
    /// The lines of a plain text's chapter titles in capitals set after wide gaps (``GapCapitals``).
    private let gapCapitals: Set<Int>

    init(lines: [String], limit: Int, illustrations: PlainTextStructure.Illustrations, fallbackHeadings: Bool,
         evidence: FormatEvidence = .none) {
        self.evidence = evidence
        self.lines = lines
        self.limit = limit
        self.illustrations = illustrations
        self.fallbackHeadings = fallbackHeadings
        marginLineNumbers = MarginLineNumbers.present(in: lines, limit: limit)
        gapCapitals = fallbackHeadings || !evidence.headings.isEmpty ? [] : GapCapitals.titles(in: lines, from: 0, limit: limit)
    }


    /// A number alone far out in the right margin (50 columns in or more, past where a centred heading
    /// stands) opening a block: the printed page's number, kept by the transcription, not the text's.
    static func isMarginPageNumber(_ line: String) -> Bool {
        guard TextLines.indent(line) >= 50 else { return false }
        let t = TextLines.trim(line)
        return (1...4).contains(t.count) && t.allSatisfy(\.isASCII) && t.allSatisfy(\.isNumber)
    }

    mutating func run(from start: Int) {
        var i = start
        bookTitle = (start..<limit).first { !TextLines.isBlank(lines[$0]) }.map { TextLines.letterKey(lines[$0]) }
        while i < limit { i = step(i) }
        flush()
    }

    // MARK: - One line

    private mutating func step(_ i: Int) -> Int {
        let line = lines[i]
        if TextLines.isBlank(line) {
            flush()
            return i + 1
        }
        let t = TextLines.trim(line)
        if paragraph.isEmpty, Self.isMarginPageNumber(line) {
            pieces.append(.skipped(text: t, reason: SkipReason.pageNumber, firstLine: i))
            return i + 1
        }
        if t.first == "[", IllustrationMark.opens(t) {
            // Inside a paragraph, a mark that closes on its line stays in the text as a silent stretch.
            if paragraph.isEmpty || Brackets.closingIndex(in: t) == nil {
                flush()
                return illustration(at: i)
            }
        }
        if t.first == "[", var j = Notation.end(from: i, in: lines, limit: limit) {
            flush()
            while j < limit, let next = Notation.end(from: j, in: lines, limit: limit) { j = next }
            if !skipBounded(i..<j, SkipReason.transcribersNotation) { pieces += SkipBounds.paragraphs(lines, i..<j) }
            return j
        }
        if Separators.isSeparator(t) {
            flush()
            pieces.append(.sectionBreak(i))
            return i + 1
        }
        if paragraph.isEmpty, let next = blockStart(at: i, text: t) { return next }
        if paragraph.isEmpty { paragraphStart = i }
        paragraph.append(t)
        return i + 1
    }

    /// Detectors that only apply where a block (a paragraph) starts.
    private mutating func blockStart(at i: Int, text t: String) -> Int? {
        if TranscribersNote.starts(t) {
            // Under a heading the format marks, the note is its section: its deeper headings and breaks are the note's.
            if let section = sectionEnd(i), section > i + 1, SkipBounds.oversized(lines[i..<section], reason: SkipReason.transcribersNote, firstLine: i) == nil {
                skip(i..<section, SkipReason.transcribersNote)
                return section
            }
            let end = TranscribersNote.end(from: i, in: lines, limit: limit) { self.isHeadingStart($0) }
            if skipBounded(i..<end, SkipReason.transcribersNote) { return end }
        }
        if let reason = ContentsList.title(t) {
            let end = ContentsList.titledEnd(from: i, in: lines, limit: limit) { self.evidence.headings.contains($0) || self.isChapterStart($0) }
            if skipBounded(i..<end, reason) {
                if reason == SkipReason.contentsList { contentsLists.append(i..<end) }
                return end
            }
        }
        if BackMatter.errataTitle.matches(t) {
            // A list of corrections: to the first block that is not one.
            let end = BackMatter.errataEnd(from: i, in: lines, limit: limit)
            if skipBounded(i..<end, SkipReason.errata) { return end }
        } else if BackMatter.glossaryTitle.matches(t) && !hasChapterAfter(i) {
            // A glossary after the last chapter: to the end of the book.
            if skipBounded(i..<limit, SkipReason.glossary) { return limit }
        }
        if BackMatter.isIndex(at: i, in: lines, limit: limit) {
            // To the end of the book, or to the first running text or chapter after it (an index of first
            // lines at the front of a book ends there).
            var end = i + 1
            var lastContent = i
            while end < limit, !TranscribersNote.starts(lines[end]) {
                if !TextLines.isBlank(lines[end]) {
                    if TextLines.isBlank(lines[end - 1]),
                       ContentsList.isProseBlock(from: end, in: lines, limit: limit) || isChapterStart(end) { break }
                    lastContent = end
                }
                end += 1
            }
            if skipBounded(i..<(lastContent + 1), SkipReason.index) { return lastContent + 1 }
        }
        if Footnotes.isHeading(t), let next = firstNote(after: i) {
            skip(i..<(i + 1), SkipReason.footnotesHeading)
            inFootnotes = true
            // (A stray bracket on a line of its own between the title and the first note goes with the title.)
            if let bracket = nextContent(after: i), bracket < next {
                skip(bracket..<(bracket + 1), SkipReason.footnotesHeading)
                return bracket + 1
            }
            return i + 1
        }
        if let label = Footnotes.label(of: t, inFootnotesSection: inFootnotes),
           !marginLineNumbers || label.bracketed || inFootnotes {
            return note(at: i, label: label)
        }
        if let end = ContentsList.pageListEnd(from: i, in: lines, limit: limit) {
            let before = lines[max(0, i - 6)..<i].joined(separator: " ").lowercased()
            let reason = TextLines.has(before, "illustration") ? SkipReason.illustrationsList : SkipReason.contentsList
            // Over its bound, read: each line from the next would start a shorter one.
            if skipBounded(i..<end, reason) {
                if reason == SkipReason.contentsList { contentsLists.append(i..<end) }
            } else {
                pieces += SkipBounds.paragraphs(lines, i..<end)
            }
            return end
        }
        let end = blockEnd(i)
        if Tables.isTable(lines[i..<end]) {
            if !skipBounded(i..<end, SkipReason.table) { pieces += SkipBounds.paragraphs(lines, i..<end) }
            return end
        }
        return heading(at: i, text: t)
    }

    // MARK: - Headings

    /// Whether a chapter or part heading (`CHAPTER II.`, `BOOK THE LAST`) stands anywhere after line `i`.
    private func hasChapterAfter(_ i: Int) -> Bool {
        var j = i + 1
        while j < limit {
            if TextLines.isBlank(lines[j - 1]), let c = HeadingCandidate.of(lines[j]), case .keyword = c.kind { return true }
            j += 1
        }
        return false
    }

    /// The end (exclusive) of the section a marked heading at line `i` opens: the next marked heading of its
    /// level or above, or the body's end; nil when the format marks no heading there.
    private func sectionEnd(_ i: Int) -> Int? {
        guard let level = evidence.headingLevels[i] else { return nil }
        let end = evidence.headingLevels.filter { $0.key > i && $0.key < limit && $0.value <= level }.keys.min() ?? limit
        // A chapter's or part's heading (`CHAPTER I`) under it is the book's, not the note's.
        let named = evidence.headingLevels.keys.contains { j in
            guard j > i, j < end, let c = HeadingCandidate.of(lines[j]), case .keyword = c.kind else { return false }
            return true
        }
        return named ? nil : end
    }

    /// Whether line `i` would open a heading, or is one the format marks (for ending transcriber's notes).
    private func isHeadingStart(_ i: Int) -> Bool {
        if evidence.headings.contains(i) || evidence.namedChapters.contains(i) { return true }
        guard let c = HeadingCandidate.of(lines[i]) else { return false }
        if c.number != nil { return TextLines.isBlank(lines[min(i + 1, lines.count - 1)]) }
        return true
    }

    /// Whether line `i` is a heading with running text within the next few blocks (the end of a contents list).
    private func isChapterStart(_ i: Int) -> Bool {
        // A lone letter (an index's `W.` over its entries) starts no chapter here.
        guard let c = HeadingCandidate.of(lines[i]) else { return false }
        if case .letter = c.kind { return false }
        var k = blockEnd(i)
        for step in 0..<2 {
            guard let next = nextContent(after: k - 1) else { return false }
            k = blockEnd(next)
            // Two or more lines of running text (a contents entry has a page number or is short), or one
            // long line of it (a text with a paragraph per line).
            let block = lines[next..<k].map(TextLines.trim)
            // Another entry on two lines (`CHAPTER VI. Self-Examination--Dentistry--The Midnight Charm--Witches and`
            // / `Devils--…`) is no running text.
            if step == 0, HeadingCandidate.of(block[0]) != nil { return false }
            // A cast list under its title (`Dramatis Personæ`) after the last entry is front matter, not the chapter's text.
            if step == 0, CastList.title.matches(CastList.cleaned(block[0])) { return false }
            // (Nor is a synopsis of the chapter under its entry, ending in its page.)
            if block.count >= 2, block[0].count >= 50, !block.contains(where: ContentsList.isPageEntry), !ContentsList.isSynopsis(block) { return true }
            if block.count == 1, ContentsList.isUnwrappedParagraph(block[0]), !isEntryLine(after: k) { return true }
            // Past at most one title block, which is not itself another entry.
            if step == 0, !isTitleBlock(block) { return false }
        }
        return false
    }

    private mutating func heading(at i: Int, text t: String) -> Int? {
        let end = blockEnd(i)
        var inBlock = lines[(i + 1)..<end].map(TextLines.trim)
        if evidence.notHeadings.contains(i) { return nil }
        // The author's name before the book's first heading is the title page's, whatever its markup.
        if inBlock.isEmpty, FrontMatter.byline.matches(t), !pieces.contains(where: \.isHeading) { return nil }
        if fallbackHeadings, evidence.chapterHeadings.contains(i) {
            // A heading the format marks: the whole block, whatever its words.
            flush()
            inFootnotes = false
            let cleaned = ([t] + Self.joiningContinuations(inBlock)).map { Emphasis.remove(TextLines.collapse($0)) }
            pieces.append(.heading(lines: cleaned, firstLine: i, candidate: HeadingCandidate(kind: .fallback, text: TextLines.collapse(t), hasTitle: false)))
            return end
        }
        // A title in capitals over its author's name, after the book's first heading: another work in the volume.
        if bylinedTitle(at: i, end: end) {
            flush()
            inFootnotes = false
            let cleaned = ([t] + Self.joiningContinuations(inBlock)).map { Emphasis.remove(TextLines.collapse($0)) }
            pieces.append(.heading(lines: cleaned, firstLine: i, candidate: HeadingCandidate(
                kind: .fallback, text: TextLines.collapse(cleaned.joined(separator: " ")), hasTitle: false)))
            return end
        }
        // A short line after a wide gap, in a plain text with no heading of another kind: a piece's title.
        // Or one of a series of chapter titles in capitals so set, over prose (``GapCapitals``).
        let gapTitle = (fallbackHeadings && evidence.headings.isEmpty && GapTitle.opens(at: i, end: end, in: lines, limit: limit)
                        && !completesBookTitle(t, at: i, end: end))
            || isHeadTitle(at: i, end: end) || (gapCapitals.contains(i) && TextLines.letterKey(t) != bookTitle)
        // A title in capitals wrapped onto a second line (`OF THE ORIGIN AND DESIGN OF GOVERNMENT IN GENERAL,` /
        // `WITH CONCISE REMARKS ON THE ENGLISH CONSTITUTION.`) over the text, where such lines are the book's headings.
        let wrapped = fallbackHeadings && evidence.headings.isEmpty && inBlock.count == 1 && Self.isWrappedCapitals(t, inBlock[0])
            && isBodyBlock(after: end)
        guard var candidate = (wrapped ? HeadingCandidate(kind: .fallback, text: TextLines.collapse(t), hasTitle: false) : nil)
                ?? HeadingCandidate.of(t, fallback: fallbackHeadings && evidence.chapterHeadings.isEmpty,
                                                  marked: evidence.headings.contains(i))
                ?? (gapTitle || (fallbackHeadings && evidence.chapterHeadings.isEmpty && inBlock.isEmpty && isSetApartCapitals(t, at: i))
                    ? HeadingCandidate(kind: .fallback, text: TextLines.collapse(t), hasTitle: false) : nil) else {
            // The book's title over its first heading in one block (`The Song of Hiawatha` / `Introduction`): a
            // half-title, the title page's; the heading is the line under it.
            if inBlock.count == 1, !pieces.contains(where: \.isHeading), let under = HeadingCandidate.of(inBlock[0]), under.kind == .standalone || under.kind == .keyword(isPart: false),
               repeatsTitle(t, before: i) {
                flush()
                skip(i..<(i + 1), SkipReason.titlePage)
                return i + 1
            }
            return nil
        }
        let listable = candidate.kind == .keyword(isPart: false) || candidate.kind == .keyword(isPart: true) || {
            if case .numberedTitle = candidate.kind { return true } else { return false }
        }()
        if listable, inBlock.count >= 2,
           inBlock.filter({ HeadingCandidate.of($0)?.isSameKind(as: candidate) == true }).count >= 2 {
            // CHAPTER I … CHAPTER II … CHAPTER III in one block: an untitled contents list.
            skip(i..<end, SkipReason.contentsList)
            contentsLists.append(i..<end)
            return end
        }
        // `VI` / `--------------------` / its title: a rule under a lone number is ornament, the title under it the heading's.
        if case .bareNumber = candidate.kind, inBlock.count >= 2, Separators.isSeparator(inBlock[0]) { inBlock.removeFirst() }
        if candidate.kind == .standalone, !inBlock.isEmpty, labelsSpeech(t, over: inBlock) { return nil }
        // A dedication is a section of its own only when it is a letter (`DEDICATION` / `To the Magnificent
        // Lorenzo…:` / its paragraphs); a line or two under it (`To my wife`) is the title page's, read as such.
        if FrontMatter.dedicationTitle.matches(candidate.text), !evidence.headings.contains(i),
           !inBlock.isEmpty || !GapTitle.textFollows(after: end, in: lines, limit: limit) { return nil }
        var headingLines = [candidate.text]
        var next = end
        var rest: [String] = []
        if !inBlock.isEmpty {
            if candidate.kind == .fallback, !wrapped { return nil }
            if !candidate.hasTitle, isTitleBlock(inBlock) || isLongSeriesTitle(inBlock, under: candidate, marked: evidence.headings.contains(i)) {
                headingLines += Self.joiningContinuations(inBlock)
            } else if !candidate.hasTitle, candidate.kind != .fallback, !isBareNumber(candidate) {
                rest = inBlock  // `CHAPTER I.` then the text straight away
            } else if titleRunsOn(candidate, into: inBlock), isBodyBlock(after: end) || Self.isFilled(candidate.text) || playFollows(end, under: candidate) {
                // `CHAPTER IV -- WHY THE KINGDOM OF DARIUS … DID NOT` / `REBEL AGAINST …`: one title on two lines
                // (a title filled to the text's width goes on whatever follows: a verse, a short line of speech).
                headingLines = Self.joiningContinuations([candidate.text] + inBlock)
            } else {
                return nil  // `I.  What kind of a government…`: a list item in running text
            }
        } else if candidate.kind == .fallback {
            // A name set flush right under the text (`DELONG RICE.` at column 60) signs it; a heading is centred or flush left.
            // A line ending in a colon brings on the lines under it (a title page's `NEW-YORK:` over its imprint).
            guard TextLines.indent(lines[i]) < 40, !isRefrain(t), t.last != ":" else { return nil }
            guard isBodyBlock(after: end) || gapTitle || introducesText(after: end), !(creditsHeading(before: i) && !gapTitle) else { return nil }
            // The end of a sentence the paragraph above breaks off (`…regardless of Party Censure, is the` /
            // `AUTHOR`; `On the following interesting` / `SUBJECTS`) signs or goes on with it: no heading.
            if !gapTitle, breaksOffSentence(before: i) { return nil }
        } else if case .numberedTitle = candidate.kind {
            if let (block, e) = subtitle(after: end) {
                // `1. First Day.` / `Christ's Childhood.` / the text: the day's title is the heading's.
                headingLines += Self.joiningContinuations(block)
                next = e
            } else {
                // `1. Eggs` / `2. Milk`: a list; a numbered title is followed by text or by a heading of another kind.
                guard isBodyBlock(after: end) || nextText(after: end - 1).flatMap({ HeadingCandidate.of(lines[$0]) }).map({
                    if case .numberedTitle = $0.kind { return false } else { return true }
                }) == true else { return nil }
            }
        } else if !candidate.hasTitle || candidate.isPart {
            var blocks = 0
            while blocks < (candidate.isPart ? 2 : 1) {
                var k = next
                while k < limit, TextLines.isBlank(lines[k]) { k += 1 }
                guard k < limit, k - next <= (blocks == 0 ? 3 : 2) else { break }
                let e = blockEnd(k)
                let block = lines[k..<e].map(TextLines.trim)
                guard isTitleBlock(block) || (blocks == 0 && isLongSeriesTitle(block, under: candidate)), e < limit,
                      !opensPlay(block, at: k, under: candidate) else { break }
                headingLines += Self.joiningContinuations(block)
                next = e
                blocks += 1
            }
        }
        // A series runs on, or starts again at 1 (a part may number its chapters afresh, or go on
        // from the last part's: `PART TWO` then `7`).
        switch candidate.kind {
        case .bareNumber(let n):
            if let letter = HeadingCandidate.letterValue(candidate.text), let last = lastLetter, letter > last, letter <= last + 2 {
                // `H`, `I`, `J`: the letters' series, though `I` is also a numeral.
                candidate.kind = .letter(letter)
                lastLetter = letter
                break
            }
            guard n == 1 || n == (lastNumber ?? 0) + 1 else { return nil }
            lastNumber = n
        case .letter(let n):
            // In alphabetical order, a letter the book has no words for (`X`) passed over.
            guard n > (lastLetter ?? 0), n <= (lastLetter ?? 0) + 2 else { return nil }
            lastLetter = n
        case .numberedTitle(let n):
            guard n == 1 || n == (lastTitledNumber ?? 0) + 1 else { return nil }
            lastTitledNumber = n
        default:
            break
        }
        flush()
        inFootnotes = false
        let cleaned = headingLines.map { Emphasis.remove(TextLines.collapse($0)) }
        pieces.append(.heading(lines: cleaned, firstLine: i, candidate: candidate))
        if !rest.isEmpty {
            paragraphStart = i + 1
            paragraph = rest
        }
        return next
    }

    /// Whether line `i`, in capitals alone in its block, is a title the fallback's own limits
    /// (``HeadingCandidate/of(_:fallback:marked:)``) leave out, set after a wider gap than the
    /// paragraphs' (two blank lines or more): a title in quotes (`"M' TOULIN."`), or a long one
    /// (`HOW A MEDICINE MAN WAS BORN, AND HOW HE TURNED MAN INTO A TREE.`: 80 characters, 16 words at most).
    private func isSetApartCapitals(_ t: String, at i: Int) -> Bool {
        guard i >= 2, TextLines.isBlank(lines[i - 1]), TextLines.isBlank(lines[i - 2]), t.count <= 80,
              TextLines.words(t).count <= 16, TextLines.isUpperCase(t), let first = t.first else { return false }
        let quotes = "\"“”‘’'"
        let unquoted = t.trimmingCharacters(in: CharacterSet(charactersIn: quotes))
        guard let letter = unquoted.first, letter.isUppercase else { return false }
        // A title in quotes closes them (`"M' TOULIN."`): no speech going on.
        return !quotes.contains(first) || (t.last(where: { $0 != "." }).map { quotes.contains($0) } ?? false)
    }

    /// Whether the next block after `end` is one sentence that brings on what follows it (`The words of
    /// the first strain are as follows:--` over a song's words): running text under a heading, though short.
    private func introducesText(after end: Int) -> Bool {
        guard let k = nextText(after: end - 1), blockEnd(k) == k + 1 else { return false }
        let t = TextLines.trim(lines[k])
        guard let first = t.first, first.isUppercase, TextLines.words(t).count >= 4,
              t.trimmingCharacters(in: CharacterSet(charactersIn: "-–— ")).hasSuffix(":") else { return false }
        return t.filter(\.isLowercase).count * 2 > t.filter(\.isLetter).count
    }

    /// Whether only a few short lines (a credit, a byline, a `[Music]` mark) stand between the last
    /// heading and line `i`: a short upper-case line there is the heading's, not one of its own.
    private func creditsHeading(before i: Int) -> Bool {
        for piece in pieces.suffix(GapTitle.creditLines + 1).reversed() {
            switch piece {
            case .heading: return true
            case .paragraph(let lines, _) where lines.count == 1 && lines[0].count < 60: continue
            case .skipped: continue
            default: return false
            }
        }
        return false
    }

    /// Whether a short line in capitals stands as a block of its own again and again (three times or
    /// more, in any case or emphasis): a label inside the pieces (a song's `CHORUS.`, a fable's
    /// `MORAL.`), read where it stands, not a title of one of them — a title is the title of one piece.
    private mutating func isRefrain(_ t: String) -> Bool {
        let counts = shortLineCounts ?? {
            var counts: [String: Int] = [:]
            for (k, line) in lines[..<limit].enumerated() {
                // (A line of its own block: a song's own refrain line inside its stanzas titles it well.)
                let trimmed = TextLines.trim(line)
                guard !trimmed.isEmpty, trimmed.count <= 50, k == 0 || TextLines.isBlank(lines[k - 1]),
                      k + 1 >= limit || TextLines.isBlank(lines[k + 1]) else { continue }
                counts[TextLines.letterKey(Emphasis.remove(trimmed)), default: 0] += 1
            }
            shortLineCounts = counts
            return counts
        }()
        let key = TextLines.letterKey(Emphasis.remove(t))
        return !key.isEmpty && counts[key, default: 0] >= 3
    }

    /// Whether the block at line `i` (ending at `end`) titles a work of its own that the volume prints
    /// after the book's first heading (`DESCRIPTION OF THE METHODS ADOPTED BY THE DUKE VALENTINO …` / `BY` /
    /// `NICOLO MACHIAVELLI`, `THE LIFE OF CASTRUCCIO CASTRACANI OF LUCCA` / `WRITTEN BY NICOLO MACHIAVELLI`):
    /// up to four lines in capitals that name no heading of another kind, set apart (after a wide gap, or
    /// marked a heading), not the book's title again, its author's name under it and then its text.
    private func bylinedTitle(at i: Int, end: Int) -> Bool {
        guard end - i <= 4, !evidence.notHeadings.contains(i),
              evidence.headings.contains(i) || (i >= GapTitle.gap && (i - GapTitle.gap..<i).allSatisfy { TextLines.isBlank(lines[$0]) })
        else { return false }
        let block = lines[i..<end].map(TextLines.trim)
        let text = block.joined(separator: " ")
        // (The walk back over the pieces for a heading comes last: a book of many blocks asks it of few.)
        guard text.count <= 300, TextLines.words(text).count >= 2, TextLines.isUpperCase(text), HeadingCandidate.of(block[0]) == nil,
              pieces.contains(where: \.isHeading),
              !FrontMatter.byline.matches(text), !repeatsTitle(text, before: i),
              let k = nextContent(after: end - 1), k - end <= 3, blockEnd(k) == k + 1 else { return false }
        let by = TextLines.trim(lines[k])
        guard Self.authorLine.matches(by) else { return false }
        if by.count <= 3 {
            // `BY` alone: the name on the next line.
            guard let n = nextContent(after: k), n - k <= 3, blockEnd(n) == n + 1, TextLines.words(lines[n]).count <= 6,
                  HeadingCandidate.isTitleLike([TextLines.trim(lines[n])]) else { return false }
        }
        return GapTitle.textFollows(after: k + 1, in: lines, limit: limit)
    }

    /// A line giving a work's author: `BY`, `By Thomas Paine`, `WRITTEN BY NICOLO MACHIAVELLI`.
    static let authorLine = LinePattern(
        #"^(?:(?:WRITTEN|TRANSLATED|EDITED|Written|Translated|Edited)\s+)?(?:BY|By|by)(?:\s+(?:[A-Z][\w.'’-]*\s*){1,5})?\.?$"#)

    /// Whether the paragraph right above line `i` (one blank line between) ends in the middle of a sentence:
    /// on a word in lower case, with no stop, comma or dash after it, or on a colon that brings on the
    /// line (`she saw written on it:` / `BE BOLD, BE BOLD.`, an inscription quoted in a tale).
    private func breaksOffSentence(before i: Int) -> Bool {
        guard i >= 2, TextLines.isBlank(lines[i - 1]), !TextLines.isBlank(lines[i - 2]),
              case .paragraph(let above, let first)? = pieces.last, first + above.count == i - 1,
              let last = above.last?.last else { return false }
        return (last.isLetter && last.isLowercase) || last == ":"
    }

    /// Two lines in capitals that are one title: the first goes on (a comma, or no stop, at its end), the
    /// two short enough for a heading (60 characters a line, 16 words).
    static func isWrappedCapitals(_ first: String, _ second: String) -> Bool {
        guard let end = first.last, end == "," || end.isLetter, first.count <= 60, second.count <= 60,
              !first.hasPrefix("["), !second.hasPrefix("[") else { return false }
        let joined = first + " " + second
        return TextLines.isUpperCase(joined) && TextLines.words(joined).count <= 16
    }

    /// Whether line `i` is the book's title (the title page's first line) again inside the book, after a wide gap and over its text
    /// (`The Complete ANGLER.` / `OR, The contemplative Mans RECREATION.` / the dialogue), in a plain
    /// text: a head title, where the text starts again — over a first chapter the book does not number
    /// (its next is `CHAP. II.`) or a second work. One over a heading (`THE PRINCE` / `CHAPTER I`) is that heading's.
    private func isHeadTitle(at i: Int, end: Int) -> Bool {
        guard evidence.headings.isEmpty, GapTitle.opens(at: i, end: end, in: lines, limit: limit), let next = nextContent(after: i),
              HeadingCandidate.of(lines[next]) == nil, pieces.contains(where: \.isHeading) else { return false }
        let key = TextLines.letterKey(lines[i])
        return key.count >= 6 && key == bookTitle
    }

    /// Whether line `i` (alone in its block, ending at `end`) and the one short line a blank line under
    /// it are together the book's title shown earlier (`THE` / `LIBERTY MINSTREL.`): a title page set
    /// word by word, not a piece's title.
    private func completesBookTitle(_ t: String, at i: Int, end: Int) -> Bool {
        guard end + 1 < limit, TextLines.isBlank(lines[end]), !TextLines.isBlank(lines[end + 1]),
              end + 2 >= limit || TextLines.isBlank(lines[end + 2]) else { return false }
        return repeatsTitle(t + " " + TextLines.trim(lines[end + 1]), before: i)
    }

    /// Whether a short line repeats a title shown earlier (the header's `Title:`, the title page).
    private func repeatsTitle(_ line: String, before i: Int) -> Bool {
        let key = TextLines.letterKey(line)
        guard key.count >= 6, TextLines.words(line).count <= 10 else { return false }
        return lines[..<i].contains { $0.count >= line.count && TextLines.letterKey($0).contains(key) }
    }

    /// A title's lines within one block are one utterance when a line does not end a phrase
    /// (`THE SYSTEMS OF HUCBALD AND GUIDO D'AREZZO--THE BEGINNING` / `OF COUNTERPOINT`).
    static func joiningContinuations(_ block: [String]) -> [String] {
        var out: [String] = []
        for line in block {
            if let last = out.last, let end = last.last, !".:;!?".contains(end) {
                out[out.count - 1] = last + " " + line
            } else {
                out.append(line)
            }
        }
        return out
    }

    private func isBareNumber(_ c: HeadingCandidate) -> Bool {
        if case .letter = c.kind { return true }
        return c.number != nil
    }

    /// Whether a titled keyword heading's title goes on in the lines under it: the heading line
    /// ends no phrase, and the rest is one or two short lines of title, in capitals under a title in
    /// capitals (`… DID NOT` / `REBEL AGAINST …`), else title-like, going on in lower case, or under filled lines
    /// (`Capítulo II. Que trata de la primera salida que de su tierra hizo el` / `ingenioso don Quijote`).
    private func titleRunsOn(_ c: HeadingCandidate, into block: [String]) -> Bool {
        guard case .keyword = c.kind, c.hasTitle, let last = c.text.last, !".:;!?".contains(last), block.count <= 2,
              block.allSatisfy({ $0.count <= 75 }) else { return false }
        if TextLines.isUpperCase(c.text) {
            // A letter's place and date under its heading, in the heading's block (`LETTER XXXIV - EVELINA IN
            // CONTINUATION` / `Howard Grove, May 15.`, an HTML `<pre>`): the heading's, as its other letters have it.
            return (TextLines.isUpperCase(block.joined(separator: " ")) && isTitleBlock(block)) || (block.count == 1 && Self.isDateline(block[0]))
        }
        // A title filled line after line goes on whatever its next line starts with (a name: `… en Sierra` /
        // `Morena, que fue una de …` / `historia se cuentan`): only its last line falls short.
        return isTitleBlock(block) || block[0].first?.isLowercase == true
            || (Self.isFilled(c.text) && block.dropLast().allSatisfy(Self.isFilled))
    }

    /// A short title-like line holding a number (`Howard Grove, May 15.`, `Paris, 1703.`): a place and date.
    static func isDateline(_ line: String) -> Bool {
        line.contains(where: \.isNumber) && TextLines.words(line).count <= 8 && HeadingCandidate.isTitleLike([line])
            && HeadingCandidate.of(line) == nil
    }

    /// A heading's line as long as the text's lines (60 characters or more): the transcriber broke it
    /// where the line was full, and the next line goes on with it (`Capítulo XV. Donde se cuenta … se topó don`
    /// / `Quijote en topar con unos desalmados yangüeses`).
    static func isFilled(_ text: String) -> Bool { text.count >= 60 }

    /// The title block under a numbered title, and its end, when text follows it (not another title
    /// or heading): `1. First Day.` / `Christ's Childhood.` / `"Thy holy child Jesus."`.
    private func subtitle(after end: Int) -> (block: [String], end: Int)? {
        guard let k = nextContent(after: end - 1), k - end <= 3 else { return nil }
        let e = blockEnd(k)
        let block = lines[k..<e].map(TextLines.trim)
        // A title in quotes (`"On mine Account."`) is a title.
        let unquoted = block.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”‘’'")) }
        guard isTitleBlock(block) || (block.count == 1 && HeadingCandidate.of(block[0]) == nil && isTitleBlock(unquoted)),
              var j = nextContent(after: e - 1) else { return nil }
        if isBodyBlock(after: e) { return (block, e) }
        // What follows, past any block of punctuation alone (a `?` left outside the title's markup).
        while !lines[j].contains(where: { $0.isLetter || $0.isNumber }), let after = nextContent(after: blockEnd(j) - 1) { j = after }
        let following = lines[j..<blockEnd(j)].map(TextLines.trim)
        guard HeadingCandidate.of(following[0]) == nil, !isTitleBlock(following) else { return nil }
        return (block, e)
    }

    /// Whether a block under a heading is the play's text, not the heading's title: a speaker's
    /// label (`ROPER.`, `FARNCOMBE. Well?`, not a title in capitals) whose name labels speeches again, or a direction set
    /// wholly in italics or in brackets under a play's act or scene (`_Enter HORATIO._`, `[Enter
    /// three Murderers.]`), or what the format marks as either.
    private mutating func opensPlay(_ block: [String], at line: Int, under candidate: HeadingCandidate) -> Bool {
        if evidence.playText.contains(line) { return true }
        // A line all in capitals (`DR. SEWARD'S DIARY`) is a title, not a name and a speech.
        if !TextLines.isUpperCase(block.joined(separator: " ")) || PlayReading.label.matches(block[0]),
           let name = PlayReading.label.capture(1, in: block[0]) ?? PlayReading.prefix.capture(1, in: block[0]),
           speakerLabels[name, default: 0] >= 3 { return true }
        return candidate.isPlayDivision && (PlainTextStructure.isWhollyItalic(block) || Self.isBracketed(block))
    }

    /// Whether the play's text (``opensPlay(_:at:under:)``) follows the block ending at `end`:
    /// `SCENE III. A Park, with a gate leading to the` / `Palace.` over `[Enter three Murderers.]`
    /// is one heading on two lines, as one over a speech would be.
    private mutating func playFollows(_ end: Int, under candidate: HeadingCandidate) -> Bool {
        guard candidate.isPlayDivision, let k = nextContent(after: end - 1), k - end <= 3 else { return false }
        return opensPlay(lines[k..<blockEnd(k)].map(TextLines.trim), at: k, under: candidate)
    }

    /// A block wholly in square brackets, opened on its first line and closed on its last (`[Enter
    /// three Murderers.]`): a stage direction under a play's act or scene.
    static func isBracketed(_ block: [String]) -> Bool {
        guard let first = block.first, let last = block.last, first.hasPrefix("["), last.hasSuffix("]") else { return false }
        return block.joined(separator: " ").dropFirst().dropLast().allSatisfy { $0 != "[" && $0 != "]" }
    }

    /// Whether `PROLOGUE` over the lines of its block, inside a play (after an act's or a scene's
    /// heading) whose speeches stand under their speaker's name in one block (`THESEUS` / `Let him
    /// approach.`), is the Prologue's speech: a player's label, not a heading.
    private mutating func labelsSpeech(_ t: String, over block: [String]) -> Bool {
        guard Self.nameLine.matches(t), HeadingCandidate.of(block[0]) == nil,
              pieces.contains(where: { if case .heading(_, _, let c) = $0 { c.isPlayDivision } else { false } }) else { return false }
        return labelledBlocks >= PlayReading.minimumLabels
    }

    /// A name in capitals alone on its line, with or without its period (`THESEUS`, `HAMLET.`).
    static let nameLine = LinePattern(#"^[A-Z][A-Z'’.\- ]{0,38}[A-Z]\.?$"#)

    /// How many blocks open with a name alone on its line and the speech under it (`HAMLET.` /
    /// `Is this a prologue…`), headings aside; counted once.
    private var labelledBlocks: Int {
        mutating get {
            if let blockLabels { return blockLabels }
            var n = 0
            var i = 0
            while i + 1 < limit {
                let starts = i == 0 || TextLines.isBlank(lines[i - 1])
                let scalars = lines[i].unicodeScalars.drop { $0 == " " || $0 == "\t" }.prefix(2)
                if starts, scalars.count == 2, scalars.allSatisfy({ ("A"..."Z").contains($0) }), !TextLines.isBlank(lines[i + 1]) {
                    let t = TextLines.trim(lines[i])
                    if Self.nameLine.matches(t), HeadingCandidate.of(t) == nil { n += 1 }
                }
                i += 1
            }
            blockLabels = n
            return n
        }
    }

    /// How often each name labels a line (`ROPER.` alone, or `ROPER. Hul-lo!`), counted once.
    private var speakerLabels: [String: Int] {
        mutating get {
            if let labelCounts { return labelCounts }
            var counts: [String: Int] = [:]
            for line in lines[..<limit] {
                // Two capitals first, as every label starts: most lines are passed over unread.
                let scalars = line.unicodeScalars.drop { $0 == " " || $0 == "\t" }.prefix(2)
                guard scalars.count == 2, scalars.allSatisfy({ ("A"..."Z").contains($0) }) else { continue }
                let t = TextLines.trim(line)
                if let name = PlayReading.label.capture(1, in: t) ?? PlayReading.prefix.capture(1, in: t) { counts[name, default: 0] += 1 }
            }
            labelCounts = counts
            return counts
        }
    }

    /// A block that can be (part of) a heading's title: short, title-like, and not something else.
    private func isTitleBlock(_ block: [String]) -> Bool {
        guard HeadingCandidate.isTitleLike(block) else { return false }
        return !block.contains { line in
            HeadingCandidate.of(line) != nil || Separators.isSeparator(line) || TranscribersNote.starts(line)
                || ContentsList.title(line) != nil || Footnotes.label(of: line, inFootnotesSection: false) != nil
                || BackMatter.indexTitle.matches(line) || BackMatter.theEnd.matches(line)
        }
    }

    /// Whether a block too long for ``isTitleBlock`` (`CE QU'IL N'EST PAS POSSIBLE D'IGNORER ET CE QU'IL N'EST` /
    /// `PLUS PERMIS DE CROIRE DANS LES ÉTATS-UNIS`: eighteen words) titles the lone number over it all the
    /// same: the number continues the book's series of lone numbers (`VI` after `V`), and the block is a
    /// title in capitals of up to three lines (of any length in a heading the format marks: an HTML `<h3>`).
    private func isLongSeriesTitle(_ block: [String], under candidate: HeadingCandidate, marked: Bool = false) -> Bool {
        guard case .bareNumber(let n) = candidate.kind, let last = lastNumber, n == last + 1, block.count <= 3 else { return false }
        let text = block.joined(separator: " ")
        guard TextLines.isUpperCase(text), TextLines.words(text).count <= 30,
              block.allSatisfy({ $0.count <= (marked ? 200 : 80) && !$0.hasPrefix("[") }) else { return false }
        return !block.contains { line in
            HeadingCandidate.of(line) != nil || Separators.isSeparator(line) || TranscribersNote.starts(line)
                || ContentsList.title(line) != nil || BackMatter.indexTitle.matches(line) || BackMatter.theEnd.matches(line)
        }
    }

    /// Whether the next line after the block ending at `end` is a page number (`18`, `xiv`): the long
    /// line before it was a contents entry's title (a table's cells laid out one per block).
    private func isEntryLine(after end: Int) -> Bool {
        guard let j = nextContent(after: end - 1) else { return false }
        return ContentsList.isBarePageNumber(TextLines.trim(lines[j]))
    }

    /// Whether the next block after `start` (past blank lines, and a section break: a rule under a
    /// heading is ornament) is running text: two lines or a long one.
    private func isBodyBlock(after start: Int) -> Bool {
        guard let k = nextText(after: start - 1) else { return false }
        let e = blockEnd(k)
        return e - k >= 2 || TextLines.trim(lines[k]).count >= 60
    }

    // MARK: - Illustrations and notes

    private mutating func illustration(at i: Int) -> Int {
        let close = Brackets.closing(from: i, in: lines, limit: limit, maxLines: 80) ?? (blockEnd(i) - 1)
        let joined = lines[i...close].joined(separator: "\n")
        let open = joined.firstIndex(of: "[")!
        let body = joined[open...]
        let endIndex = Brackets.closingIndex(in: body) ?? body.endIndex
        let caption = String(body[..<endIndex])
        let remainder = TextLines.trim(String(body[endIndex...]))

        // A caption whose last line is a heading (`[Illustration: … \n Chapter I.]`) ends with that heading.
        var captionLines = caption.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if captionLines.count >= 2, remainder.isEmpty, close > i {
            var last = TextLines.trim(captionLines.removeLast())
            if last.hasSuffix("]") { last.removeLast() }
            last = TextLines.trim(last)
            // A chapter's, not a part's: `VOL. ONE FRONT END` under a map names the map's place in the volume.
            if let c = HeadingCandidate.of(last), c.kind != .fallback, !c.isPart, !isBareNumber(c) {
                let mark = pieces.count
                addIllustration(captionLines.joined(separator: "\n") + "]", at: i)
                if let next = heading(at: close, text: last) { return next }
                pieces.removeSubrange(mark...)
            }
        }
        addIllustration(caption, at: i)
        if !remainder.isEmpty {
            paragraphStart = close
            paragraph = [remainder]
        }
        return close + 1
    }

    /// Skipped, or with `.read` a paragraph `Illustration: caption`; a mark without a caption (`[Illustration]`,
    /// `[Figure 07]`) has nothing to read and is skipped either way.
    private mutating func addIllustration(_ caption: String, at line: Int) {
        let hasCaption = TextLines.has(caption, ":")
        if illustrations == .skip || !hasCaption {
            let text = TextLines.collapse(caption)
            if !text.isEmpty { pieces.append(.skipped(text: text, reason: SkipReason.illustration, firstLine: line)) }
        } else {
            var inner = TextLines.trim(caption)
            if inner.hasPrefix("[") { inner.removeFirst() }
            if inner.hasSuffix("]") { inner.removeLast() }
            pieces.append(.paragraph(lines: [inner], firstLine: line))
        }
    }

    private mutating func note(at i: Int, label: Footnotes.Label) -> Int {
        pieces.append(.skipped(text: label.label, reason: SkipReason.footnoteLabel, firstLine: i))
        if label.bracketed {
            let close = Brackets.closing(from: i, in: lines, limit: limit, maxLines: 300) ?? (blockEnd(i) - 1)
            let text = ([label.rest] + lines[(i + 1)..<(close + 1)].map(TextLines.trim)).joined(separator: "\n")
            // The label's `[` is already open: the body ends where the depth returns to zero.
            var depth = 1
            var cut = text.endIndex
            for idx in text.indices {
                if text[idx] == "[" { depth += 1 } else if text[idx] == "]" {
                    depth -= 1
                    if depth == 0 { cut = idx; break }
                }
            }
            let bodyText = String(text[..<cut])
            let after = cut < text.endIndex ? TextLines.trim(String(text[text.index(after: cut)...])) : ""
            pieces.append(.note(id: label.id, lines: [bodyText], firstLine: i))
            if !after.isEmpty {
                paragraphStart = close
                paragraph = [after]
            }
            return close + 1
        }
        let end = blockEnd(i)
        pieces.append(.note(id: label.id, lines: [label.rest] + lines[(i + 1)..<end].map(TextLines.trim), firstLine: i))
        return end
    }

    // MARK: - Helpers

    private mutating func flush() {
        guard !paragraph.isEmpty else { return }
        pieces.append(.paragraph(lines: paragraph, firstLine: paragraphStart))
        paragraph = []
    }

    /// Kinds the scanner bounds itself, as it finds each candidate (``SkipBounds``).
    static let boundedKinds: Set<SkipReason> = [SkipReason.transcribersNote, SkipReason.contentsList, SkipReason.illustrationsList,
                                            SkipReason.errata, SkipReason.glossary, SkipReason.index,
                                            SkipReason.transcribersNotation, SkipReason.table]

    /// Skips `range` when it is no longer than a `reason` can be; else records it, and the caller
    /// reads its lines as any others.
    private mutating func skipBounded(_ range: Range<Int>, _ reason: SkipReason) -> Bool {
        if let over = SkipBounds.oversized(lines[range], reason: reason, firstLine: range.lowerBound) {
            oversized.append(over)
            return false
        }
        skip(range, reason)
        return true
    }

    private mutating func skip(_ range: Range<Int>, _ reason: SkipReason) {
        guard !range.isEmpty else { return }
        let text = TextLines.collapse(lines[range].joined(separator: " "))
        if !text.isEmpty { pieces.append(.skipped(text: text, reason: reason, firstLine: range.lowerBound)) }
    }

    /// The end (exclusive) of the block of non-blank lines starting at `i`.
    private func blockEnd(_ i: Int) -> Int {
        var j = i + 1
        while j < limit, !TextLines.isBlank(lines[j]) { j += 1 }
        return j
    }

    /// The next line after `i` that is neither blank nor a section break, within the body.
    private func nextText(after i: Int) -> Int? {
        var j = nextContent(after: i)
        while let k = j, Separators.isSeparator(TextLines.trim(lines[k])) { j = nextContent(after: k) }
        return j
    }

    /// The next non-blank line after `i`, within the body.
    /// The line of the note a notes title at `i` heads: the next line with content, or the one after
    /// a stray bracket on a line of its own (`]`); nil if no note's label is there.
    private func firstNote(after i: Int) -> Int? {
        guard var next = nextContent(after: i) else { return nil }
        if Footnotes.undecorated(lines[next]).isEmpty, let after = nextContent(after: next) { next = after }
        return Footnotes.label(of: lines[next], inFootnotesSection: true) != nil ? next : nil
    }

    private func nextContent(after i: Int) -> Int? {
        var j = i + 1
        while j < limit, TextLines.isBlank(lines[j]) { j += 1 }
        return j < limit ? j : nil
    }
}
