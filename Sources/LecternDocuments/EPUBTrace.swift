import Foundation

/// What a tracing read of an EPUB (``EPUBReader/read(_:tracing:)``) keeps besides the book: the
/// parsed content documents, alive, and every block the book kept, in the order it was added,
/// with where each UTF-16 unit of its text came from in those documents.
///
/// Not `Sendable`: it owns libxml2 trees, which are used by one thread at a time.
final class EPUBTrace {
    /// One content document that was read.
    struct Document {
        var tree: XMLTree
        /// The bytes as they are in the EPUB.
        var data: Data
    }

    /// The content documents that were read, by their path inside the EPUB.
    var documents: [String: Document] = [:]
    /// The kept blocks, in the order they were added to the book.
    var blocks: [TracedBlock] = []
}

/// A block of text the book kept, with the origin of each UTF-16 unit of its text.
struct TracedBlock {
    /// The content document's path inside the EPUB.
    var document = ""
    var text: String
    /// One per UTF-16 unit of `text` (or empty when the text could not be traced): the text node
    /// and offset it came from, or nil for a unit no node holds (a space standing for collapsed
    /// whitespace, the "; " between table cells, a line break).
    var origins: [TextOrigin?]

    init(text: String, origins: [TextOrigin?]) {
        self.text = text
        self.origins = origins
    }
}

/// Where one UTF-16 unit of a block's text is in its document: a text node (or CDATA section, or
/// entity reference) and the unit's offset in that node's text, in UTF-16 units.
struct TextOrigin {
    var node: XMLNodePointer
    var offset: Int
}
