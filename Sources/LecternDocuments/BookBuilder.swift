import Foundation
import LecternCore
import LecternText

/// Collects blocks into chapters while a reader walks a document, applying the source's
/// front-matter, start/end marker and skip rules and listing everything it leaves out.
struct BookBuilder {
    let source: Source
    let skips: [UserRegex]
    let startAt: UserRegex?, startAfter: UserRegex?, endAt: UserRegex?
    /// The first user pattern that ran past its time limit, thrown by ``finish()``.
    private var regexFailure: ManifestError?
    private(set) var book = Book()
    private var inChapter = false
    private var started: Bool
    private var ended = false
    /// A chapter whose title is not spoken (EPUB navigation), opened at its first block.
    private var pendingTitle: String?
    /// The block each marker matched, for the error when the markers leave nothing to read.
    private var startMatch: String?, endMatch: String?
    /// The part the chapters being started belong to.
    var part: String?
    /// A section break was seen: the next block gets the section pause.
    private var sectionBreakPending = false
    /// The chapters opened for text met before any heading or named chapter (by index).
    private var openedUntitled: Set<Int> = []

    init(source: Source, skips: [UserRegex]) throws {
        self.source = source
        self.skips = skips
        let regex = { (p: String?) in try p.map { try UserRegex($0, budget: source.regexBudget) } }
        startAt = try regex(source.rules.startAt)
        startAfter = try regex(source.rules.startAfter)
        endAt = try regex(source.rules.endAt)
        started = startAt == nil && startAfter == nil
    }

    /// The 1-based number the current chapter will have in this source, or nil before the first.
    private var chapterNumber: Int? { inChapter ? book.chapters.count : nil }

    /// Starts a chapter whose title is spoken (a heading in the text).
    mutating func startChapter(title: String) {
        let text = PlainTextReader.clean(title)
        guard admit(text) else { return }
        pendingTitle = nil
        sectionBreakPending = false
        book.chapters.append(Chapter(title: text, blocks: [], source: source.displayPath, part: part))
        inChapter = true
    }

    /// Starts a chapter whose heading is spoken line by line (a number, then its title), each
    /// line a heading block, so the heading pause falls between them.
    mutating func startChapter(title: String, lines: [String]) {
        let text = PlainTextReader.clean(title)
        guard admit(text) else { return }
        pendingTitle = nil
        sectionBreakPending = false
        let blocks = lines.flatMap { HeadingLine.spokenParts(PlainTextReader.clean($0)) }
            .map { Block(kind: .heading, text: $0, pronunciations: Self.headingPronunciations($0)) }.filter { !$0.text.isEmpty }
        book.chapters.append(Chapter(title: text, speaksTitle: false, blocks: blocks, source: source.displayPath, part: part))
        inChapter = true
    }

    /// How a heading's line is heard: its accent codes as their letters, as in running text (``AccentCodes``),
    /// and a note's marker (`Delsarte before the Philotechnic Association.[8]`) not at all.
    static func headingPronunciations(_ line: String) -> [Pronunciation] {
        (AccentCodes.pronunciations(in: line) + Footnotes.markerSilence(in: line)).sorted { $0.offset < $1.offset }
    }

    /// Starts a chapter whose title comes from outside the text (a table of contents) and is not
    /// spoken; it opens at its first block, so an entry with no text makes no chapter.
    mutating func startSilentChapter(title: String) {
        guard !ended else { return }
        pendingTitle = PlainTextReader.clean(title)
    }

    /// The source's `skip` patterns, compiled.
    static func skips(_ source: Source) throws -> [UserRegex] {
        try source.skip.map { try UserRegex($0, budget: source.regexBudget) }
    }

    /// Whether `regex` (the source's `key`) matches `text`; a match that runs past its time
    /// limit counts as none and is recorded, for ``finish()`` to throw.
    private mutating func matches(_ regex: UserRegex, _ text: String, key: String) -> Bool {
        do { return try regex.matches(text) } catch {
            if regexFailure == nil { regexFailure = Self.keyError(source, key, error.description, atKeyLine: true) }
            return false
        }
    }

