import Foundation
import LecternCore

/// What ``HTMLWalker`` leaves out of a document besides its own rules, each element with the
/// reason it is listed under: running heads and feet (`role="doc-pageheader"`/`doc-pagefooter`,
/// or found by ``RunningFurniture``), and front and back matter (``BookMatter``) marked on the
/// element or pointed at by the EPUB's landmarks, unless ``ReadingRules/matter`` reads it.
struct OmittedParts {
    /// Elements of the current document left out, by node, with their reasons.
    var nodes: [XMLNodePointer: SkipReason] = [:]
    var matter = ReadingRules.Matter()
    /// Whether the current document comes after the book's body (places acknowledgments and an
    /// imprint); nil: after the body once any text has been kept.
    var afterBody: Bool?
    /// The text of the first title page met, read or not (the book's title when its metadata
    /// has none).
    private(set) var titlePageTitle: String?

    static let runningHeads: Set<String> = ["pageheader", "page-header", "running-head", "runninghead"]
    static let runningFeet: Set<String> = ["pagefooter", "page-footer", "running-foot", "runningfoot"]

    /// The reason `node` is left out, or nil when it is read; `keptText` says whether the book
    /// has kept any text yet.
    mutating func reason(for node: XMLNode, keptText: @autoclosure () -> Bool) -> SkipReason? {
        if let reason = nodes[node.pointer] { return reason }
        let semantics = node.semantics
        guard !semantics.isEmpty else { return nil }
        if semantics.contains(where: Self.runningHeads.contains) { return .runningHead }
        if semantics.contains(where: Self.runningFeet.contains) { return .runningFoot }
        guard let kind = BookMatter.marked(semantics) else { return nil }
        if kind == .titlePage, titlePageTitle == nil { titlePageTitle = BookMatter.title(ofTitlePage: node) }
        return kind.skipReason(matter, afterBody: afterBody ?? keptText())
    }

    /// Notes the title a whole title-page document shows.
    mutating func noteTitlePage(_ node: XMLNode) {
        if titlePageTitle == nil { titlePageTitle = BookMatter.title(ofTitlePage: node) }
    }

    /// Leaves out the element of `root` with the id `id` under `reason`; a heading (or an empty
    /// anchor, or a heading holding one) stands for its section: it and the siblings after it,
    /// up to the next heading of the same or a higher rank. Returns whether the id was found.
    @discardableResult
    mutating func omitSection(id: String, in root: XMLNode, reason: SkipReason) -> Bool {
        func rank(_ node: XMLNode) -> Int? {
            guard node.name.count == 2, node.name.hasPrefix("h"), let level = Int(node.name.dropFirst()), (1...6).contains(level) else { return nil }
            return level
        }
        func hasID(_ node: XMLNode) -> Bool { (node["id"] ?? node.attribute("id", namespace: XMLNode.xmlNamespace) ?? node["name"]) == id }
        func search(_ parent: XMLNode) -> Bool {
            let children = parent.elements
            for (i, child) in children.enumerated() {
                // The target itself, or a heading whose first element is the target anchor.
                let anchorInHeading = rank(child) != nil && child.elements.first.map { hasID($0) && $0.textContent.isEmpty } == true
                if hasID(child) || anchorInHeading {
                    nodes[child.pointer] = reason
                    if let level = rank(child) ?? (child.textContent.isEmpty ? 6 : nil) {
                        for sibling in children[(i + 1)...] {
                            if let r = rank(sibling), r <= level { break }
                            nodes[sibling.pointer] = reason
                        }
                    }
                    return true
                }
                if search(child) { return true }
            }
            return false
        }
        return search(root)
    }
}
