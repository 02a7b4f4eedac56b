import Foundation
import LecternCore

/// Collects blocks into chapters while a reader walks a document, applying the source's
/// front-matter and skip rules and listing everything it leaves out.
struct BookBuilder {
    let source: Source
    let skips: [NSRegularExpression]
    private(set) var book = Book()
    private var inChapter = false

    init(source: Source, skips: [NSRegularExpression]) {
        self.source = source
        self.skips = skips
    }

    /// The 1-based number the current chapter will have in this source, or nil before the first.
    private var chapterNumber: Int? { inChapter ? book.chapters.count : nil }

    mutating func startChapter(title: String) {
        book.chapters.append(Chapter(title: title, blocks: [], source: source.displayPath))
        inChapter = true
    }

    /// Adds a block of text; empty text is ignored, text matching a skip pattern is listed as skipped.
    mutating func add(_ raw: String, kind: BlockKind, language: String? = nil) {
        let text = PlainTextReader.clean(raw)
        guard !text.isEmpty else { return }
        let range = NSRange(text.startIndex..., in: text)
        if let pattern = skips.first(where: { $0.firstMatch(in: text, range: range) != nil }) {
            skip(text, reason: "matches skip pattern /\(pattern.pattern)/")
            return
        }
        if !inChapter {
            if source.chapters.skipBeforeFirst {
                skip(text, reason: "front matter before the first chapter")
                return
            }
            let title = source.chapters.title ?? source.url.deletingPathExtension().lastPathComponent
            book.chapters.append(Chapter(title: title, speaksTitle: false, blocks: [], source: source.displayPath))
            inChapter = true
        }
        book.chapters[book.chapters.count - 1].blocks.append(Block(kind: kind, text: text, language: language))
    }

    /// Lists text that is deliberately not narrated.
    mutating func skip(_ text: String, reason: String) {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !t.isEmpty else { return }
        book.skipped.append(SkippedText(source: source.displayPath, chapter: chapterNumber, reason: reason, text: t))
    }

    func finish() -> Book { book }
}
