import Foundation
import LecternCore

/// The one structure pass, over any reader's ``BlockStream``: the blocks are laid out as lines
/// (a blank line between blocks, a block's own line breaks kept) and read by
/// ``PlainTextStructure``, so that Project Gutenberg's boilerplate, title pages, contents lists,
/// indexes, lists of illustrations, page and note markers, parts and chapters, front and back
/// matter are decided by the same rules whatever the format. What the format knows is kept:
/// a paragraph that is a whole block keeps its kind, languages and pronunciations; tagged
/// headings are the evidence for chapters when no heading names itself (`CHAPTER I`, `PREFACE`);
/// the reader's own skips and notes keep their places.
enum StructurePass {
    /// The items of the stream, in reading order.
    /// - parameter defaultLevel: headings at or above it are the chapters when no level's
    ///   headings open running text twice (`chapters.level`'s default).
    static func items(_ stream: BlockStream, illustrations: PlainTextStructure.Illustrations, defaultLevel: Int = 1) -> [TextItem] {
        var lines: [String] = []
        var blocks: [Int: BlockStream.Block] = [:]  // first line → block
        var blockEnds: [Int: Int] = [:]             // first line → end (exclusive)
        var headings: [(line: Int, level: Int)] = []
        var placed: [(line: Int, item: TextItem)] = []
        var contentsLists: [ListedChapters.List] = []
        var lastBlock: String?
        var picturesListed = false
        for entry in titledContents(stream.entries) {
            switch entry {
            case .block(let block):
                let start = lines.count
                lines += block.lines.isEmpty ? [block.text] : block.lines
                blocks[start] = block
                blockEnds[start] = lines.count
                if let level = block.headingLevel { headings.append((start, level)) }
                lines.append("")
                lastBlock = block.text
                picturesListed = false
            case .note(let id, let label, let block):
                // A note of several paragraphs is one note, read together wherever it goes.
                if let last = placed.last, case .note(var note) = last.item, note.id == id, last.line == lines.count {
                    note.text += " " + block.text
                    placed[placed.count - 1].item = .note(note)
                } else {
                    var note = TextNote(id: id, text: block.text, firstLine: lines.count)
                    note.label = label
                    placed.append((lines.count, .note(note)))
                }
            case .skip(let text, let reason, let cut):
                picturesListed = reason == SkipReason.illustrationsList
                placed.append((lines.count, .skipped(SkippedPassage(text: TextLines.collapse(text), reason: reason, firstLine: lines.count, cut: cut))))
            case .sectionBreak:
                lines += ["* * *", ""]
            case .chapter(let title):
                placed.append((lines.count, .chapter(title: title, line: lines.count)))
            case .contentsEntries(let entries):
                // A list of the pictures (under `Full-page Illustrations`) names no chapters, though it links into them.
                // (The list of links skipped as the pictures' under its title: ``titledContents(_:)``.)
                if picturesListed { continue }
                if let title = lastBlock, isIllustrationsTitle(title) { continue }
                contentsLists.append(ListedChapters.List(after: lines.count, entries: entries.compactMap(ContentsEntry.parse)))
            }
        }
        var evidence = evidence(headings, blocks: blocks, defaultLevel: defaultLevel)
        evidence.notHeadings.formUnion(blocks.filter { !$0.value.mayHead }.keys)
        evidence.contentsLists = contentsLists
        evidence.namedChapters = placed.compactMap { if case .chapter = $0.item { $0.line } else { nil } }
        evidence.playText = Set(blocks.filter { $0.value.kind == .speaker || $0.value.kind == .stageDirection }.keys)
        var analysed = PlainTextStructure.analyse(lines, illustrations: illustrations, evidence: evidence)
        let starts = blocks.keys.sorted()
        var s = 0  // items come in line order: the block holding each is found moving forward
        for j in analysed.indices {
            guard case .paragraph(var paragraph) = analysed[j] else { continue }
            while s + 1 < starts.count, starts[s + 1] <= paragraph.firstLine { s += 1 }
            guard s < starts.count, starts[s] <= paragraph.firstLine, let start = Optional(starts[s]), let block = blocks[start],
                  paragraph.firstLine < blockEnds[start]! else { continue }
            // A cast list's entry stays one (the format marks it a paragraph, or a table's row), and
            // a section heading the pass found one (``RestartingNumbers``).
            if (paragraph.kind != CastList.entryKind && paragraph.kind != .heading) || block.kind != .paragraph { paragraph.kind = block.kind }
            paragraph.language = block.language
            if start == paragraph.firstLine, let length = block.speakerLabel {
                let label = String(decoding: Array(block.text.utf16)[..<length], as: UTF16.self)
                if paragraph.text.hasPrefix(label) { paragraph.speakerLabel = length }
            }
            let nextLine = j + 1 < analysed.count ? analysed[j + 1].firstLine : lines.count
            let whole = start == paragraph.firstLine && nextLine >= blockEnds[start]!
            if whole {
                paragraph.italic = paragraph.italic || block.italic
                paragraph.noteReferences += block.noteReferences
                if paragraph.text == block.text {
                    paragraph.spans = block.spans
                    paragraph.pronunciations = Pronunciation.merging(block.pronunciations, paragraph.pronunciations)
                }
            }
            analysed[j] = .paragraph(paragraph)
        }
        return merge(SectionHeadings.apply(PlayReading.apply(analysed)), placed)
    }

