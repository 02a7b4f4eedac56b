import Foundation
import LecternCore
import LecternText

/// Finds the headings a book shows, not only those it tags, and where its chapters start.
///
/// Headings: `h1`–`h6` (their own level); `role="heading"` (its `aria-level`, else 2); a short
/// block typed `epub:type` `part`/`chapter`/`title` (1) or `subtitle` (2); and classed blocks
/// that look like headings — a few words (at most 12, mostly without a sentence-final period),
/// a larger (≥ 1.15 × body) or bold font, or a heading-like class name (`title`, `titre`,
/// `heading`, `chapter` …), followed by body text — when the same class is used so at least
/// twice and nearly always (80 %) for such short blocks. Those classes are ranked into levels by
/// font size, then boldness, then first appearance; in a book that also tags headings they rank
/// below its deepest tag level, so they never outrank the tags. Elements styled
/// `display: oeb-page-head`/`oeb-page-foot` or `position: running(…)` are page furniture.
///
/// Chapters: with the table of contents (EPUB default), an entry that covers more than one
/// heading of the book's top level is split at them; `level` starts one at every heading at or
/// above it; `selector` at every element it matches.
struct HeadingDetector {
    /// One content document, its styles, and where table-of-contents entries start in it.
    struct Document {
        var root: XMLNode
        var styles: CSSStyles
        var entryAtStart = false
        var entryAnchors: Set<String> = []
    }

    enum Mode {
        /// EPUB: the table of contents, split where an entry covers several top-level headings.
        case toc
        /// Every heading (tagged or shown) at or above the level starts a chapter.
        case level(Int)
        /// Every element matching one of the selectors starts a chapter.
        case selector([CSSSelector])
        /// HTML: shown headings at or above the level start chapters (tags are the walker's).
        case shownLevel(Int)
    }

    private struct Leaf {
        var node: XMLNode
        var text: String
        var words: Int
        var ratio: Double
        var bold: Bool
        var signature: String?
        var classHint: Bool
    }

    private enum Event { case entry, heading(XMLNodePointer, Int, tagged: Bool), leaf(Int) }

    private var events: [Event] = []
    private var leaves: [Leaf] = []
    private var result = ShownStructure()
    private var visited = 0

    static let maxWords = 12
    static let headingClass = try! NSRegularExpression(
        pattern: "(^|[-_ ])(title|titre|titulo|titel|heading|head|chapter|chap|chapitre|h[1-6])([-_ 0-9]|$)", options: [.caseInsensitive])

    /// The shown structure of `documents` (in reading order) for chapters by `mode`.
    static func find(in documents: [Document], mode: Mode) -> ShownStructure {
        var detector = HeadingDetector()
        for document in documents {
            if document.entryAtStart { detector.events.append(.entry) }
            if let body = document.root.name == "body" ? document.root : document.root.first(where: { $0.name == "body" }) {
                detector.visit(body, document, depth: 0)
            }
        }
        detector.rankClasses()
        detector.chapters(mode, documents)
        return detector.result
    }

    private mutating func visit(_ node: XMLNode, _ document: Document, depth: Int) {
        guard node.isElement, depth < 256, visited < 1_000_000 else { return }
        visited += 1
        let name = node.name
        if HTMLWalker.skippedElements.contains(name) { return }
        if Self.isAnchor(node, document) { events.append(.entry) }
        // An entry's anchor inside an element not visited further (`<h2><a id=…>`) starts there.
        if !document.entryAnchors.isEmpty, !Self.isContainer(node), node.first(where: { Self.isAnchor($0, document) }) != nil {
            events.append(.entry)
        }
        let style = document.styles.style(node)
        if let style, style.display == "oeb-page-head" || style.display == "oeb-page-foot" || style.running {
            let foot = style.display == "oeb-page-foot"
                || (style.running && ((node["class"] ?? "") + (node["id"] ?? "")).lowercased().contains("foot"))
            result.skips[node.pointer] = foot ? .runningFoot : .runningHead
            return
        }
        let semantics = node.semantics
        if ["nav", "table", "ul", "ol", "dl", "li", "blockquote", "figure", "aside", "svg", "math", "pre"].contains(name)
            || semantics.contains(where: { ["toc", "landmarks", "page-list", "pagebreak", "noteref"].contains($0) || HTMLWalker.noteTypes.contains($0) }) {
            return
        }
        if name.count == 2, name.first == "h", let level = Int(name.dropFirst()), (1...6).contains(level) {
            events.append(.heading(node.pointer, level, tagged: true))
            return
        }
        if semantics.contains("heading") {
            let level = Int(node["aria-level"] ?? "").map { min(max($0, 1), 6) } ?? 2
            result.headings[node.pointer] = level
            events.append(.heading(node.pointer, level, tagged: false))
            return
        }
        let children = node.elements
        let isLeaf = HTMLWalker.blockElements.contains(name)
            && children.allSatisfy { XMLNode.inlineElements.contains($0.name) || $0.name == "br" || $0.name == "img" }
        guard isLeaf else {
            for child in children { visit(child, document, depth: depth + 1) }
            return
        }
        let text = node.textContent
        let words = WordTokenizer.count(in: text)
        guard words > 0 else { return }
        if words <= Self.maxWords * 2, let typed = semantics.first(where: { ["part", "chapter", "title", "subtitle"].contains($0) }) {
            let level = typed == "subtitle" ? 2 : 1
            result.headings[node.pointer] = level
            events.append(.heading(node.pointer, level, tagged: false))
            return
        }
        var bold = style?.bold ?? false
        if !bold, children.count == 1, ["b", "strong"].contains(children[0].name), children[0].textContent == text { bold = true }
        let classes = node.classes.sorted()
        // One class drawn at two sizes (`.sect1 > .titre`, `.sect2 > .titre`) is two kinds of heading.
        let ratio = document.styles.relativeSize(node)
        let signature = classes.isEmpty ? nil : ([name] + classes).joined(separator: ".") + "@\((ratio * 20).rounded() / 20)\(bold ? "b" : "")"
        let joined = classes.joined(separator: " ")
        let hint = Self.headingClass.firstMatch(in: joined, range: NSRange(joined.startIndex..., in: joined)) != nil
        leaves.append(Leaf(node: node, text: text, words: words, ratio: ratio, bold: bold,
                           signature: signature, classHint: hint))
        events.append(.leaf(leaves.count - 1))
    }

