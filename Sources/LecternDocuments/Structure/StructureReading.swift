import Foundation
import LecternCore

extension PlainTextReader {
    /// Reads the book's own structure as ``PlainTextStructure`` finds it (``StructureReading``).
    /// - parameter firstLine: the 0-based line of the file `lines` start at.
    func readStructure(_ lines: [String], firstLine: Int = 0, source: Source, into builder: inout BookBuilder) {
        let items = PlainTextStructure.analyse(lines, illustrations: source.rules.illustrations == .read ? .read : .skip)
        StructureReading.read(items, footnotes: source.rules.footnotes, stageDirections: source.rules.stageDirections,
                              fileLines: firstLine, into: &builder)
    }
}

/// Feeds the structure pass's items, whatever the format they came from, to a ``BookBuilder``:
/// parts and chapters at their headings (each heading line spoken as its own heading), markers
/// and transcriber's codes kept in the text but silent, everything a narrator leaves out listed
/// with its reason, and footnote bodies placed as the source's `footnotes:` says — after the
/// paragraph that refers to them, at the end of that paragraph's chapter (also when the notes are
/// gathered at the end of the book), or skipped where they are written.
enum StructureReading {
    /// Where the format names the chapters (``TextItem/chapter(title:line:)``), the headings the
    /// pass finds are read as headings inside them.
    /// A stage direction is read as a block of its own or, with `stageDirections: .skip`, listed.
    /// - parameter fileLines: the file's line the items' first line is (a plain text); nil when the
    ///   lines are a page laid out as lines (warnings then name no line).
    static func read(_ items: [TextItem], footnotes: ReadingRules.Footnotes, stageDirections: ReadingRules.StageDirections = .read,
                     fileLines: Int? = nil, into builder: inout BookBuilder) {
        let named = items.contains { if case .chapter = $0 { true } else { false } }
        let placement = footnotes == .skip ? [:] : Self.notePlacement(items)
        let notesAfter = Dictionary(grouping: placement.keys.sorted(), by: { placement[$0]! })
        var chapterEnd: [TextNote] = []
        var bookEnd: [TextNote] = []
        var pendingPartLines: [String] = []
        /// The titles of chapter headings with no text of their own, for the chapter they open.
        var joinedTitles: [String] = []
        /// Named chapters: the headings of an entry that holds nothing else wait for the next entry.
        var carriedHeadings = false
        /// Named chapters: an entry that holds notes and no text of its own (an endnotes file) is
        /// no chapter; its headings are left out, its notes read where they are referred to.
        var notesEntry = false
        /// The heading lines of a page of display type (``isDisplayPage(_:at:)``) being read.
        var onDisplayPage = false

        /// A note is read away from its marker wherever it goes: it is announced by its label.
        func read(_ note: TextNote) {
            builder.add(note.text, kind: .quote, pronunciations: Self.merged(note.pronunciations, note.silent), noteLabel: Self.label(of: note))
        }
        func endChapter() {
            if footnotes == .book { bookEnd += chapterEnd } else { chapterEnd.forEach(read) }
            chapterEnd = []
        }
        for (index, item) in items.enumerated() {
            switch item {
            case .chapter(let title, _):
                endChapter()
                // An entry that holds only its heading before the next one (a story whose parts are
                // entries of their own) is no chapter: its heading opens the next.
                func entry(from start: Int) -> ArraySlice<TextItem> {
                    items[start...].prefix { if case .chapter = $0 { false } else { true } }
                }
                func hasText(_ slice: ArraySlice<TextItem>) -> Bool {
                    slice.contains { if case .paragraph = $0 { true } else if case .note = $0 { true } else { false } }
                }
                let own = entry(from: index + 1)
                let next = index + own.count + 1
                // (Its notes all referred to from elsewhere: a note nothing refers to keeps its chapter.)
                let notes = own.indices.filter { if case .note = own[$0] { true } else { false } }
                notesEntry = !own.contains { if case .paragraph = $0 { true } else { false } }
                    && !notes.isEmpty && (footnotes == .skip || notes.allSatisfy { placement[$0] != nil })
                if notesEntry {
                    builder.skip(title, reason: SkipReason.footnotesHeading)
                    continue
                }
                if !hasText(own), next < items.count, hasText(entry(from: next + 1)),
                   own.contains(where: { if case .heading = $0 { true } else { false } }) {
                    carriedHeadings = true
                    continue
                }
                builder.startSilentChapter(title: title)
                carriedHeadings = false
            case .heading(let heading) where named && notesEntry:
                builder.skip(heading.lines.joined(separator: " "), reason: SkipReason.footnotesHeading)
            case .heading(let heading) where named:
                if carriedHeadings { pendingPartLines += heading.lines; continue }
                for line in pendingPartLines + heading.lines { builder.add(line, kind: .heading) }
                pendingPartLines = []
            case .heading(let heading) where heading.level == .chapter && pendingPartLines.isEmpty && joinedTitles.isEmpty
                && Self.isDisplayPage(items, at: index, front: builder.book.chapters.isEmpty):
                onDisplayPage = true
                Self.readDisplayLines(heading.lines, into: &builder)
            case .heading(let heading) where heading.level == .chapter && pendingPartLines.isEmpty && builder.book.chapters.isEmpty
                && Self.isProem(items, at: index):
                // Read as the book's opening, in the chapter the front opens.
                for line in heading.lines { builder.add(line, kind: .heading) }
            case .heading(let heading):
                onDisplayPage = false
                endChapter()
                if heading.level == .part {
                    builder.part = heading.title
                    // A part heading followed by its first chapter is spoken at that chapter's start;
                    // followed by text of its own, it opens a chapter of its own.
                    if case .heading(let next)? = Self.nextStructural(items, after: index), next.level == .chapter {
                        pendingPartLines += heading.lines
                        continue
                    }
                    builder.startChapter(title: heading.title, lines: pendingPartLines + heading.lines)
                    pendingPartLines = []
                } else if case .heading(let next)? = Self.nextStructural(items, after: index), next.level == .part {
                    // A chapter heading with no text before a part's (a play's title repeated over
                    // its first act) is no chapter either: it is spoken where the part opens, and
                    // the part's first chapter keeps its own title.
                    pendingPartLines += heading.lines
                    joinedTitles = []
                } else if case .heading(let next)? = Self.nextStructural(items, after: index), next.level == .chapter {
                    // A chapter heading with no text before the next one (`CHAPTER XXV` above a title
                    // set as a heading of its own) is no chapter: it opens the next, and titles it.
                    pendingPartLines += heading.lines
                    joinedTitles.append(heading.title)
                } else {
                    builder.startChapter(title: (joinedTitles + [heading.title]).joined(separator: " "), lines: pendingPartLines + heading.lines)
                    pendingPartLines = []
                    joinedTitles = []
                }
            case .paragraph(let paragraph) where paragraph.kind == .stageDirection && stageDirections == .skip:
                builder.skip(paragraph.text, reason: .stageDirection)
            case .paragraph(let paragraph) where onDisplayPage && paragraph.kind == .heading:
                Self.readDisplayLines([paragraph.text], into: &builder)
            case .paragraph(let paragraph):
                if named, !pendingPartLines.isEmpty {
                    for line in pendingPartLines { builder.add(line, kind: .heading) }
                    pendingPartLines = []
                }
                builder.add(paragraph.text, kind: paragraph.kind, language: paragraph.language, spans: paragraph.spans,
                            pronunciations: Self.pronunciations(paragraph))
                for noteIndex in notesAfter[index] ?? [] {
                    guard case .note(let note) = items[noteIndex] else { continue }
                    if footnotes == .paragraph { read(note) } else { chapterEnd.append(note) }
                }
            case .note(let note):
                if footnotes == .skip {
                    builder.skip(note.text, reason: .footnote)
                } else if placement[index] == nil {
                    chapterEnd.append(note)  // referred to nowhere: read at the end of its own chapter
                }
            case .sectionBreak:
                builder.sectionBreak()
            case .skipped(let passage):
                // The licence closes the book: the notes waiting for the chapter's end are read before it.
                if passage.reason == SkipReason.gutenbergLicence { endChapter() }
                builder.skip(passage.text, reason: passage.reason, cut: passage.cut)
            case .oversizedSkip(var oversized):
                oversized.firstLine += fileLines ?? 0
                builder.warn(oversized, showsLine: fileLines != nil)
            }
        }
        endChapter()
        if !bookEnd.isEmpty {
            builder.part = nil
            builder.startSilentChapter(title: notesTitle)
            bookEnd.forEach(read)
        }
    }

