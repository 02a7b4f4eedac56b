import Foundation
internal import CLibXML2

// Changing a parsed tree, and writing it back out. Nodes are linked and unlinked here by hand,
// never with xmlAddChild or xmlAddNextSibling: those merge a text node into a neighbouring text
// node and free it, and the marker holds on to text nodes it has split apart.

extension XMLNode: Hashable {
    package static func == (a: XMLNode, b: XMLNode) -> Bool { a.pointer == b.pointer }
    package func hash(into hasher: inout Hasher) { hasher.combine(pointer) }
}

extension XMLNode {
    /// The parent node (an element, or the document node for the root element).
    var parent: XMLNode? { pointer.pointee.parent.map { XMLNode($0, owner: owner) } }
    var previousSibling: XMLNode? { pointer.pointee.prev.map { XMLNode($0, owner: owner) } }
    var nextSibling: XMLNode? { pointer.pointee.next.map { XMLNode($0, owner: owner) } }

    /// How many ancestors the node has, the document node included.
    var depth: Int {
        var n = 0, node = pointer.pointee.parent
        while let parent = node { n += 1; node = parent.pointee.parent }
        return n
    }

    /// Whether the node is an element in the XHTML namespace, or in none (a document that
    /// forgot its `xmlns`).
    var isXHTMLElement: Bool {
        guard isElement else { return false }
        guard let ns = pointer.pointee.ns else { return true }
        return ns.pointee.href.map { String(cString: $0) } == Self.xhtmlNamespace
    }

    /// The ids of this element and its descendants: `id`, `xml:id`, and `name` (which XHTML 1.0
    /// anchors share with ids).
    var ids: Set<String> {
        var result: Set<String> = []
        func collect(_ node: XMLNode) {
            for value in [node["id"], node.attribute("id", namespace: Self.xmlNamespace), node["name"]] {
                if let value { result.insert(value) }
            }
            for child in node.elements { collect(child) }
        }
        if isElement { collect(self) }
        return result
    }

