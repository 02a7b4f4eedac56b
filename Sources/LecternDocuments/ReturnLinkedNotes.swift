import Foundation

/// Notes as Project Gutenberg's older pages set them: the marker links to an empty anchor and has
/// an anchor of its own (`<a href="#linknote-1" name="linknoteref-1">1</a>`), and the note is the
/// paragraph that links back to the marker at its start (`<p class="foot">1 (<a
/// href="#linknoteref-1">return</a>)<br/> [ The motto … ]</p>`). The number and the link back
/// around it are the note's label, not read; the marker is silent (``HTMLWalker``).
struct ReturnLinkedNotes {
    /// The notes, by the id their markers point at.
    private(set) var notes: [String: XMLNode] = [:]
    /// Each note's id (the one its marker points at), by the note's node.
    private(set) var ids: [XMLNodePointer: String] = [:]
    /// The text before the link back (`1 (`) and the one after it (`)`): the label's, not read.
    private(set) var labelText: Set<XMLNodePointer> = []
    private(set) var closings: Set<XMLNodePointer> = []

    /// The most words a marker's or a link back's text has (`1`, `return`, `Back`).
    static let maxLinkWords = 2

    /// None: a walk that has not looked yet.
    init() {}

    init(in body: XMLNode) {
        let links = body.all { $0.name == "a" && $0["href"] != nil }
        var markers: [String: String] = [:]  // a marker's own id → the id it points at
        for link in links {
            guard let target = HTMLWalker.internalTarget(link), let own = link["id"] ?? link["name"],
                  HTMLWalker.label(link.textContent) != nil, TextLines.collapse(link.textContent).count <= 6 else { continue }
            markers[own] = target
        }
        guard !markers.isEmpty else { return }
        for link in links where link["id"] == nil && link["name"] == nil {
            guard let back = HTMLWalker.internalTarget(link), let target = markers[back], notes[target] == nil,
                  TextLines.wordCount(link.textContent) <= Self.maxLinkWords,
                  let block = link.parent, ["p", "li", "dd"].contains(block.name) else { continue }
            // The link back opens the note: only a short label's text (`1 (`) before it.
            let children = block.children
            guard let at = children.firstIndex(where: { $0.pointer == link.pointer }),
                  children[..<at].allSatisfy({ $0.isText }),
                  TextLines.wordCount(children[..<at].compactMap(\.text).joined(separator: " ")) <= Self.maxLinkWords else { continue }
            notes[target] = block
            ids[block.pointer] = target
            for child in children[..<at] { labelText.insert(child.pointer) }
            if at + 1 < children.count, children[at + 1].isText,
               (children[at + 1].text ?? "").drop(while: \.isWhitespace).first.map({ ")]".contains($0) }) == true {
                closings.insert(children[at + 1].pointer)
            }
        }
    }

    /// A closing text's words without the label's closing bracket (`) [ The motto` → ` [ The motto`).
    static func withoutClosing(_ text: String) -> String {
        var rest = text.drop(while: \.isWhitespace)
        if let first = rest.first, ")]".contains(first) { rest = rest.dropFirst() }
        return String(rest)
    }
}