    /// Whether `visit` goes on into the element's children (a block holding blocks).
    private static func isContainer(_ node: XMLNode) -> Bool {
        let name = node.name
        if ["nav", "table", "ul", "ol", "dl", "li", "blockquote", "figure", "aside", "svg", "math", "pre"].contains(name) { return false }
        if name.count == 2, name.first == "h", Int(name.dropFirst()) != nil { return false }
        return !(HTMLWalker.blockElements.contains(name)
            && node.elements.allSatisfy { XMLNode.inlineElements.contains($0.name) || $0.name == "br" || $0.name == "img" })
    }

    private static func isAnchor(_ node: XMLNode, _ document: Document) -> Bool {
        guard let id = node["id"] ?? node["name"] else { return false }
        return document.entryAnchors.contains(id)
    }

    private func looksLikeHeading(_ leaf: Leaf) -> Bool {
        leaf.words <= Self.maxWords && leaf.text.count <= 120 && (leaf.ratio >= 1.15 || leaf.bold || leaf.classHint)
    }

    /// Classes used for short, prominent blocks followed by body text become heading levels.
    private mutating func rankClasses() {
        var groups: [String: [Int]] = [:]
        var order: [String] = []
        for (i, leaf) in leaves.enumerated() {
            guard let s = leaf.signature else { continue }
            if groups[s] == nil { order.append(s) }
            groups[s, default: []].append(i)
        }
        var accepted: [(signature: String, ratio: Double, bold: Bool, first: Int, members: [Int])] = []
        for s in order {
            let all = groups[s]!
            let members = all.filter { looksLikeHeading(leaves[$0]) }
            guard members.count >= 2, Double(members.count) >= 0.8 * Double(all.count) else { continue }
            let periods = members.filter { leaves[$0].text.hasSuffix(".") && !leaves[$0].text.hasSuffix("..") }.count
            guard Double(periods) <= 0.5 * Double(members.count) else { continue }
            let followed = members.filter { i in
                for next in leaves[(i + 1)...].prefix(4) {
                    if next.signature == s { return false }
                    if next.words > Self.maxWords { return true }
                }
                return false
            }.count
            guard followed * 2 >= members.count else { continue }
            let ratio = members.map { leaves[$0].ratio }.max() ?? 1
            accepted.append((s, (ratio * 100).rounded() / 100, members.allSatisfy { leaves[$0].bold }, all[0], members))
        }
        accepted.sort { a, b in
            if a.ratio != b.ratio { return a.ratio > b.ratio }
            if a.bold != b.bold { return a.bold }
            return a.first < b.first
        }
        let deepestTag = events.compactMap { if case .heading(_, let level, tagged: true) = $0 { level } else { nil } }.max() ?? 0
        for (rank, group) in accepted.enumerated() {
            let level = min(deepestTag + rank + 1, 9)
            for i in group.members { result.headings[leaves[i].node.pointer] = level }
        }
        // The heading events in reading order, leaves promoted.
        events = events.compactMap { event in
            guard case .leaf(let i) = event else { return event }
            return result.headings[leaves[i].node.pointer].map { .heading(leaves[i].node.pointer, $0, tagged: false) }
        }
    }

    private mutating func chapters(_ mode: Mode, _ documents: [Document]) {
        let headings = events.compactMap { event -> (XMLNodePointer, Int, Bool)? in
            if case .heading(let p, let level, let tagged) = event { (p, level, tagged) } else { nil }
        }
        switch mode {
        case .level(let n):
            for (p, level, _) in headings where level <= n { result.chapterStarts.insert(p) }
        case .shownLevel(let n):
            for (p, level, tagged) in headings where !tagged && level <= n { result.chapterStarts.insert(p) }
        case .selector(let selectors):
            for document in documents {
                let body = document.root.first { $0.name == "body" } ?? document.root
                for node in body.all(where: { n in result.skips[n.pointer] == nil && selectors.contains { $0.matches(n) } }) {
                    result.chapterStarts.insert(node.pointer)
                    let tagged = node.name.count == 2 && node.name.first == "h" && Int(node.name.dropFirst()) != nil
                    if !tagged, result.headings[node.pointer] == nil { result.headings[node.pointer] = 1 }
                }
            }
        case .toc:
            guard let top = headings.map(\.1).min() else { return }
            var segment: [XMLNodePointer] = []
            func close() {
                if segment.count > 1 { result.chapterStarts.formUnion(segment) }
                segment = []
            }
            for event in events {
                switch event {
                case .entry: close()
                case .heading(let p, let level, _): if level == top { segment.append(p) }
                case .leaf: break
                }
            }
            close()
        }
    }
}
