import Foundation

/// A document read into Lectern's common model: chapters made of blocks.
///
/// Every reader (plain text, Markdown, later HTML and EPUB) produces a `Book`; the segmenter
/// only ever sees this model.
public struct Book: Sendable, Equatable {
    /// The chapters in reading order.
    public var chapters: [Chapter]
    /// Text that was present in the input but is deliberately not narrated, with the reason.
    public var skipped: [SkippedText]
    /// What the documents say about the book (EPUB metadata), to fill the manifest's gaps.
    public var metadata: BookMetadata
    /// The documents' pronunciation hints (PLS entries, `ssml:ph`) that espeak-ng cannot express.
    public var pronunciationNotes: [PronunciationNote] = []
    /// Things a user should know about how the documents were read (an encoding guessed, …),
    /// one line each, naming the document.
    public var warnings: [String] = []
    /// How the documents were read, one line each (the encoding, how chapters were found), for
    /// `lectern init` to say in its comments.
    public var notes: [String] = []
    /// Files the documents link and Lectern read besides the sources (stylesheets and
    /// pronunciation lexicons beside an HTML page): inputs no output may replace.
    public var linkedFiles: [URL] = []

    public init(chapters: [Chapter] = [], skipped: [SkippedText] = [], metadata: BookMetadata = BookMetadata()) {
        self.chapters = chapters
        self.skipped = skipped
        self.metadata = metadata
    }

    /// Appends another book's chapters and skipped text after this one's, renumbering the
    /// chapters its skipped text refers to.
    public mutating func append(_ other: Book) {
        let offset = chapters.count
        skipped += other.skipped.map { item in
            var item = item
            item.chapter = item.chapter.map { $0 + offset }
            return item
        }
        chapters += other.chapters
        metadata = metadata.filling(from: other.metadata)
        pronunciationNotes += other.pronunciationNotes
        warnings += other.warnings
        notes += other.notes
        linkedFiles += other.linkedFiles
    }
}

/// A book's title, author, language, cover and the rest of its description as its documents
/// give them.
public struct BookMetadata: Sendable, Equatable {
    public var title: String?
    public var author: String?
    /// A BCP 47 language tag (`dc:language`).
    public var language: String?
    public var cover: Cover?
    /// Narrator, description, genre, date, series, publisher, rights, ISBN (EPUB metadata).
    public var details = BookDetails()

    /// An image with its MIME type.
    public struct Cover: Sendable, Equatable {
        public var mimeType: String
        public var data: [UInt8]
        public init(mimeType: String, data: [UInt8]) {
            self.mimeType = mimeType
            self.data = data
        }
    }

    public init(title: String? = nil, author: String? = nil, language: String? = nil, cover: Cover? = nil) {
        self.title = title
        self.author = author
        self.language = language
        self.cover = cover
    }

    /// This metadata with its missing fields taken from `other`.
    public func filling(from other: BookMetadata) -> BookMetadata {
        var filled = BookMetadata(title: title ?? other.title, author: author ?? other.author, language: language ?? other.language,
                                  cover: cover ?? other.cover)
        filled.details = details.filling(from: other.details)
        return filled
    }
}

/// A chapter: a title (spoken as its heading) and the blocks that follow it.
public struct Chapter: Sendable, Equatable {
    public var title: String
    /// Whether the title is spoken as the chapter's first utterance.
    public var speaksTitle: Bool
    public var blocks: [Block]
    /// The file the chapter came from, as written in the manifest (for messages).
    public var source: String
    /// The title of the part (book, volume, epoch …) the chapter belongs to, or nil when the
    /// book has no parts. Consecutive chapters with the same part form that part.
    public var part: String?

    public init(title: String, speaksTitle: Bool = true, blocks: [Block] = [], source: String, part: String? = nil) {
        self.title = title
        self.speaksTitle = speaksTitle
        self.blocks = blocks
        self.source = source
        self.part = part
    }

