import Foundation

/// Marks the narrated text of one content document (for ``EPUBTextMarker``): a paragraph by its
/// own element or a `span`, its sentences and words by `span`s, splitting inline elements where
/// a range starts or ends inside one.
///
/// Not `Sendable`: it changes a libxml2 tree, on one thread.
final class XHTMLMarker {
    let tree: XMLTree
    /// Whether any mark was made.
    private(set) var changed = false
    /// Every id in the document, the new ones included.
    private var ids: Set<String>
    private var counters: [String: Int] = [:]

    init(tree: XMLTree) {
        self.tree = tree
        ids = tree.root?.ids ?? []
    }

    /// Elements that hold phrasing content and are phrasing content themselves: a paragraph's
    /// own element is the nearest element holding exactly its text that is not one of these.
    static let phrasing: Set<String> = [
        "a", "abbr", "acronym", "audio", "b", "bdi", "bdo", "big", "br", "button", "canvas", "cite", "code", "data", "datalist",
        "del", "dfn", "em", "embed", "font", "i", "iframe", "img", "input", "ins", "kbd", "label", "map", "mark", "math", "meter",
        "nobr", "noscript", "object", "output", "picture", "progress", "q", "ruby", "s", "samp", "script", "select", "slot",
        "small", "span", "strike", "strong", "sub", "sup", "svg", "template", "textarea", "time", "tt", "u", "var", "video", "wbr",
    ]
    /// Elements that may sit inside phrasing elements without being phrasing content on their own.
    static let phrasingParts: Set<String> = ["rb", "rp", "rt", "rtc", "area", "source", "track", "param", "option", "optgroup"]
    /// Phrasing elements that can be split in two without changing what they mean or show.
    /// Not `q` (its quotation marks would be doubled), `ruby` (its annotations would come
    /// apart), `bdi`/`bdo` (their text direction), replaced or interactive content.
    static let splittable: Set<String> = [
        "a", "abbr", "acronym", "b", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark", "nobr",
        "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
    ]
    /// Elements whose content model takes no `span` (lists, tables, head, text-only elements).
    static let closed: Set<String> = [
        "html", "head", "title", "script", "style", "table", "thead", "tbody", "tfoot", "tr", "colgroup", "col", "ul", "ol", "dl",
        "menu", "select", "optgroup", "option", "datalist", "textarea", "hgroup", "picture", "frameset", "iframe",
    ]

    /// Marks a traced block as `paragraph` (whose text is the block's): returns the paragraph's
    /// id and its sentences' placements, or nil when the paragraph cannot be marked at all.
    func mark(_ block: TracedBlock, as paragraph: NarratedParagraph) -> (id: String, sentences: [SentencePlacement])? {
        let origins = block.origins
        guard !origins.isEmpty, origins.count == paragraph.text.utf16.count else { return nil }

        /// The first and last units of `range` that came from a node.
        func ends(_ range: Range<Int>) -> (Int, Int)? {
            let lo = max(range.lowerBound, 0), hi = min(range.upperBound, origins.count)
            guard lo < hi else { return nil }
            var i = lo, j = hi - 1
            while i < hi, origins[i] == nil { i += 1 }
            guard i < hi else { return nil }
            while origins[j] == nil { j -= 1 }
            return (i, j)
        }
        guard let whole = ends(0..<origins.count) else { return nil }
        let own = ownElement(origins, first: origins[whole.0]!.node, last: origins[whole.1]!.node)

        // Split the text nodes at every boundary first, so that every range is whole nodes.
        let ranges = [0..<origins.count] + paragraph.sentences + paragraph.words.flatMap { $0 }
        var cuts: [XMLNodePointer: Set<Int>] = [:]
        for range in ranges {
            guard let (i, j) = ends(range) else { continue }
            cuts[origins[i]!.node, default: []].insert(origins[i]!.offset)
            cuts[origins[j]!.node, default: []].insert(origins[j]!.offset + 1)
        }
        var parts: [XMLNodePointer: [(offset: Int, node: XMLNode)]] = [:]
        for (pointer, offsets) in cuts {
            let node = XMLNode(pointer, owner: tree)
            guard node.isText else { continue }
            let pieces = node.split(at: offsets.sorted())
            if pieces.count > 1 { parts[pointer] = pieces }
        }
        func node(_ origin: TextOrigin) -> XMLNode {
            guard let pieces = parts[origin.node] else { return XMLNode(origin.node, owner: tree) }
            var lo = 0, hi = pieces.count - 1  // the last piece starting at or before the offset
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if pieces[mid].offset <= origin.offset { lo = mid } else { hi = mid - 1 }
            }
            return pieces[lo].node
        }
        func wrap(_ range: Range<Int>, _ kind: String) -> String? {
            guard let (i, j) = ends(range), let span = wrapNodes(node(origins[i]!), node(origins[j]!)) else { return nil }
            return identify(span, kind)
        }

