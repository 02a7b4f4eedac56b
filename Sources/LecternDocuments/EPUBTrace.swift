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

    /// The blocks a book kept, in order, from the blocks the structure pass was given: each the
    /// block with its text (in order, else one read elsewhere: a note moved to its chapter's end),
    /// or the stretch of one that holds it (a block the pass read apart); a text found in none
    /// keeps no origins.
    static func kept(_ texts: [String], from blocks: [TracedBlock]) -> [TracedBlock] {
        let found = EPUBTextMarker.align(texts, blocks.map(\.text))
        var unused: [String: [Int]] = [:]
        let taken = Set(found.compactMap { $0 })
        for (i, block) in blocks.enumerated() where !taken.contains(i) { unused[block.text, default: []].append(i) }
        var result: [TracedBlock] = []
        var next = 0
        for (text, index) in zip(texts, found) {
            if let index {
                result.append(blocks[index])
                next = index + 1
                continue
            }
            if let elsewhere = unused[text]?.first {
                unused[text]?.removeFirst()
                result.append(blocks[elsewhere])
                continue
            }
            let part = blocks[next..<min(blocks.count, next + 64)].lazy.compactMap { $0.stretch(text) }.first
            result.append(part ?? TracedBlock(text: text, origins: []))
        }
        return result
    }

    /// The stretch of this block whose text is `text`, with its origins, if there is one.
    func stretch(_ text: String) -> TracedBlock? {
        let units = Array(self.text.utf16), wanted = Array(text.utf16)
        guard !wanted.isEmpty, origins.count == units.count, wanted.count < units.count else { return nil }
        for start in 0...(units.count - wanted.count) where units[start] == wanted[0] && Array(units[start..<(start + wanted.count)]) == wanted {
            var part = TracedBlock(text: text, origins: Array(origins[start..<(start + wanted.count)]))
            part.document = document
            return part
        }
        return nil
    }

    /// A block read by the structure pass, and, when it has several lines (a heading spoken line
    /// by line), each line on its own with its share of the origins: whichever the book keeps is
    /// found by its text.
    static func lines(_ lines: [String], of block: TracedBlock) -> [TracedBlock] {
        guard lines.count > 1, block.origins.count == block.text.utf16.count else { return [block] }
        var result = [block]
        let units = Array(block.text.utf16)
        var offset = 0
        for line in lines where !line.isEmpty {
            let length = line.utf16.count
            guard offset + length <= units.count, Array(line.utf16) == Array(units[offset..<(offset + length)]) else { break }
            var part = TracedBlock(text: line, origins: Array(block.origins[offset..<(offset + length)]))
            part.document = block.document
            result.append(part)
            offset += length + 1  // the space between lines
        }
        return result
    }
}

/// Where one UTF-16 unit of a block's text is in its document: a text node (or CDATA section, or
/// entity reference) and the unit's offset in that node's text, in UTF-16 units.
struct TextOrigin {
    var node: XMLNodePointer
    var offset: Int
}