    /// Applies the start and end markers: false, with the text listed as skipped, outside them.
    private mutating func admit(_ text: String) -> Bool {
        if ended {
            skip(text, reason: .afterEndMarker(pattern: endAt?.pattern ?? "", key: nil), cut: .after)
            return false
        }
        if !started {
            if let r = startAt, matches(r, text, key: "start_at") {
                started = true
                startMatch = text
            } else if let r = startAfter, matches(r, text, key: "start_after") {
                started = true
                startMatch = text
                skip(text, reason: .startMarker(pattern: r.pattern))
                return false
            } else {
                skip(text, reason: .beforeStartMarker(pattern: (startAt ?? startAfter)?.pattern ?? "", key: nil), cut: .before)
                return false
            }
        }
        if let r = endAt, matches(r, text, key: "end_at") {
            ended = true
            endMatch = text
            skip(text, reason: .endMarker(pattern: r.pattern))
            return false
        }
        return true
    }

    /// Adds a block of text; empty text is ignored, text matching a skip pattern is listed as skipped.
    ///
    /// Returns the block's text as kept (cleaned), or nil when the block was not kept.
    @discardableResult
    mutating func add(_ raw: String, kind: BlockKind, language: String? = nil, spans: [LanguageSpan] = [],
                      pronunciations: [Pronunciation] = [], noteLabel: String? = nil) -> String? {
        // Text with spans or pronunciations comes normalised (their offsets refer to it).
        let text = spans.isEmpty && pronunciations.isEmpty ? PlainTextReader.clean(raw) : raw
        guard !text.isEmpty, admit(text) else { return nil }
        let skips = self.skips, listed = source.keyLines["skip[1]"] != nil
        if let pattern = skips.indices.first(where: { matches(skips[$0], text, key: listed ? "skip[\($0 + 1)]" : "skip") })
            .map({ skips[$0] }) {
            skip(text, reason: .skipPattern(pattern.pattern))
            return nil
        }
        if let title = pendingTitle {
            pendingTitle = nil
            book.chapters.append(Chapter(title: title, speaksTitle: false, blocks: [], source: source.displayPath, part: part))
            inChapter = true
        }
        if !inChapter {
            if source.chapters.skipBeforeFirst {
                skip(text, reason: .frontMatter)
                return nil
            }
            let title = source.chapters.title ?? source.url.deletingPathExtension().lastPathComponent
            openedUntitled.insert(book.chapters.count)
            book.chapters.append(Chapter(title: title, speaksTitle: false, blocks: [], source: source.displayPath))
            inChapter = true
        }
        // A heading's accent codes are heard as their letters, as in running text (``AccentCodes``).
        let heard = kind == .heading && pronunciations.isEmpty && spans.isEmpty ? Self.headingPronunciations(text) : pronunciations
        var block = Block(kind: kind, text: text, language: language, spans: spans, pronunciations: heard)
        block.afterSectionBreak = sectionBreakPending
        block.noteLabel = noteLabel
        sectionBreakPending = false
        book.chapters[book.chapters.count - 1].blocks.append(block)
        return text
    }

    /// A section break (`* * *`): the next block in the same chapter gets the section pause.
    mutating func sectionBreak() {
        sectionBreakPending = inChapter
    }

    /// Reports a pronunciation hint that espeak-ng cannot express (once).
    mutating func note(_ note: PronunciationNote) {
        if !book.pronunciationNotes.contains(note) { book.pronunciationNotes.append(note) }
    }

