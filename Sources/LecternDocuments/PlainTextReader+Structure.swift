import Foundation
import LecternCore

extension PlainTextReader {
    /// Reads the book's own structure as ``PlainTextStructure`` finds it: parts and chapters at
    /// their headings (each heading line spoken as its own heading), footnote bodies placed as
    /// the source's `footnotes:` says, markers and transcriber's codes kept in the text but
    /// silent, and everything a narrator leaves out listed with its reason.
    func readStructure(_ lines: [String], firstLine: Int, source: Source, into builder: inout BookBuilder) {
        let items = PlainTextStructure.analyse(lines, illustrations: source.rules.illustrations == .read ? .read : .skip)
        let footnotes = source.rules.footnotes
        var pendingPartLines: [String] = []
        // The items between two headings, with the notes among them set apart.
        var regionStart = 0
        while regionStart < items.count {
            var end = regionStart
            if case .heading = items[end] { end += 1 }
            while end < items.count { if case .heading = items[end] { break }; end += 1 }
            let region = items[regionStart..<end]
            var notes: [(note: TextNote, placed: Bool)] = region.compactMap { if case .note(let n) = $0 { (n, false) } else { nil } }
            func place(_ index: Int) {
                notes[index].placed = true
                let note = notes[index].note
                if footnotes == .skip {
                    builder.skip(note.text, reason: "footnote (footnotes: skip)")
                } else {
                    builder.add(note.text, kind: .quote, pronunciations: Self.silent(note.silent))
                }
            }
            for (offset, item) in zip(region.indices, region) {
                switch item {
                case .heading(let heading):
                    if heading.level == .part {
                        builder.part = heading.title
                        // A part heading followed by its first chapter is spoken at that chapter's start;
                        // followed by text of its own, it opens a chapter of its own.
                        if case .heading(let next)? = Self.nextStructural(items, after: offset), next.level == .chapter {
                            pendingPartLines = heading.lines
                            continue
                        }
                        builder.startChapter(title: heading.title, lines: heading.lines)
                    } else {
                        builder.startChapter(title: heading.title, lines: pendingPartLines + heading.lines)
                        pendingPartLines = []
                    }
                case .paragraph(let paragraph):
                    builder.add(paragraph.text, kind: .paragraph, pronunciations: Self.silent(paragraph.silent))
                    if footnotes == .paragraph {
                        for id in paragraph.noteReferences {
                            if let i = notes.firstIndex(where: { $0.note.id == id && !$0.placed }) { place(i) }
                        }
                    }
                case .note:
                    if footnotes == .skip, let i = notes.firstIndex(where: { !$0.placed }) { place(i) }
                case .sectionBreak:
                    builder.sectionBreak()
                case .skipped(let passage):
                    builder.skip(passage.text, reason: passage.reason)
                }
            }
            for i in notes.indices where !notes[i].placed { place(i) }
            regionStart = end
        }
    }

    /// Stretches kept in the text but not spoken: the engine reads a space there.
    private static func silent(_ stretches: [SilentStretch]) -> [Pronunciation] {
        stretches.map { Pronunciation(offset: $0.offset, length: $0.length, spoken: " ") }
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
