import LecternCore

/// The headings inside a chapter that a book sets as lines of their own in italics — a diary's
/// entries (`Dr. Seward's Diary.`), letters (`Letter, Mina Harker to Lucy Westenra.`), telegrams,
/// a dispatch's dateline — read as section headings: blocks of kind ``BlockKind/heading`` within
/// the chapter (``Chapter/opensSection(at:)``), spoken after the section pause and listed a level
/// under the chapter, never chapters of their own.
///
/// A paragraph is one when it is set wholly in italics, is short and reads as a title (at most
/// two lines, 12 words, most longer words capitalised), stands inside a chapter and is followed
/// by running text. In a play such a line is a stage direction (``PlayReading`` runs first).
enum SectionHeadings {
    static let maxWords = 12

    static func apply(_ items: [TextItem]) -> [TextItem] {
        var out = items
        var inChapter = false
        var afterSection = false
        for (k, item) in items.enumerated() {
            switch item {
            case .heading, .chapter:
                inChapter = true
                afterSection = false
            case .paragraph(var p) where inChapter && !afterSection && p.italic && p.kind == .paragraph && isTitle(p.text):
                // Followed by text (an address or a date under a letter's heading is that text).
                guard case .paragraph(let next)? = items[(k + 1)...].first(where: opensText), next.kind != .heading else { continue }
                p.kind = .heading
                out[k] = .paragraph(p)
                afterSection = true
            case .paragraph:
                afterSection = false
            default:
                continue
            }
        }
        return out
    }

    /// Whether a paragraph's text is short and reads as a title.
    static func isTitle(_ text: String) -> Bool {
        guard text.count <= 80, TextLines.wordCount(text) <= maxWords else { return false }
        return HeadingCandidate.isTitleLike([text])
    }

    /// A heading or a paragraph: what comes next to be read.
    private static func opensText(_ item: TextItem) -> Bool {
        switch item {
        case .heading, .paragraph, .chapter: true
        default: false
        }
    }
}
