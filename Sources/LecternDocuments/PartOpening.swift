import LecternCore
import LecternText

/// A heading with no prose of its own right before a part's first chapter (`Tome I--FANTINE` over
/// a date, `(1862)`, then `Livre premier` and its `Chapitre I`) is no chapter of a few words: it
/// opens the part, so it is spoken at the start of the part's first chapter, with the lines under
/// it, and that chapter keeps its own title. (A short chapter inside a part, a play's brief scene, stays.)
enum PartOpening {
    /// The most words of text (besides its headings) a chapter may hold and hold none of its own.
    static let maxWords = 10
    /// The most words of one such line: more is a sentence, which a chapter of its own may be.
    static let maxLineWords = 4

    static func join(_ book: inout Book) {
        var i = 0
        while i + 1 < book.chapters.count {
            let chapter = book.chapters[i], next = book.chapters[i + 1]
            let text = chapter.blocks.filter { $0.kind != .heading }.map { WordTokenizer.count(in: $0.text) }
            // No prose of its own: a date or a line of a few words, not a sentence (a short preface's).
            guard chapter.part == nil, next.part != nil, chapter.blocks.contains(where: { $0.kind == .heading }),
                  text.reduce(0, +) <= maxWords, text.allSatisfy({ $0 <= maxLineWords })
            else { i += 1; continue }
            let moved = chapter.blocks.count
            book.chapters[i + 1].blocks = chapter.blocks + next.blocks
            book.chapters.remove(at: i)
            // Skipped passages keep their places: chapter numbers are 1-based.
            for k in book.skipped.indices {
                guard let number = book.skipped[k].chapter, number > i + 1 else { continue }
                book.skipped[k].chapter = number - 1
                if number == i + 2 { book.skipped[k].beforeBlock = book.skipped[k].beforeBlock.map { $0 + moved } }
            }
        }
    }
}