        let id: String
        if let own {
            id = own["id"] ?? identify(own, "p")
        } else if let wrapped = wrap(0..<origins.count, "p") {
            id = wrapped
        } else {
            return nil
        }
        changed = true
        var sentences: [SentencePlacement] = []
        for (k, sentence) in paragraph.sentences.enumerated() {
            let sentenceID = wrap(sentence, "s")
            let words = (k < paragraph.words.count ? paragraph.words[k] : []).map { wrap($0, "w") }
            sentences.append(SentencePlacement(id: sentenceID, words: words))
        }
        return (id, sentences)
    }

    /// Links a stylesheet from the document's head (made if missing), unless it is linked already.
    func link(stylesheet href: String) {
        guard let root = tree.root else { return }
        let head: XMLNode
        if let existing = root.elements.first(where: { $0.name == "head" }) {
            head = existing
        } else {
            head = root.newElement("head")
            if let first = root.children.first { first.insert(before: head) } else { root.append(head) }
        }
        if head.elements.contains(where: { $0.name == "link" && $0["href"] == href }) { return }
        let link = root.newElement("link")
        link.setAttribute("rel", "stylesheet")
        link.setAttribute("type", "text/css")
        link.setAttribute("href", href)
        head.append(link)
        changed = true
    }

    /// Gives `element` a new id of `kind` ("p", "s", "w") and returns it.
    private func identify(_ element: XMLNode, _ kind: String) -> String {
        var id: String
        repeat {
            counters[kind, default: 0] += 1
            id = "lw-\(kind)\(counters[kind]!)"
        } while ids.contains(id)
        ids.insert(id)
        element.setAttribute("id", id)
        return id
    }

    // MARK: The paragraph's own element

    /// The element holding exactly the block's text (every text node below it wholly narrated in
    /// the block, as `origins` count them), nearest to the text, preferring one that is not
    /// phrasing content (`<p>` over the `<span>` filling it); nil if none.
    private func ownElement(_ origins: [TextOrigin?], first: XMLNodePointer, last: XMLNodePointer) -> XMLNode? {
        var covered: [XMLNodePointer: Int] = [:]
        for case let origin? in origins { covered[origin.node, default: 0] += 1 }
        var candidate = Self.commonAncestor(XMLNode(first, owner: tree), XMLNode(last, owner: tree))
        var inline: XMLNode?
        while let element = candidate, element.isXHTMLElement, element.name != "html", Self.isExact(element, covered) {
            if !Self.phrasing.contains(element.name) { return element }
            inline = inline ?? element
            candidate = element.parent
        }
        return inline
    }

    /// Whether every text node below `element` is wholly covered (its non-space text is all in
    /// the block).
    private static func isExact(_ element: XMLNode, _ covered: [XMLNodePointer: Int]) -> Bool {
        for child in element.children {
            if child.isText || child.isEntityReference {
                guard let text = child.text else { return false }  // an entity never read
                let narrated = text.reduce(0) { $0 + ($1.isWhitespace ? 0 : $1.utf16.count) }
                if narrated != covered[child.pointer] ?? 0 { return false }
            } else if child.isElement, !isExact(child, covered) {
                return false
            }
        }
        return true
    }

    // MARK: Wrapping a range

    /// The nearest element holding both nodes (the parent, for one node).
    private static func commonAncestor(_ a: XMLNode, _ b: XMLNode) -> XMLNode? {
        guard var p = a.parent, var q = a == b ? a.parent : b.parent else { return nil }
        var dp = p.depth, dq = q.depth
        while dp > dq, let up = p.parent { p = up; dp -= 1 }
        while dq > dp, let up = q.parent { q = up; dq -= 1 }
        while p != q {
            guard let up = p.parent, let other = q.parent else { return nil }
            p = up
            q = other
        }
        return p
    }

    /// Wraps the nodes from `first` to `last` (text nodes or entity references, `first` not
    /// after `last`) in a new `span`, inside their nearest common element, splitting the inline
    /// elements between them and it along the way. Returns the span, or nil — with the tree
    /// untouched — when XHTML allows no span there or an element cannot be split.
    private func wrapNodes(_ first: XMLNode, _ last: XMLNode) -> XMLNode? {
        guard let container = Self.commonAncestor(first, last), container.isXHTMLElement, !Self.closed.contains(container.name) else {
            return nil
        }
        // The nodes from each end up to the container's child.
        func path(_ node: XMLNode) -> [XMLNode] {
            var result = [node]
            while let parent = result.last!.parent, parent != container { result.append(parent) }
            return result
        }
        let start = path(first), end = path(last)
        // Check first: which elements must split, and whether they can.
        var splitting = false
        for k in start.indices.dropFirst() {
            splitting = splitting || start[k - 1].previousSibling != nil
            if splitting, !Self.canSplit(start[k]) { return nil }
        }
        splitting = false
        for k in end.indices.dropFirst() {
            splitting = splitting || end[k - 1].nextSibling != nil
            if splitting, !Self.canSplit(end[k]) { return nil }
        }
        var sibling: XMLNode? = start.last!
        while let node = sibling {
            guard Self.isPhrasing(node, top: true) else { return nil }
            if node == end.last! { break }
            sibling = node.nextSibling
        }
        guard sibling != nil else { return nil }

        var top = first
        for element in start.dropFirst() {
            top = top.previousSibling == nil ? element : Self.split(element, before: top)
        }
        var bottom = last
        for element in end.dropFirst() {
            if bottom.nextSibling != nil { Self.split(element, after: bottom) }
            bottom = element
        }
        let span = container.newElement("span")
        top.insert(before: span)
        var node: XMLNode? = top
        while let n = node {
            let following = n.nextSibling
            span.append(n)
            if n == bottom { break }
            node = following
        }
        return span
    }

    private static func canSplit(_ element: XMLNode) -> Bool {
        element.isXHTMLElement && splittable.contains(element.name) && element.attribute("ph", namespace: XMLNode.ssmlNamespace) == nil
    }

    /// Whether a node may go inside a new `span`: text, or a phrasing element holding only such
    /// nodes (MathML and SVG whole).
    private static func isPhrasing(_ node: XMLNode, top: Bool) -> Bool {
        guard node.isElement else { return true }
        if node.name == "svg" || node.name == "math" { return true }
        guard node.isXHTMLElement, phrasing.contains(node.name) || (!top && phrasingParts.contains(node.name)) else { return false }
        return node.children.allSatisfy { isPhrasing($0, top: false) }
    }

    /// Splits `element` before its child `child`: a copy of it, right after it, takes `child` and
    /// the children after it. Returns the copy.
    @discardableResult
    private static func split(_ element: XMLNode, before child: XMLNode) -> XMLNode {
        let copy = element.copyAfter()
        var node: XMLNode? = child
        while let n = node {
            let following = n.nextSibling
            copy.append(n)
            node = following
        }
        return copy
    }

    /// Splits `element` after its child `child`: a copy of it, right after it, takes the
    /// children after `child`.
    private static func split(_ element: XMLNode, after child: XMLNode) {
        guard let next = child.nextSibling else { return }
        split(element, before: next)
    }
}