    /// Splits a text node or CDATA section at the given offsets in its text (UTF-16 units,
    /// ascending): this node keeps the text before the first offset, and a new node of the same
    /// kind, inserted after it, holds each further part. Offsets at either end of the text, or
    /// inside a character, are ignored. Returns the parts in order, this node first, each with the
    /// offset in the original text where it starts.
    ///
    /// The corresponding C functions are `xmlNewDocTextLen`, `xmlNewCDataBlock` and
    /// `xmlNodeSetContentLen`.
    func split(at offsets: [Int]) -> [(offset: Int, node: XMLNode)] {
        guard isText, !offsets.isEmpty, let content = pointer.pointee.content else { return [(0, self)] }
        let bytes = Array(UnsafeBufferPointer(start: content, count: strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))))
        // Where each offset is in bytes: a character starts at a byte that is not a continuation
        // byte, and one of four bytes is two UTF-16 units.
        var cuts: [(unit: Int, byte: Int)] = []
        var units = 0, next = 0
        for (i, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 {
            while next < offsets.count, offsets[next] <= units {
                if offsets[next] == units, i > 0, cuts.last?.byte != i { cuts.append((units, i)) }
                next += 1
            }
            units += byte >= 0xF0 ? 2 : 1
        }
        guard !cuts.isEmpty else { return [(0, self)] }
        let bounds = [0] + cuts.map(\.byte) + [bytes.count]
        let cdata = pointer.pointee.type == XML_CDATA_SECTION_NODE
        var parts: [(offset: Int, node: XMLNode)] = [(0, self)]
        bytes.withUnsafeBufferPointer { buffer in
            for k in 1..<bounds.count - 1 {
                let start = buffer.baseAddress! + bounds[k], length = Int32(bounds[k + 1] - bounds[k])
                let doc = pointer.pointee.doc
                guard let node = cdata ? xmlNewCDataBlock(doc, start, length) : xmlNewDocTextLen(doc, start, length) else { continue }
                let part = XMLNode(node, owner: owner)
                parts.last!.node.insert(after: part)
                parts.append((cuts[k - 1].unit, part))
            }
            xmlNodeSetContentLen(pointer, buffer.baseAddress!, Int32(bounds[1]))
        }
        return parts
    }

    /// Takes the node out of its parent (it stays in the document, unlinked).
    ///
    /// The corresponding C function is `xmlUnlinkNode`.
    package func unlink() { xmlUnlinkNode(pointer) }

    /// Moves `node` to right after this one, under the same parent.
    func insert(after node: XMLNode) {
        node.unlink()
        let n = node.pointer, me = pointer
        n.pointee.parent = me.pointee.parent
        n.pointee.prev = me
        n.pointee.next = me.pointee.next
        if let following = me.pointee.next { following.pointee.prev = n } else { me.pointee.parent?.pointee.last = n }
        me.pointee.next = n
    }

    /// Moves `node` to right before this one, under the same parent.
    func insert(before node: XMLNode) {
        node.unlink()
        let n = node.pointer, me = pointer
        n.pointee.parent = me.pointee.parent
        n.pointee.next = me
        n.pointee.prev = me.pointee.prev
        if let preceding = me.pointee.prev { preceding.pointee.next = n } else { me.pointee.parent?.pointee.children = n }
        me.pointee.prev = n
    }

    /// Moves `node` to the end of this element's children.
    func append(_ node: XMLNode) {
        node.unlink()
        let n = node.pointer, me = pointer
        n.pointee.parent = me
        n.pointee.next = nil
        n.pointee.prev = me.pointee.last
        if let last = me.pointee.last { last.pointee.next = n } else { me.pointee.children = n }
        me.pointee.last = n
    }

    /// A new, unlinked element of the document, in the XHTML namespace as it is declared where
    /// this node is (with its prefix, if it has one; in no namespace if it is not declared).
    ///
    /// The corresponding C functions are `xmlSearchNsByHref` and `xmlNewDocNode`.
    func newElement(_ name: String) -> XMLNode {
        let ns = Self.xhtmlNamespace.withXMLString { xmlSearchNsByHref(pointer.pointee.doc, pointer, $0) }
        let node = name.withXMLString { xmlNewDocNode(pointer.pointee.doc, ns, $0, nil) }!
        return XMLNode(node, owner: owner)
    }

    /// A shallow copy of this element — same name, namespace and attributes, no children —
    /// inserted right after it; `id`, `xml:id` and an anchor's `name` are not copied, since they
    /// must stay unique.
    ///
    /// The corresponding C functions are `xmlNewDocNode`, `xmlCopyNamespaceList`, `xmlSearchNs`,
    /// `xmlCopyPropList` (which returns the copies unattached) and `xmlRemoveProp`.
    func copyAfter() -> XMLNode {
        let node = xmlNewDocNode(pointer.pointee.doc, nil, pointer.pointee.name, nil)!
        let copy = XMLNode(node, owner: owner)
        // In place first, so that the namespaces in scope are found rather than redeclared.
        insert(after: copy)
        if let declared = pointer.pointee.nsDef { node.pointee.nsDef = xmlCopyNamespaceList(declared) }
        if let ns = pointer.pointee.ns { xmlSetNs(node, xmlSearchNs(node.pointee.doc, node, ns.pointee.prefix) ?? ns) }
        if let properties = pointer.pointee.properties { node.pointee.properties = xmlCopyPropList(node, properties) }
        var attr = node.pointee.properties
        while let a = attr {
            attr = a.pointee.next
            let name = a.pointee.name.map { String(cString: $0) } ?? ""
            let namespace = a.pointee.ns?.pointee.href.map { String(cString: $0) }
            if name == "id" && (namespace == nil || namespace == Self.xmlNamespace) || (name == "name" && namespace == nil && self.name == "a") {
                xmlRemoveProp(a)
            }
        }
        return copy
    }

    /// Sets an attribute in no namespace.
    ///
    /// The corresponding C function is `xmlSetProp`.
    package func setAttribute(_ name: String, _ value: String) {
        name.withXMLString { n in value.withXMLString { v in _ = xmlSetProp(pointer, n, v) } }
    }
}