    /// Warns of a passage read although the reading pass took it for one it leaves out, at the
    /// current place in the book (the chapter it is read in, or the next one).
    mutating func warn(_ oversized: OversizedSkip, showsLine: Bool) {
        let chapter = inChapter ? book.chapters.count : (pendingTitle != nil || book.chapters.isEmpty ? book.chapters.count + 1 : nil)
        book.warnings.append(oversized.warning(source: source.displayPath, chapter: chapter, showsLine: showsLine))
    }

    /// Lists text that is deliberately not narrated, at the current place in the book.
    mutating func skip(_ text: String, reason: SkipReason, cut: SkippedText.Cut? = nil) {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return }
        var item = SkippedText(source: source.displayPath, chapter: chapterNumber, reason: reason, text: t, cut: cut)
        item.beforeBlock = inChapter ? book.chapters.last?.blocks.count : nil
        book.skipped.append(item)
    }

    /// The book read, a play's cast list joined to the chapter after it (``PlayFrontMatter``) and its
    /// short unheaded opening to the first chapter (``UnheadedOpening``), a long one named by its own
    /// heading (``OpeningTitle``), and a heading over a part's opening joined to its first chapter (``PartOpening``).
    ///
    /// - throws: ``ManifestError`` naming the source's key when a start or end marker matched
    ///   nothing, or when the markers and skip patterns leave no words to read.
    func finish() throws -> Book {
        if let regexFailure { throw regexFailure }
        if !started, let r = startAt ?? startAfter {
            throw markerError(startAt != nil ? "start_at" : "start_after",
                              "/\(r.pattern)/ matches no paragraph or heading of \(source.displayPath), so nothing would be read")
        }
        if let r = endAt, !ended {
            throw markerError("end_at", "/\(r.pattern)/ matches no paragraph or heading of \(source.displayPath) after the start")
        }
        let words = book.chapters.reduce(0) { $0 + $1.blocks.reduce(0) { $0 + WordTokenizer.count(in: $1.text) }
            + ($1.speaksTitle ? WordTokenizer.count(in: $1.title) : 0) }
        if words == 0, book.skipped.contains(where: { WordTokenizer.count(in: $0.text) > 0 }) {
            if let match = startMatch, let r = startAt ?? startAfter {
                throw markerError(startAt != nil ? "start_at" : "start_after",
                                  "/\(r.pattern)/ matched \"\(match.prefix(60))\" and nothing after it is left to read")
            }
            if let match = endMatch, let r = endAt {
                throw markerError("end_at", "/\(r.pattern)/ matched \"\(match.prefix(60))\" before any word was read")
            }
            if !skips.isEmpty {
                throw markerError("skip", "the skip patterns leave no words of \(source.displayPath) to read")
            }
        }
        // Chapters a user's rule lays out (`chapters.title`, `level`, `selector`) are the user's; else a short opening before the first heading is read at the start of the first chapter.
        var book = self.book
        let rule = source.chapters
        if rule.title == nil, rule.selector == nil, !rule.levelGiven {
            var untitled = openedUntitled
            PlayFrontMatter.join(&book, untitled: &untitled)
            PlaySynopsis.join(&book, untitled: &untitled)
            let count = book.chapters.count
            UnheadedOpening.join(&book, untitled: untitled)
            if book.chapters.count == count { OpeningTitle.name(&book, untitled: untitled) }
            PartOpening.join(&book)
        }
        return book
    }

    private func markerError(_ key: String, _ message: String) -> ManifestError {
        Self.keyError(source, key, message)
    }

    /// An error about one of a source's keys, naming the manifest's file, line and key: the
    /// source's line, or with `atKeyLine` the key's own (a pattern in a list of them).
    static func keyError(_ source: Source, _ key: String, _ message: String, atKeyLine: Bool = false) -> ManifestError {
        guard let origin = source.origin else { return ManifestError(file: source.displayPath, key: key, message: message) }
        let line = atKeyLine ? source.keyLines[key] ?? origin.line : origin.line
        return ManifestError(file: origin.file, line: line, key: "\(origin.key ?? "source").\(key)", message: message)
    }
}