    /// A title whose list the reader took apart goes with it: a contents or index title (`CONTENTS`,
    /// `Index of First Lines`) before a list of links within the book that the reader left out (a marked
    /// heading over a list of the pictures, `Full-page Illustrations`, with that list), a notes title
    /// (`FOOTNOTES:`, `Notes`) before the notes (read where the notes are read, or skipped).
    /// Alone, the pass would take what follows for their entries, or read them as headings.
    static func titledContents(_ entries: [BlockStream.Entry]) -> [BlockStream.Entry] {
        var out = entries
        var headed = false  // a heading before: the book's title is not the list's
        for k in entries.indices.dropLast() {
            guard case .block(let block) = entries[k] else { continue }
            defer { headed = headed || block.headingLevel != nil }
            let pictures = block.headingLevel != nil && isIllustrationsTitle(block.text) ? SkipReason.illustrationsList : nil
            if let reason = ContentsList.title(block.text) ?? pictures ?? indexTitle(block.text) ?? (headed ? listHeading(block) : nil),
               case .skip(let list, SkipReason.contentsLinks, let cut) = entries[k + 1],
               !(reason == SkipReason.index && Self.indexEntriesFollow(entries, after: k + 1)) {
                out[k] = .skip(text: block.text, reason: reason, cut: nil)
                // A list of the pictures (`Full-page Illustrations`) is skipped as one: it names no chapter.
                if reason == SkipReason.illustrationsList { out[k + 1] = .skip(text: list, reason: reason, cut: cut) }
            } else if Footnotes.isHeading(block.text),
                      case .note? = entries[(k + 1)...].first(where: { if case .skip = $0 { false } else { true } }) {
                out[k] = .skip(text: block.text, reason: SkipReason.footnotesHeading, cut: nil)
            }
        }
        return out
    }

    /// Whether an index's entries (`Adagio, the, 62.`) follow the list of links after its title (its
    /// alphabet, `A N B O …`): five among the next ten blocks. The title then stays with them, for
    /// the pass to skip the whole index (``BackMatter``), not its title alone.
    static func indexEntriesFollow(_ entries: [BlockStream.Entry], after k: Int) -> Bool {
        let blocks = entries[(k + 1)...].lazy.compactMap { entry -> String? in
            if case .block(let block) = entry { return TextLines.trim(block.text) }
            return nil
        }.prefix(10)
        return blocks.filter { BackMatter.indexEntry.matches($0) }.count >= 5
    }

    /// The contents reason for a marked heading of a word or two that names nothing of its own (`SUBJECTS`, `Chapters`)
    /// right over a list of links within the book: the list's title, whatever its word.
    static func listHeading(_ block: BlockStream.Block) -> SkipReason? {
        guard block.headingLevel != nil, TextLines.words(block.text).count <= 2, HeadingCandidate.of(block.text) == nil,
              !isIllustrationsTitle(block.text) else { return nil }
        return SkipReason.contentsList
    }

    /// Whether a short block titles a list of pictures: `Full-page Illustrations`, `LIST OF PLATES`.
    static func isIllustrationsTitle(_ text: String) -> Bool {
        let words = TextLines.words(text).map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        return words.count <= 6 && words.contains { ["illustrations", "plates", "figures", "pictures"].contains($0) }
    }

    /// The reason for a title of an index (`INDEX`, `Index of First Lines`) over a list of links.
    static func indexTitle(_ text: String) -> SkipReason? {
        let words = TextLines.words(text)
        return words.count <= 5 && words.first?.lowercased().hasPrefix("index") == true ? SkipReason.index : nil
    }