extension XMLNode {
    // Editing a package document (the narrated EPUB's OPF and NCX).
    /// Replaces the element's content with text (escaped). The corresponding C function is `xmlNodeSetContent`.
    package func setText(_ text: String) {
        guard let escaped = xmlEncodeSpecialChars(pointer.pointee.doc, text) else { return }
        defer { lectern_xml_free(escaped) }
        xmlNodeSetContent(pointer, escaped)
    }

    /// Appends a child element in this element's namespace, with `text` (escaped) as its content
    /// and a `property` attribute if given. The corresponding C function is `xmlNewTextChild`.
    @discardableResult
    package func appendElement(_ name: String, text: String? = nil, property: String? = nil) -> XMLNode {
        let node = XMLNode(xmlNewTextChild(pointer, pointer.pointee.ns, name, text), owner: owner)
        if let property { node.setAttribute("property", property) }
        return node
    }

    /// Puts a new element after this one, in this element's namespace (`dc:`), with `text`
    /// (escaped) as its content. The corresponding C function is `xmlNewTextChild`.
    @discardableResult
    package func insertSibling(_ name: String, text: String) -> XMLNode {
        guard let parent = pointer.pointee.parent else { return self }
        let node = XMLNode(xmlNewTextChild(parent, pointer.pointee.ns, name, text), owner: owner)
        insert(after: node)
        return node
    }

    /// Removes an attribute in no namespace. The corresponding C function is `xmlUnsetProp`.
    package func removeAttribute(_ name: String) {
        _ = xmlUnsetProp(pointer, name)
    }
}

extension XMLTree {
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                                            "source", "track", "wbr", "basefont", "frame", "isindex", "keygen", "command"]

    /// The document as UTF-8 XML: its DOCTYPE, comments, namespaces and entity references as
    /// parsed, with `declaration` (e.g. `<?xml version="1.0" encoding="UTF-8"?>`, or nil for
    /// none) in front. An empty XHTML element that is not a void one is written with an end tag
    /// (`<a id="x"></a>`, never `<a id="x"/>`, which an HTML parser would leave open).
    ///
    /// The corresponding C functions are `xmlSaveToBuffer`, `xmlSaveDoc` and `xmlSaveClose`.
    package func xmlData(declaration: String?) throws -> Data {
        if let root { Self.openEmptyElements(root) }
        guard let buffer = xmlBufferCreate() else { throw ParseError(line: 0, message: "libxml2 could not allocate a buffer") }
        defer { xmlBufferFree(buffer) }
        let options = Int32(XML_SAVE_NO_DECL.rawValue | XML_SAVE_NO_XHTML.rawValue)
        guard let context = xmlSaveToBuffer(buffer, "UTF-8", options) else {
            throw ParseError(line: 0, message: "libxml2 could not start writing the document")
        }
        let written = xmlSaveDoc(context, doc)
        let closed = xmlSaveClose(context)
        guard written >= 0, closed >= 0, let content = xmlBufferContent(buffer) else {
            throw ParseError(line: 0, message: "libxml2 could not write the document")
        }
        var data = Data()
        if let declaration { data.append(Data((declaration + "\n").utf8)) }
        data.append(content, count: Int(xmlBufferLength(buffer)))
        return data
    }

    /// Gives every empty, non-void XHTML element an empty text child, so that it is written
    /// with an end tag.
    private static func openEmptyElements(_ node: XMLNode) {
        if node.isXHTMLElement, node.pointer.pointee.children == nil, !voidElements.contains(node.name) {
            if let empty = xmlNewDocTextLen(node.pointer.pointee.doc, nil, 0) { node.append(XMLNode(empty, owner: node.owner)) }
            return
        }
        for child in node.elements { openEmptyElements(child) }
    }
}

extension String {
    /// Calls `body` with the string as a NUL-terminated `xmlChar` string.
    func withXMLString<R>(_ body: (UnsafePointer<xmlChar>) -> R) -> R {
        withCString { $0.withMemoryRebound(to: xmlChar.self, capacity: utf8.count + 1, body) }
    }
}
