import Foundation
import LecternCore

/// Finds running heads and feet by repetition: a class that the first (or last) block of many
/// spine documents carries, whose text is the book's title (or shortens it), a heading of its document (other
/// than itself), or the same text in several documents, is page furniture printed on every
/// page, not text to read. A chapter heading that opens every document in the same class is
/// not: it is the heading itself, with a text of its own each time.
///
/// A class counts when it opens (or closes) at least two documents and at least a third of
/// those with two blocks or more, and when at least half of its places match as above.
struct RunningFurniture {
    /// One document's first or last block, by the element carrying the class.
    struct Edge {
        var node: XMLNode
        var key: String
        var text: String
        /// The document's headings outside the edge, normalised.
        var headings: [String]
    }

    /// The running heads and feet among `documents` (spine order, each a body), by node, with
    /// their reasons ("running head", "running foot"); `title` is the book's.
    static func detect(_ documents: [XMLNode], title: String?) -> [XMLNodePointer: SkipReason] {
        var heads: [Edge] = [], feet: [Edge] = []
        var eligible = 0
        for body in documents {
            let leaves = blocks(in: body)
            guard leaves.count >= 2 else { continue }
            eligible += 1
            if let e = edge(leaves.first!, in: body) { heads.append(e) }
            if let e = edge(leaves.last!, in: body) { feet.append(e) }
        }
        let title = title.map(normalised) ?? ""
        var found: [XMLNodePointer: SkipReason] = [:]
        for (edges, reason) in [(heads, SkipReason.runningHead), (feet, SkipReason.runningFoot)] {
            for (_, group) in Dictionary(grouping: edges, by: \.key) {
                guard group.count >= 2, group.count * 3 >= eligible else { continue }
                let matching = group.filter { e in
                    guard !e.text.isEmpty else { return false }
                    return shortens(e.text, title) || e.headings.contains { nearlyEqual(e.text, $0) }
                        || group.contains { $0.node.pointer != e.node.pointer && $0.text == e.text }
                }
                guard matching.count * 2 >= group.count else { continue }
                for e in group { found[e.node.pointer] = reason }
            }
        }
        return found
    }

    static let headingNames: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The innermost blocks with text, in document order.
    static func blocks(in node: XMLNode) -> [XMLNode] {
        var result: [XMLNode] = []
        for child in node.elements where !HTMLWalker.skippedElements.contains(child.name) && child.name != "nav" {
            let inner = blocks(in: child)
            if !inner.isEmpty {
                result += inner
            } else if HTMLWalker.blockElements.contains(child.name) || headingNames.contains(child.name) || child.name == "p"
                        || child.name == "li" || child.name == "blockquote" {
                if !child.textContent.isEmpty { result.append(child) }
            }
        }
        return result
    }

    /// The edge a block makes: the outermost element around it with the same text that carries a
    /// class (the block itself included); nil when none does.
    static func edge(_ leaf: XMLNode, in body: XMLNode) -> Edge? {
        var chain: [XMLNode] = []
        func path(_ node: XMLNode) -> Bool {
            if node.pointer == leaf.pointer { return true }
            for child in node.elements where path(child) {
                chain.append(child)
                return true
            }
            return false
        }
        guard path(body) else { return nil }
        // chain runs from the leaf outwards.
        let text = leaf.textContent
        guard let carrier = chain.prefix(while: { $0.textContent == text }).last(where: { ($0["class"] ?? "").contains { !$0.isWhitespace } })
        else { return nil }
        let key = (carrier["class"] ?? "").split(separator: " ").sorted().joined(separator: " ")
        let inside = Set(carrier.all { _ in true }.map(\.pointer) + [carrier.pointer])
        let headings = body.all { headingNames.contains($0.name) && !inside.contains($0.pointer) }.map { normalised($0.textContent) }
        return Edge(node: carrier, key: key, text: normalised(text), headings: headings)
    }

    /// Lowercased letters and spaces only (page numbers and punctuation dropped).
    static func normalised(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter ? $0 : " " }).split(separator: " ").joined(separator: " ")
    }

    /// `text` is `title`, or a shortened form of it (whole words, at least 40 % of its length):
    /// a running head may abbreviate the book's title, but does not add words to it.
    static func shortens(_ text: String, _ title: String) -> Bool {
        guard !text.isEmpty, !title.isEmpty, text.count <= title.count else { return false }
        return text.count * 5 >= title.count * 2 && " \(title) ".contains(" \(text) ")
    }

    /// Equal, or one holds the other as whole words and is at least 40 % of its length.
    static func nearlyEqual(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard short.count * 5 >= long.count * 2 else { return false }
        return " \(long) ".contains(" \(short) ")
    }
}
