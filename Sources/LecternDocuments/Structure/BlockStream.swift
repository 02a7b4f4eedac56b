import LecternCore

/// What a reader hands the structure pass: the document as a format-neutral stream, in reading
/// order — blocks of text with the evidence their format gives (a tagged heading's level, a
/// note's id, the notes a block refers to), and the passages the reader itself leaves out
/// because only its format can tell (navigation, page markers, images, code).
///
/// ``StructurePass`` decides the rest — boilerplate, contents, indexes, parts and chapters,
/// front and back matter, notes — by the same rules for every format.
struct BlockStream {
    /// A block of text as the reader found it, with what it knows about it.
    struct Block {
        /// The block's lines as shown (split at line breaks), each trimmed and collapsed; joined
        /// with spaces they are ``text``. An empty line (`<br><br>`, a `<pre>`'s blank line) parts
        /// paragraphs.
        var lines: [String]
        /// The text, whitespace collapsed.
        var text: String
        var kind: BlockKind
        var language: String?
        var spans: [LanguageSpan] = []
        var pronunciations: [Pronunciation] = []
        /// The level (1–6) of a heading the format marks as one (`<h2>`, a shown heading).
        var headingLevel: Int?
        /// Ids of the notes the block refers to (`noteref` links), in order.
        var noteReferences: [String] = []
        /// False for a table cell or a list item, which never heads a chapter whatever its words.
        var mayHead = true
        /// The length (UTF-16) of the speaker's label the markup sets at the block's start
        /// (`<b>Lane.</b>`, a small-caps name): a candidate the play reading weighs.
        var speakerLabel: Int?
        /// The whole block is set in italics (`<p><i>…</i></p>`): a stage direction in a play, a
        /// section's heading in a chapter (``SectionHeadings``).
        var italic = false
    }

    enum Entry {
        case block(Block)
        /// A note body (`epub:type="footnote"`, `role="doc-endnote"`) with its id and the label its
        /// marker shows ("3").
        case note(id: String, label: String?, Block)
        /// Left out by the reader, with the reason (and which side of a marker's cut it is on).
        case skip(text: String, reason: SkipReason, cut: SkippedText.Cut?)
        /// A thematic break (`<hr>`).
        case sectionBreak
        /// A chapter starts here, named by the format (an EPUB's table of contents).
        case chapter(title: String)
        /// The entries of the contents list just left out (a table or list of links within the
        /// book), one per row or item: the evidence for the chapters after it.
        case contentsEntries([String])
    }

    private(set) var entries: [Entry] = []

    /// Whether any block with words has been added (front matter ends at the first).
    var hasText: Bool {
        entries.contains { if case .block = $0 { true } else { false } }
    }

    mutating func add(_ block: Block) {
        guard !block.text.isEmpty else { return }
        entries.append(.block(block))
    }

    mutating func note(id: String, label: String?, _ block: Block) {
        guard !block.text.isEmpty else { return }
        entries.append(.note(id: id, label: label, block))
    }

    mutating func skip(_ text: String, reason: SkipReason, cut: SkippedText.Cut? = nil) {
        entries.append(.skip(text: text, reason: reason, cut: cut))
    }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    mutating func sectionBreak() {
        entries.append(.sectionBreak)
    }

    /// Takes back the chapter starts nothing with words came after (a title page's and an
    /// imprint's chapters, all of them left out): what comes next is read before any chapter.
    mutating func withdrawEmptyChapters() {
        let read = { (entry: Entry) in if case .block = entry { true } else if case .note = entry { true } else { false } }
        let lastRead = entries.lastIndex(where: read) ?? -1
        var k = entries.count - 1
        while k > lastRead {
            if case .chapter = entries[k] { entries.remove(at: k) }
            k -= 1
        }
    }

    mutating func chapter(title: String) {
        entries.append(.chapter(title: title))
    }

    /// Whether the format names the chapters (then the text's headings are read inside them).
    var namesChapters: Bool {
        entries.contains { if case .chapter = $0 { true } else { false } }
    }
}