    /// The evidence of the marked headings (by their first lines).
    static func evidence(_ headings: [(line: Int, level: Int)], blocks: [Int: BlockStream.Block], defaultLevel: Int) -> FormatEvidence {
        var evidence = FormatEvidence()
        evidence.headings = Set(headings.map(\.line))
        evidence.headingLevels = Dictionary(headings.map { ($0.line, $0.level) }, uniquingKeysWith: { a, _ in a })
        evidence.chapterHeadings = chapterHeadings(headings, blocks: blocks)
        if evidence.chapterHeadings.isEmpty {
            evidence.chapterHeadings = Set(defaultChapters(headings, defaultLevel: defaultLevel).map(\.line))
        }
        // Levels holding at least two headings that name themselves chapters or parts.
        var named: [Int: Int] = [:]
        for (line, level) in headings {
            if let first = blocks[line]?.lines.first, let c = HeadingCandidate.of(first), case .keyword = c.kind { named[level, default: 0] += 1 }
        }
        if let deepest = named.filter({ $0.value >= 2 }).keys.max() {
            evidence.notHeadings = Set(headings.filter { $0.level > deepest }.map(\.line))
        }
        return evidence
    }

    /// The headings at or above the default level; but when that is one heading, the book's first (its
    /// title in an `<h1>` over `<h2>` pieces), the headings of the next level that holds two or more.
    static func defaultChapters(_ headings: [(line: Int, level: Int)], defaultLevel: Int) -> [(line: Int, level: Int)] {
        let top = headings.filter { $0.level <= defaultLevel }
        guard top.count == 1, let first = headings.min(by: { $0.line < $1.line }), first.line == top[0].line else { return top }
        var counts: [Int: Int] = [:]
        for h in headings where h.level > defaultLevel { counts[h.level, default: 0] += 1 }
        guard let next = counts.filter({ $0.value >= 2 }).keys.min() else { return top }
        return headings.filter { $0.level == next }
    }

    /// The first lines of the tagged headings that start chapters when no heading names itself:
    /// those of the level whose headings most often open running text (a block of 60 characters
    /// or more), the shallower on a tie; none when no level does so twice (then the default level's).
    static func chapterHeadings(_ headings: [(line: Int, level: Int)], blocks: [Int: BlockStream.Block]) -> Set<Int> {
        let starts = blocks.keys.sorted()
        var opening: [Int: Int] = [:]
        for (k, start) in starts.enumerated() {
            guard let level = blocks[start]?.headingLevel, k + 1 < starts.count, let next = blocks[starts[k + 1]],
                  next.headingLevel == nil, next.text.count >= 60 else { continue }
            opening[level, default: 0] += 1
        }
        var candidates = opening.filter { $0.value >= 2 }
        // A level whose headings all stand in one section of a shallower level that opens text too (the
        // `<h6>` headings of a transcriber's note at the back, under `<h2>` chapters) is that section's
        // — unless that section is most of the book (a collection's pieces under its one title).
        let lineCount = (starts.last ?? 0) + 1
        candidates = candidates.filter { level, _ in
            !candidates.keys.contains { $0 < level && isConfined(level, under: $0, headings, lineCount: lineCount) }
        }
        guard let best = candidates.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return [] }
        return Set(headings.filter { $0.level == best }.map(\.line))
    }

    /// Whether every heading of `level` stands between the same two headings of `shallower` level or above
    /// (or after the same last one), in a section shorter than half of the book's `lineCount` lines.
    static func isConfined(_ level: Int, under shallower: Int, _ headings: [(line: Int, level: Int)], lineCount: Int) -> Bool {
        let above = headings.filter { $0.level <= shallower }.map(\.line).sorted()
        let sections = Set(headings.filter { $0.level == level }.map { h in above.lastIndex { $0 < h.line } ?? -1 })
        guard sections.count == 1, let section = sections.first else { return false }
        let start = section >= 0 ? above[section] : 0
        let end = section + 1 < above.count ? above[section + 1] : lineCount
        return (end - start) * 2 < lineCount
    }

    /// The pass's items with the reader's own skips and notes put back where they were met.
    static func merge(_ analysed: [TextItem], _ placed: [(line: Int, item: TextItem)]) -> [TextItem] {
        var out: [TextItem] = []
        out.reserveCapacity(analysed.count + placed.count)
        var p = 0
        for item in analysed {
            while p < placed.count, placed[p].line <= item.firstLine {
                out.append(placed[p].item)
                p += 1
            }
            out.append(item)
        }
        out += placed[p...].map(\.item)
        return out
    }
}
