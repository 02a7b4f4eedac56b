import LecternCore
import LecternText

/// A play's cast list (`DRAMATIS PERSONÆ`, `THE PERSONS OF THE PLAY`) and its list of scenes
/// (`THE SCENES OF THE PLAY`) are front matter a narrator reads before the play (or, in a volume
/// of plays, before each play) begins, never chapters of their own, in every format: a text's cast list
/// (``CastList``), an HTML heading, a Standard Ebooks EPUB's `dramatis-personae.xhtml` listed in
/// its table of contents. Each is read at the start of the chapter after it, its title spoken
/// there as a heading, so the acts and scenes alone are the play's chapters.
enum PlayFrontMatter {
    /// Whether a chapter's title names a cast list or a list of scenes.
    static func isFrontMatter(_ chapter: Chapter) -> Bool {
        let title = CastList.cleaned(chapter.title)
        return CastList.title.matches(title) || SceneList.title.matches(title)
    }

    /// The most words a cast list or list of scenes joined to the next chapter may hold (a
    /// longer chapter under such a title is more than a list).
    static let maxWords = 1_500

    /// Joins each cast list and list of scenes of a play (a book with speakers' labels, or a
    /// list of names under such a title) — a chapter under such a title with no speech of its
    /// own — to the chapter after it; skipped passages keep their places, and the indices in
    /// `untitled` (chapters opened for text before any heading) follow the chapters they name.
    static func join(_ book: inout Book, untitled: inout Set<Int>) {
        func speaks(_ chapter: Chapter) -> Bool { chapter.blocks.contains { $0.kind == .speaker } }
        // A list of names: most of its blocks list items (a play whose labels the reading did not find).
        func lists(_ chapter: Chapter) -> Bool { chapter.blocks.filter { $0.kind == .listItem }.count * 2 > chapter.blocks.count }
        guard book.chapters.count > 1 else { return }
        let play = book.chapters.contains(where: speaks)
        for i in (0..<(book.chapters.count - 1)).reversed() {
            let chapter = book.chapters[i]
            guard isFrontMatter(chapter), !speaks(chapter), play || lists(chapter),
                  chapter.blocks.reduce(0, { $0 + WordTokenizer.count(in: $1.text) }) <= maxWords else { continue }
            merge(&book, i)
            untitled = Set(untitled.compactMap { $0 == i ? nil : $0 > i ? $0 - 1 : $0 })
        }
    }

    /// Moves chapter `i`'s blocks (its title a heading block when it is spoken) to the start of
    /// chapter `i + 1`, and removes chapter `i`.
    static func merge(_ book: inout Book, _ i: Int) {
        func heading(_ chapter: Chapter) -> [Block] {
            chapter.speaksTitle ? [Block(kind: .heading, text: chapter.title)] : []
        }
        let from = book.chapters[i], into = book.chapters[i + 1]
        let moved = heading(from) + from.blocks
        let offset = heading(from).count
        book.chapters[i + 1].blocks = moved + heading(into) + into.blocks
        book.chapters[i + 1].speaksTitle = false
        if from.part != nil, into.part == nil { book.chapters[i + 1].part = from.part }
        book.chapters.remove(at: i)
        let added = moved.count + heading(into).count
        for n in book.skipped.indices {
            guard let number = book.skipped[n].chapter, number > i else { continue }
            if number == i + 1 {
                book.skipped[n].beforeBlock = book.skipped[n].beforeBlock.map { $0 + offset }
            } else if number == i + 2 {
                book.skipped[n].chapter = i + 1
                book.skipped[n].beforeBlock = book.skipped[n].beforeBlock.map { $0 + added } ?? moved.count
            } else {
                book.skipped[n].chapter = number - 1
            }
        }
    }
}
