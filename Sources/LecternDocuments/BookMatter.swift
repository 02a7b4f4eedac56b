import Foundation
import LecternCore

/// Front and back matter by its semantics: the EPUB structural types (`epub:type`, the nav's
/// `landmarks`, EPUB 2's `<guide>`) and the DPUB-ARIA roles (`role="doc-…"`) that mark a title
/// page, copyright page, index and the like, which side of the book each belongs to, and what is
/// listed for it when ``ReadingRules/matter`` skips it.
///
/// Front: title page, half-title page, copyright page, table of contents (only as a landmark or
/// guide entry: a `toc` section is navigation already). Back: index, colophon. Acknowledgments
/// and an imprint belong to the side they stand on: front before the book's body, back after.
enum BookMatter: String, CaseIterable {
    case titlePage = "titlepage", halfTitlePage = "halftitlepage", copyrightPage = "copyright-page", contents = "toc",
         imprint = "imprint", acknowledgments = "acknowledgments", index = "index", colophon = "colophon"

    enum Side: String { case front, back }

    /// The kind a structural type names (`epub:type`, `doc-` role, landmark or guide type).
    init?(type: String) {
        switch type.lowercased() {
        case "title-page": self = .titlePage  // EPUB 2 guide
        case "acknowledgements": self = .acknowledgments  // EPUB 2 guide
        case "copyright": self = .copyrightPage
        case let other: self.init(rawValue: other)
        }
    }

    /// The kind an element's own semantics name; `toc` is left to navigation. A kind the
    /// element places on the other side of the book (`frontmatter colophon`, as Moby-Dick's
    /// transcriber's notes are marked) is not taken for matter: it is read.
    static func marked(_ semantics: [String]) -> BookMatter? {
        guard let kind = semantics.lazy.compactMap({ BookMatter(type: $0) }).first(where: { $0 != .contents }) else { return nil }
        let front = kind.side(afterBody: false) == .front, back = kind.side(afterBody: true) == .back
        if front, !back, semantics.contains("backmatter") { return nil }
        if back, !front, semantics.contains("frontmatter") { return nil }
        return kind
    }

    /// The side of the book it belongs to; `afterBody` places acknowledgments and an imprint.
    func side(afterBody: Bool) -> Side {
        switch self {
        case .titlePage, .halfTitlePage, .copyrightPage, .contents: return .front
        case .index, .colophon: return .back
        case .imprint, .acknowledgments: return afterBody ? .back : .front
        }
    }

    var label: String {
        switch self {
        case .titlePage: return "title page"
        case .halfTitlePage: return "half-title page"
        case .copyrightPage: return "copyright page"
        case .contents: return "table of contents"
        case .imprint: return "imprint"
        case .acknowledgments: return "acknowledgments"
        case .index: return "index"
        case .colophon: return "colophon"
        }
    }

    /// The reason listed with skipped text ("copyright page (matter: front)"), or nil when the
    /// rules read this side.
    func skipReason(_ rules: ReadingRules.Matter, afterBody: Bool) -> SkipReason? {
        let side = side(afterBody: afterBody)
        return (side == .front ? rules.front : rules.back) == .skip ? .matter(label, side: side.rawValue) : nil
    }

    /// The words a reader sees in `node`, listed when it is skipped: its text, then the marks that
    /// stand apart from it (note references, page numbers — an empty marker's `title` —, images'
    /// alt text), so that a mark never glues onto the word before it.
    static func listedText(_ node: XMLNode) -> String {
        var parts: [String] = [], labels: [String] = []
        func collect(_ n: XMLNode) {
            if let t = n.text { parts.append(t); return }
            guard n.isElement, !HTMLWalker.skippedElements.contains(n.name) else { return }
            let semantics = n.semantics
            if semantics.contains("noteref") || semantics.contains("pagebreak") {
                let t = n.textContent
                labels.append(t.isEmpty ? n["title"] ?? n["aria-label"] ?? "" : t)
                return
            }
            if n.name == "img" { labels.append(n["alt"] ?? "") }
            let separate = !XMLNode.inlineElements.contains(n.name)
            if separate { parts.append(" ") }
            for c in n.children { collect(c) }
            if separate { parts.append(" ") }
        }
        collect(node)
        return (parts + [" "] + labels.map { " \($0) " }).joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The title a title page shows: its first heading, else its first line of text.
    static func title(ofTitlePage node: XMLNode) -> String? {
        let heading = node.first { ["h1", "h2", "h3"].contains($0.name) }?.textContent
        let first = heading ?? node.first { ["p", "div", "span"].contains($0.name) && !$0.textContent.isEmpty
            && $0.first(where: { HTMLWalker.blockElements.contains($0.name) }) == nil }?.textContent
        return first.flatMap { $0.isEmpty ? nil : $0 }
    }
}