    /// The label a note is announced by: the one its marker shows, else the number its id ends
    /// with (`note1`, `Footnote_4a`: "1", "4a"), else its id when it reads as a label ("A", "12").
    /// An id such as `note-xa` says nothing a listener could use: "", the note announced unnumbered.
    static func label(of note: TextNote) -> String {
        if let shown = note.label { return Self.label(shown) }
        let id = note.id
        if id.range(of: #"^(\d{1,3}[a-z]?|[A-Za-z]{1,2}|\*{1,3}|†)$"#, options: .regularExpression) != nil { return Self.label(id) }
        if let r = id.range(of: #"\d{1,4}[a-z]?$"#, options: .regularExpression),
           id[..<r.lowerBound].last.map({ !$0.isNumber }) ?? true {
            return Self.label(String(id[r]))
        }
        return ""
    }

    /// A label as a listener hears it: a number without its leading zeros ("01" → "1").
    static func label(_ label: String) -> String {
        guard label.allSatisfy(\.isASCII), let n = Int(label) else { return label }
        return String(n)
    }

    /// The title of the chapter that holds the notes at the end of a book (`footnotes: book`):
    /// not spoken, each note is announced.
    static let notesTitle = "Notes"

    /// For each note a paragraph refers to, the index of that paragraph: the note is the first one
    /// not yet taken with the marker's id that follows the paragraph (notes restart their numbers
    /// in each chapter), else the nearest one before it.
    static func notePlacement(_ items: [TextItem]) -> [Int: Int] {
        var notesByID: [String: [Int]] = [:]
        for (i, item) in items.enumerated() { if case .note(let note) = item { notesByID[note.id, default: []].append(i) } }
        guard !notesByID.isEmpty else { return [:] }
        var placement: [Int: Int] = [:]
        for (i, item) in items.enumerated() {
            guard case .paragraph(let paragraph) = item else { continue }
            for id in paragraph.noteReferences {
                let free = (notesByID[id] ?? []).filter { placement[$0] == nil }
                if let note = free.first(where: { $0 > i }) ?? free.last { placement[note] = i }
            }
        }
        return placement
    }

    /// The reader's pronunciations and the stretches the pass silenced (those inside a
    /// pronunciation are already spoken as it says).
    private static func pronunciations(_ paragraph: TextParagraph) -> [Pronunciation] {
        merged(paragraph.pronunciations, paragraph.silent)
    }

    /// `pronunciations` and the silent stretches outside them, in order.
    private static func merged(_ pronunciations: [Pronunciation], _ stretches: [SilentStretch]) -> [Pronunciation] {
        guard !pronunciations.isEmpty else { return silent(stretches) }
        let silent = silent(stretches).filter { s in
            !pronunciations.contains { $0.offset < s.offset + s.length && s.offset < $0.offset + $0.length }
        }
        return (pronunciations + silent).sorted { $0.offset < $1.offset }
    }

    /// Stretches kept in the text but not spoken: the engine reads a space there.
    private static func silent(_ stretches: [SilentStretch]) -> [Pronunciation] {
        stretches.map { Pronunciation(offset: $0.offset, length: $0.length, spoken: " ") }
    }

    /// Whether the chapter heading at `index` opens a page set wholly in display type: headings
    /// under it and no text before the next chapter's (a title page set as headings, `Hemenway
    /// Expedition` / `CONTRIBUTION` / `TO` / `FOLK-LORE` / `By …`; a closing notice, `OYEZ-OYEZ-OYEZ` /
    /// `THE FAIRY TALES` / `ARE NOW CLOSED`). Such a page is no chapter: a listener hears no chapter
    /// of a few words with nothing to read in it.
    ///
    /// Before the book's first chapter (`front`), the page may go on over more headings of the chapter
    /// level, set one under the other: a title page set wholly in headings (`JOSEPH JACOBS` / `EDITOR OF
    /// "FOLK LORE"` / `ILLUSTRATED BY` / …, a dedication, a half-title skipped as the title page's) is
    /// one, up to the heading over the first text, which alone opens the first chapter.
    static func isDisplayPage(_ items: [TextItem], at index: Int, front: Bool = false) -> Bool {
        var lines = 0
        for item in items[(index + 1)...] {
            switch item {
            case .heading(let next):
                if lines > 0 || !front || next.level != .chapter { return lines > 0 }
            case .chapter: return lines > 0
            case .skipped(let passage) where front && passage.reason == SkipReason.titlePage: lines += 1
            case .paragraph(let p) where p.kind == .heading: lines += 1
            case .paragraph, .note: return false
            default: continue
            }
        }
        return lines > 0
    }

    /// The words of running text a piece before the book's preface may have and be its opening.
    static let maxProemWords = 150

    /// Whether the chapter heading at `index`, before any chapter, titles a short piece (at most
    /// ``maxProemWords``) right before the book's preface or introduction (`HOW TO GET INTO THIS
    /// BOOK.` over a rhyme; a motto; a dedication under a title of its own): front matter, read as
    /// the book's opening, not a chapter of it — the book's own series starts at the preface.
    static func isProem(_ items: [TextItem], at index: Int) -> Bool {
        // (An introduction or a dedication of its own is the book's, however short.)
        guard case .heading(let heading) = items[index], !heading.lines.contains(where: { HeadingCandidate.standalone.matches($0) })
        else { return false }
        var words = 0
        for item in items[(index + 1)...] {
            switch item {
            case .heading(let next):
                return next.level == .chapter && next.lines.first.map { HeadingCandidate.standalone.matches($0) } == true
            case .chapter:
                return false
            case .paragraph(let p):
                words += TextLines.wordCount(p.text)
                if words > maxProemWords { return false }
            default:
                continue
            }
        }
        return false
    }

    /// A display page's lines: read as text of the chapter they close, or, before the first
    /// chapter, the title page's.
    private static func readDisplayLines(_ lines: [String], into builder: inout BookBuilder) {
        for line in lines {
            if builder.book.chapters.isEmpty {
                builder.skip(line, reason: SkipReason.titlePage)
            } else {
                builder.add(line, kind: .paragraph)
            }
        }
    }

    /// The first heading or paragraph after `index`.
    private static func nextStructural(_ items: [TextItem], after index: Int) -> TextItem? {
        items[(index + 1)...].first { item in
            switch item {
            case .heading, .paragraph: return true
            default: return false
            }
        }
    }
}
