import LecternCore
import LecternText

/// A play's synopsis set before it with no title of its own — `ACT I.` / `SCENE I. In the Witch's
/// Orchard. Frog-eye drags the captive Prince…` / `ACT II.` / …, a line or two under each act and
/// scene — is a list of scenes: front matter read before the play begins, never chapters (issue 39,
/// item 3). It shows itself by what follows it: the same acts and scenes start again from the first,
/// this time with the play under them. So a run of short chapters, each titled (or parted) by an act
/// or a scene, with no speech in them, after which the series of acts and scenes starts again at the
/// run's first, is joined to the chapter where the series starts again, as a cast list is
/// (``PlayFrontMatter``).
enum PlaySynopsis {
    /// The most words a synopsis may hold (a longer run is more than a list of scenes).
    static let maxWords = 1_500
    /// The most words one act's or scene's entry may hold (a line or two, with the front matter read before it).
    static let maxEntryWords = 400

    /// Where a chapter stands in a play's series: its act's and its scene's numerals as written
    /// (`II`, `2`, `SECOND`), from its title and its part; nil when neither is an act or a scene.
    struct Place: Equatable {
        var act: String?
        var scene: String?

        /// Whether `other` is the same place, or one holds the other (`ACT I.` holds its `SCENE I.`).
        func starts(_ other: Place) -> Bool {
            guard act != nil || other.act != nil else { return scene == other.scene }
            guard act == other.act else { return false }
            return scene == nil || other.scene == nil || scene == other.scene
        }
    }

    static func join(_ book: inout Book, untitled: inout Set<Int>) {
        let places = book.chapters.map(place)
        guard let start = places.firstIndex(where: { $0 != nil }), let first = places[start] else { return }
        func speaks(_ chapter: Chapter) -> Bool { chapter.blocks.contains { $0.kind == .speaker } }
        func words(_ chapter: Chapter) -> Int { chapter.blocks.reduce(0) { $0 + WordTokenizer.count(in: $1.text) } }
        var total = 0
        var restart: Int?
        var movedOn = false  // the run went on past its first act (or scene) before starting again
        for k in start..<book.chapters.count {
            guard let p = places[k] else { return }  // every chapter of the run is an act or a scene
            if movedOn, p.starts(first) {
                restart = k
                break
            }
            if !p.starts(first) { movedOn = true }
            let own = words(book.chapters[k])
            total += own
            guard !speaks(book.chapters[k]), own <= maxEntryWords, total <= maxWords else { return }
        }
        // The play itself follows: at least as many chapters as the synopsis, and more words.
        guard let k = restart, book.chapters.count - k >= k - start,
              book.chapters[k...].reduce(0, { $0 + words($1) }) > total else { return }
        for i in (start..<k).reversed() {
            PlayFrontMatter.merge(&book, i)
            untitled = Set(untitled.compactMap { $0 == i ? nil : $0 > i ? $0 - 1 : $0 })
        }
    }

    /// The act and scene a chapter's title and part name, if either is a play's division.
    static func place(_ chapter: Chapter) -> Place? {
        var place = Place()
        for title in [chapter.part, chapter.title].compactMap({ $0 }) {
            guard let (isAct, numeral) = division(title) else { continue }
            if isAct {
                place.act = numeral
                place.scene = nil
            } else {
                place.scene = numeral
            }
        }
        return place.act == nil && place.scene == nil ? nil : place
    }

    /// Whether `title` opens with an act's keyword (or a scene's), and the numeral after it.
    static func division(_ title: String) -> (isAct: Bool, numeral: String)? {
        guard let candidate = HeadingCandidate.of(title), candidate.isPlayDivision else { return nil }
        let words = TextLines.words(candidate.text).map { $0.uppercased().trimmingCharacters(in: .punctuationCharacters) }
        guard words.count >= 2, HeadingWords.playDivisions.contains(words[0]) else { return nil }
        return (HeadingWords.part.contains(words[0]), words[1])
    }
}
