/// Finds the quoted speech of a chapter's paragraphs as a reader does: the stretches between
/// quotation marks of the book's outer family (`“…”` in most English books, `‘…’` in many
/// British ones, `«…»` in French), with every quotation nested inside them, as UTF-16 ranges
/// that include their marks.
///
/// - The outer family is decided from the book's text (``outer``): the family that opens the
///   most quotations. A quotation at the top level in another family (`he called it ‘fun’`) is
///   not speech, nor is a short mention without punctuation inside the sentence (`the word
///   “Hallo” was`).
/// - Apostrophes are told from single quotes by their neighbours: between letters (`don't`,
///   `o’clock`), before a word that is written short (`'tis`, `’em`, `'98`, a dropped h:
///   `'ave`), and after one (`dogs' dinner`, `runnin' away`, `rock 'n' roll`) — the last only
///   while no other closing mark is found before the paragraph ends.
/// - A quotation still open at a paragraph's end goes on in the next paragraphs only as a reader
///   sees it go on (``speech(in:)-([String?])``), so that a missing mark never makes the rest of
///   a chapter speech; an opening single quote between a word and a lower-case word that nothing
///   closed was an apostrophe after all (`the 'ouse`).
///
/// Pure and linear in the text's length.
public struct DialogueQuotes: Sendable {
    /// The language's marks.
    public let marks: QuoteMarks
    /// The family the book quotes speech with.
    public let outer: QuoteMarks.Family

    /// - parameters:
    ///     - language: The book's language (its primary subtag decides the marks).
    ///     - outer: The family speech is quoted with; nil: the one that opens most quotations in `sample`.
    ///     - sample: The book's text (its paragraphs), to decide `outer` from.
    public init(language: String?, outer: QuoteMarks.Family? = nil, sample: [String] = []) {
        marks = QuoteMarks(language: language)
        self.outer = outer ?? Self.outerFamily(in: sample, marks: marks)
    }

    /// The quoted speech of each paragraph of a chapter, in order; a nil entry is a block that is
    /// not prose (a heading), which no speech runs across.
    ///
    /// A speech left open at a paragraph's end goes on in the next paragraph when that opens with
    /// a mark again (the convention for a speech over several paragraphs). When it does not, the
    /// speech still goes on through up to ``carriedParagraphs`` paragraphs without a mark of its
    /// family (a letter or verse quoted in a speech) if the next mark after them is a closing
    /// mark that nothing opened; otherwise it ends with its paragraph.
    public func speech(in paragraphs: [String?]) -> [[Range<Int>]] {
        let readings = paragraphs.map { $0.map(reading(of:)) }
        var result = readings.map { $0?.speech ?? [] }
        for i in readings.indices {
            guard let open = readings[i], open.endsOpen else { continue }
            var j = i + 1
            while j < readings.count, j - i <= Self.carriedParagraphs, let next = readings[j], !next.hasMarks { j += 1 }
            guard j < readings.count, j - i <= Self.carriedParagraphs, let closing = readings[j], let stray = closing.leadingStray else { continue }
            for k in (i + 1)..<j {
                let units = Array(paragraphs[k]!.utf16)
                var start = 0, end = units.count
                while end > 0, Self.isSpace(units[end - 1]) { end -= 1 }
                while start < end, Self.isSpace(units[start]) { start += 1 }
                if start < end { result[k] = [start..<end] }
            }
            var start = 0
            let units = Array(paragraphs[j]!.utf16)
            while start < stray, Self.isSpace(units[start]) { start += 1 }
            result[j].insert(start..<(stray + 1), at: 0)
        }
        return result
    }

    /// The most paragraphs without marks a speech left open runs through to a closing mark.
    public static let carriedParagraphs = 4

    /// The quoted speech of one paragraph alone (a speech left open runs to its end).
    public func speech(in text: String) -> [Range<Int>] { reading(of: text).speech }

    /// What one paragraph says about speech: its stretches, whether the last runs on past its
    /// end, whether it has a mark of the outer family, and a closing one that nothing opened
    /// before any other mark.
    struct Reading {
        var speech: [Range<Int>] = []
        var endsOpen = false
        var hasMarks = false
        var leadingStray: Int?
    }

