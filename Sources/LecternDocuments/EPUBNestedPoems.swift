/// The poems of a collection in an EPUB's table of contents: an entry nested under one for the same
/// file (a book of poems, a long poem) whose target is a poem or lies inside one (`z3998:poem`,
/// `z3998:song`, `z3998:hymn`: a poem of the book, a numbered part of a poem) is a section of that
/// file's chapter, not a chapter: its heading is read after the section pause and listed a level
/// under the chapter. A poem listed with no higher division (entries not nested, or nested in a
/// volume's title page of its own) stays a chapter.
enum EPUBNestedPoems {
    static let poemTypes: Set<String> = ["z3998:poem", "z3998:song", "z3998:hymn"]

    /// The entries (by index in `toc`) that are sections of their parent's chapter.
    /// - parameter trees: the parsed content documents by path.
    static func sections(_ toc: [EPUBPackage.NavEntry], trees: [String: XMLTree]) -> Set<Int> {
        var poemIDs: [String: Set<String>] = [:]
        func ids(in path: String) -> Set<String> {
            if let known = poemIDs[path] { return known }
            var found: Set<String> = []
            for poem in trees[path]?.root?.all(where: { $0.semantics.contains(where: poemTypes.contains) }) ?? [] {
                if let id = poem["id"] { found.insert(id) }
                found.formUnion(poem.all { $0["id"] != nil }.compactMap { $0["id"] })
            }
            poemIDs[path] = found
            return found
        }
        var out: Set<Int> = []
        for (k, entry) in toc.enumerated() {
            guard let fragment = entry.fragment, !fragment.isEmpty,
                  let parent = toc[..<k].lastIndex(where: { $0.depth < entry.depth }), toc[parent].path == entry.path,
                  ids(in: entry.path).contains(fragment) else { continue }
            out.insert(k)
        }
        return out
    }
}