    /// Whether block `index` opens a section of the chapter: a heading block after the chapter's
    /// first text and before more of it (a diary entry's `Dr. Seward's Diary.`, a letter's
    /// heading, a heading below the chapter's level). The headings before any text are the
    /// chapter's own, and so is the first heading after a short opening read at the chapter's
    /// start (``UnheadedOpening``); those after all of it (`THE END.`) close it. A section's heading
    /// is spoken after the section pause and is listed a level under its chapter in the timing
    /// sidecar (``ParagraphTiming``'s `section`) and in a narrated EPUB's navigation.
    public func opensSection(at index: Int) -> Bool {
        guard blocks.indices.contains(index), blocks[index].kind == .heading,
              // The chapter's own heading: the one that bears its title, else its first. What is
              // read before it (a short opening, a play's cast list, headed) opens nothing.
              let own = blocks.firstIndex(where: { $0.kind == .heading && $0.text == title }) ?? blocks.firstIndex(where: { $0.kind == .heading }),
              own < index else { return false }
        return blocks[own..<index].contains { $0.kind != .heading } && blocks[(index + 1)...].contains { $0.kind != .heading }
    }
}

/// One block of narrated text: a paragraph, heading, quote or list item.
public struct Block: Sendable, Equatable {
    public var kind: BlockKind
    /// The text as it is spoken and as timings refer to it (whitespace normalised).
    public var text: String
    /// A BCP 47 language tag when the block is marked as being in a particular language.
    public var language: String?
    /// Parts of `text` marked as another language than the block's (HTML `lang`/`xml:lang`),
    /// in order and not overlapping.
    public var spans: [LanguageSpan]
    /// How parts of `text` are to be spoken (the document's `ssml:ph` and PLS lexicons), in order
    /// and not overlapping.
    public var pronunciations: [Pronunciation]
    /// Whether a section break (`* * *`) comes before the block: it gets the section pause.
    public var afterSectionBreak = false
    /// For a note read away from its reference: its label ("3", "A"), announced before it
    /// (Config/spoken/LANG.yml's `note`: "Note 3.").
    public var noteLabel: String?

    public init(kind: BlockKind, text: String, language: String? = nil, spans: [LanguageSpan] = [], pronunciations: [Pronunciation] = []) {
        self.kind = kind
        self.text = text
        self.language = language
        self.spans = spans
        self.pronunciations = pronunciations
    }
}

/// A run of a block's text in a given language, in UTF-16 code units of the block's text.
public struct LanguageSpan: Sendable, Equatable, Codable {
    public var offset: Int
    public var length: Int
    /// A BCP 47 language tag, e.g. `fr` or `en-GB`.
    public var language: String

    public init(offset: Int, length: Int, language: String) {
        self.offset = offset
        self.length = length
        self.language = language
    }
}

/// The role of a block, which selects its pauses and style.
public enum BlockKind: String, Sendable, Codable, CaseIterable {
    case heading
    case paragraph
    case quote
    case listItem = "list_item"
    /// Who speaks next in a play (`ROPER.`, a `z3998:persona`).
    case speaker
    /// A play's stage direction (`[To FARNCOMBE.]`, a `z3998:stage-direction`): never inside
    /// the speech around it.
    case stageDirection = "stage_direction"
}

/// Input text that is not narrated, kept so that nothing disappears silently.
public struct SkippedText: Sendable, Equatable, Codable {
    /// The source file, as written in the manifest.
    public var source: String
    /// The chapter it would have belonged to (1-based), or nil before the first chapter.
    public var chapter: Int?
    /// Why it is not narrated.
    public var reason: SkipReason
    /// The text itself.
    public var text: String
    /// Where in its chapter it was: before the block with this index (nil: before the chapter,
    /// or not known). Used to show skipped text in place (`lectern check --text`); not encoded.
    public var beforeBlock: Int?
    /// Which side of an excerpt's cut (`start_at`/`start_after`, `end_at`) the text lies on;
    /// nil for text skipped inside the excerpt.
    public var cut: Cut?
    /// How many words `text` stands for, when it is a summary (``summarisingCuts(_:)``) rather
    /// than the text itself; nil: `text` is all of it.
    public var words: Int?

    /// The sides of an excerpt's cut.
    public enum Cut: String, Sendable, Codable {
        case before, after
    }

    public init(source: String, chapter: Int?, reason: SkipReason, text: String, cut: Cut? = nil, words: Int? = nil) {
        self.source = source
        self.chapter = chapter
        self.reason = reason
        self.text = text
        self.cut = cut
        self.words = words
    }

    private enum CodingKeys: String, CodingKey { case source, chapter, reason, text, cut, words }

    public static func == (a: SkippedText, b: SkippedText) -> Bool {
        a.source == b.source && a.chapter == b.chapter && a.reason == b.reason && a.text == b.text && a.cut == b.cut && a.words == b.words
    }
}