    func reading(of text: String) -> Reading {
        let units = Array(text.utf16)
        var scan = ParagraphScan(units: units, marks: marks)
        scan.run()
        var reading = Reading()
        for quote in scan.closed where quote.family == outer && !isMention(quote.range, in: units) {
            reading.speech.append(quote.range)
        }
        // A quotation still open: speech to the paragraph's end, unless it opened with an
        // apostrophe after all.
        if let open = scan.stack.first, open.family == outer, !Self.mayBeElision(at: open.start, in: units) {
            var end = units.count
            while end > open.start + 1, Self.isSpace(units[end - 1]) { end -= 1 }
            reading.speech.append(open.start..<end)
            reading.endsOpen = true
        }
        reading.speech.sort { $0.lowerBound < $1.lowerBound }
        reading.hasMarks = scan.marksOfFamily.contains(outer)
        reading.leadingStray = scan.leadingStray.flatMap { QuoteMarks.family(units[$0]) == outer ? $0 : nil }
        return reading
    }

    /// Whether the single quote at `start`, which opened a quotation nothing closed, may have
    /// been an apostrophe for letters left out that ``elidedStarts`` does not list (`the 'ouse`):
    /// a lower-case word after it, a word before it.
    static func mayBeElision(at start: Int, in units: [UInt16]) -> Bool {
        guard QuoteMarks.mayBeApostrophe(units[start]), start + 1 < units.count,
              Character(Unicode.Scalar(units[start + 1]) ?? " ").isLowercase else { return false }
        var before = start
        while before > 0, isSpace(units[before - 1]) { before -= 1 }
        return before > 0 && isLetter(units[before - 1])
    }

    /// Whether a quotation is a mention inside a sentence rather than speech: at most three
    /// words, no punctuation inside, a word right before it.
    func isMention(_ range: Range<Int>, in units: [UInt16]) -> Bool {
        var before = range.lowerBound
        while before > 0, Self.isSpace(units[before - 1]) { before -= 1 }
        guard before > 0, Self.isLetter(units[before - 1]) else { return false }
        let inside = units[(range.lowerBound + 1)..<(range.upperBound - 1)]
        let punctuation: Set<UInt16> = [0x2E, 0x2C, 0x21, 0x3F, 0x3B, 0x3A, 0x2026, 0x2014]
        guard !inside.contains(where: punctuation.contains) else { return false }
        return WordTokenizer.count(in: String(decoding: inside, as: UTF16.self)) <= 3
    }

    /// The family that opens the most quotations in `texts` (`double` when none does): marks that
    /// open before a word, not counting single quotes that are apostrophes (`'tis`, `’em`).
    static func outerFamily(in texts: [String], marks: QuoteMarks) -> QuoteMarks.Family {
        var counts: [QuoteMarks.Family: Int] = [:]
        for text in texts {
            let units = Array(text.utf16)
            for i in units.indices {
                guard let family = QuoteMarks.family(units[i]), marks.opens(units[i]) else { continue }
                // Guillemets may stand apart from their words (`« Oui »`).
                var next = i + 1
                if family == .guillemet || family == .singleGuillemet { while next < units.count, isSpace(units[next]) { next += 1 } }
                guard next < units.count, isLetter(units[next]) else { continue }
                guard i == 0 || isSpace(units[i - 1]) || isOpeningBracket(units[i - 1]) || isDash(units[i - 1]) else { continue }
                if QuoteMarks.mayBeApostrophe(units[i]), units[i] == QuoteMarks.rightSingle && !marks.symmetric.contains(units[i])
                    || isElidedStart(i, in: units) { continue }
                counts[family, default: 0] += 1
            }
        }
        return QuoteMarks.Family.allCases.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) || ((counts[$0] ?? 0) == (counts[$1] ?? 0) && $1 == .double) }
            .flatMap { (counts[$0] ?? 0) > 0 ? $0 : nil } ?? .double
    }
}
