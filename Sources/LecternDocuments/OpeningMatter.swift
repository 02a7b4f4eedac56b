import Foundation

/// A dedication or an epigraph an EPUB sets as a document of its own before the book's body
/// (`<section epub:type="epigraph">`, `role="doc-dedication"`): front matter a narrator reads as
/// the book's opening, at the start of the first chapter — as a plain text's dedication and motto
/// before `CHAPTER I` are (``UnheadedOpening``) — never a chapter of its own, whatever its
/// table-of-contents entry says. A long one (over ``UnheadedOpening/maxWords``) stays a chapter.
enum OpeningMatter {
    /// The structural types (`epub:type`, `doc-` roles) of front matter read as the opening.
    static let types: Set<String> = ["dedication", "epigraph"]

    /// Whether a document's body is wholly a dedication or an epigraph: the body is marked so, or
    /// every element in it with text is.
    static func isOpening(_ body: XMLNode) -> Bool {
        let marked = { (node: XMLNode) in node.semantics.contains(where: types.contains) }
        guard TextLines.wordCount(body.textContent) <= UnheadedOpening.maxWords else { return false }
        if marked(body) { return true }
        let parts = body.elements.filter { !$0.textContent.isEmpty }
        return !parts.isEmpty && parts.allSatisfy(marked)
    }
}
