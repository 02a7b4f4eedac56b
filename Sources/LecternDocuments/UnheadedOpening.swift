import Foundation
import LecternCore
import LecternText

/// What a narrator reads before the book's first heading — a dedication, an epigraph, a short
/// note to the reader — is spoken at the start of the first headed chapter, before its heading,
/// in every format: it is no chapter of its own only because no heading precedes it (a text's
/// lines before `CHAPTER I`, an EPUB's dedication file). A long unheaded opening (a frame story, a
/// prologue without a heading, over ``maxWords``) stays a chapter of its own, and so does every
/// chapter of a book whose chapters show no heading at all.
enum UnheadedOpening {
    /// The most words an opening joined to the first chapter may hold.
    static let maxWords = 1_500

    /// Whether a chapter shows a heading: its title is spoken, or it holds a heading block.
    static func isHeaded(_ chapter: Chapter) -> Bool {
        chapter.speaksTitle || chapter.blocks.contains { $0.kind == .heading }
    }

    /// Joins the book's leading unheaded chapters to the first headed one; skipped passages keep
    /// their places (their chapter numbers and block offsets follow the blocks).
    /// - parameter untitled: the chapters opened for text met before any heading: unheaded, whatever
    ///   heading blocks the markup sets in them (a dedication in an `<h4>`, `TO THE MEMORY OF`).
    static func join(_ book: inout Book, untitled: Set<Int> = []) {
        guard let first = book.chapters.indices.first(where: { !untitled.contains($0) && isHeaded(book.chapters[$0]) }),
              first > 0 else { return }
        let opening = book.chapters[..<first]
        let words = opening.reduce(0) { $0 + $1.blocks.reduce(0) { $0 + WordTokenizer.count(in: $1.text) } }
        guard words <= maxWords else { return }
        // Where each joined chapter's blocks start in the headed chapter.
        var offsets: [Int] = []
        var moved: [Block] = []
        for chapter in opening {
            offsets.append(moved.count)
            moved += chapter.blocks
        }
        book.chapters[first].blocks = moved + book.chapters[first].blocks
        book.chapters.removeFirst(first)
        for i in book.skipped.indices {
            guard let number = book.skipped[i].chapter else { continue }
            if number <= first {
                book.skipped[i].chapter = 1
                book.skipped[i].beforeBlock = book.skipped[i].beforeBlock.map { $0 + offsets[number - 1] }
            } else if number == first + 1 {
                book.skipped[i].chapter = 1
                book.skipped[i].beforeBlock = book.skipped[i].beforeBlock.map { $0 + moved.count }
            } else {
                book.skipped[i].chapter = number - first
            }
        }
    }
}
