/// The sections of a heading that holds no prose of its own in an EPUB's table of contents: entries
/// nested under one for the same file, where that entry's text before the first of them is its
/// heading alone (at most ``maxOwnWords`` words: a heading, a date, an epigraph). A preface titled
/// `Heartbreak House and Horseback Hall` over thirty titled pieces, an `Introduction` over `I`–`III`:
/// the entry is the chapter and the nested entries are its sections (read after the section pause,
/// listed a level under it), never a chapter of five words followed by chapters of its pieces.
///
/// The nested entries stay chapters when they may be the book's chapter series under a part: they
/// name themselves (`Chapter I`, `Scene II`) or are numbered (`I.`, `II.` under a story).
enum EPUBNestedSections {
    /// The words an entry may hold before its first nested entry and still hold none of its own.
    static let maxOwnWords = 50

    /// The entries (by index in `toc`) that are sections of their parent's chapter.
    /// - parameter trees: the parsed content documents by path.
    static func sections(_ toc: [EPUBPackage.NavEntry], trees: [String: XMLTree]) -> Set<Int> {
        // Each entry's nested entries in the same file, reached by an anchor.
        var children: [Int: [Int]] = [:]
        for (k, entry) in toc.enumerated() {
            guard let fragment = entry.fragment, !fragment.isEmpty,
                  let parent = toc[..<k].lastIndex(where: { $0.depth < entry.depth }), toc[parent].depth == entry.depth - 1,
                  toc[parent].path == entry.path else { continue }
            children[parent, default: []].append(k)
        }
        let numbered = { (k: Int) in isNumbered(toc[k].ownTitle.isEmpty ? toc[k].title : toc[k].ownTitle) }
        var out: Set<Int> = []
        for (parent, nested) in children {
            let titles = nested.map { toc[$0].ownTitle.isEmpty ? toc[$0].title : toc[$0].ownTitle }
            if titles.contains(where: namesItself) { continue }
            if nested.contains(where: numbered) { continue }
            guard let root = trees[toc[parent].path]?.root.map({ $0.first { $0.name == "body" } ?? $0 }), let first = toc[nested[0]].fragment,
                  let words = ownWords(root, from: toc[parent].fragment, to: first), words <= maxOwnWords else { continue }
            out.formUnion(nested)
        }
        return out
    }

    /// A title that names itself a chapter, scene, letter … (`Chapter I`, `Scene II`).
    static func namesItself(_ title: String) -> Bool {
        if case .keyword? = HeadingCandidate.of(title)?.kind { return true }
        return false
    }

    /// A title that is a number, or starts with one (`I`, `2.`, `IV. The Storm`).
    static func isNumbered(_ title: String) -> Bool {
        switch HeadingCandidate.of(title)?.kind {
        case .bareNumber?, .numberedTitle?: return true
        default: return false
        }
    }

    /// The words of text from the element with id `start` (the document's start when nil) to the
    /// element with id `end`; nil when either is not found in that order.
    static func ownWords(_ root: XMLNode, from start: String?, to end: String) -> Int? {
        var started = start == nil || start?.isEmpty == true
        var reached = false
        var text: [String] = []
        root.walkDescendants { node in
            guard !reached else { return false }
            if node.isElement, let id = node["id"] {
                if id == end { reached = true; return false }
                if id == start { started = true }
            }
            if started, node.isText, let t = node.text { text.append(t) }
            return true
        }
        guard reached, started else { return nil }
        return TextLines.wordCount(text.joined(separator: " "))
    }
}
