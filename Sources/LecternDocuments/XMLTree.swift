import Foundation
internal import CLibXML2

/// A document parsed by libxml2 — XML (XHTML, OPF, NCX) with its XML parser, tag soup with its
/// HTML parser — parsed so that a hostile file cannot reach outside itself or blow up:
/// no network, no DTD loading, external entities refused by a loader that loads nothing, and
/// entities never substituted (an entity reference stays a reference; `XMLNode` resolves only
/// HTML's predefined names); a document that declares an entity stops the parser at the
/// declaration and is refused. Parsed with `XML_PARSE_HUGE`: libxml2's size limits (a text node,
/// CDATA section, comment or attribute of 10,000,000 characters, a name of 50,000) would stop
/// the HTML parser silently mid-file and make an XHTML file an error, while Lectern's own
/// limits (the EPUB archive's entry size, the file) already bound the input; the one limit
/// HUGE lifts that the walks need, nesting, is checked here: elements may be nested
/// ``maxDepth`` deep. A document deeper than that, or one that libxml2 stops reading for any
/// other reason, is an error naming the line, never a book with its end missing.
package final class XMLTree {
    let doc: xmlDocPtr

    /// Why a document could not be parsed, with libxml2's line and message.
    package struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        package var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    private init(_ doc: xmlDocPtr) { self.doc = doc }
    deinit { xmlFreeDoc(doc) }

    /// Whether a node belongs to this document.
    func owns(_ node: XMLNodePointer) -> Bool { node.pointee.doc == doc }

    /// The root element.
    package var root: XMLNode? { xmlDocGetRootElement(doc).map { XMLNode($0, owner: self) } }

    /// How deep elements may be nested: far beyond any book, and shallow enough that the walks
    /// that recurse per level (``HTMLWalker``, the EPUB marker) fit a ``DeepStack`` thread.
    static let maxDepth = 12_000

    /// Installs the refusing entity loader and the nesting limit once per process.
    private static let refuseExternalEntities: Void = {
        xmlSetExternalEntityLoader { _, _, _ in nil }
        lectern_xml_set_max_depth(UInt32(maxDepth))
    }()

    /// The error for a document nested deeper than ``maxDepth``.
    static func tooDeep(line: Int) -> ParseError {
        ParseError(line: line, message: "elements are nested more than \(maxDepth) deep; Lectern reads at most \(maxDepth) levels "
                   + "(no book needs more: look for tags that are opened and never closed)")
    }

    /// Parses well-formed XML; any error is fatal.
    package static func xml(_ data: Data, name: String) throws -> XMLTree {
        _ = refuseExternalEntities
        lectern_xml_silence()  // per thread: libxml2 prints nothing of its own on stderr
        guard let ctxt = xmlNewParserCtxt() else { throw ParseError(line: 0, message: "libxml2 could not start a parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        lectern_xml_refuse_entities(ctxt)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_HUGE.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let doc = data.withUnsafeBytes { raw -> xmlDocPtr? in
            guard let base = raw.baseAddress else { return nil }
            return xmlCtxtReadMemory(ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), name, nil, options)
        }
        // An entity declaration stops the parser (lectern_xml_refuse_entities): refused first.
        if let doc, let declared = Self.entityDeclarations(doc).first {
            let count = Self.entityDeclarations(doc).count
            xmlFreeDoc(doc)
            let what = declared.system.map { "an external entity \"\(declared.name)\" → \($0)" } ?? "an entity \"\(declared.name)\""
            throw ParseError(line: 0, message: "its DTD declares \(count == 1 ? what : "\(count) entities, among them \(what)"); "
                             + "books must not, and Lectern neither loads nor expands entities (XXE, billion laughs)")
        }
        if ctxt.pointee.wellFormed == 0 || doc == nil || ctxt.pointee.disableSAX != 0 {
            if let doc { xmlFreeDoc(doc) }
            throw lastError(ctxt) ?? ParseError(line: 0, message: "not well-formed XML")
        }
        let tree = XMLTree(doc!)
        try tree.requireDepthWithinLimit()
        return tree
    }

    /// The entities the document's internal DTD subset declares (name, and system id if external).
    var entityDeclarations: [(name: String, system: String?)] { Self.entityDeclarations(doc) }

    private static func entityDeclarations(_ doc: xmlDocPtr) -> [(name: String, system: String?)] {
        guard let dtd = doc.pointee.intSubset else { return [] }
        var result: [(String, String?)] = []
        var node = dtd.pointee.children
        while let n = node {
            if n.pointee.type == XML_ENTITY_DECL {
                let entity = UnsafeMutableRawPointer(n).assumingMemoryBound(to: xmlEntity.self)
                let name = entity.pointee.name.map { String(cString: $0) } ?? "?"
                result.append((name, entity.pointee.SystemID.map { String(cString: $0) }))
            }
            node = n.pointee.next
        }
        return result
    }

    /// Parses HTML as browsers do, recovering from any markup error; nil only for empty input.
    /// - throws: ``ParseError`` when libxml2 stopped reading before the end (bytes the declared
    ///   encoding cannot convert, memory, any other stop) or elements nest deeper than
    ///   ``maxDepth``: what follows would be lost.
    static func html(_ data: Data, name: String) throws -> XMLTree? {
        _ = refuseExternalEntities
        lectern_xml_silence()
        // XML_PARSE_HUGE (HTML_PARSE_HUGE in later libxml2): without it a text node of more
        // than 10,000,000 characters (a bundled script, a long `<pre>`) ends the document there.
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                            | HTML_PARSE_RECOVER.rawValue | XML_PARSE_HUGE.rawValue | XML_PARSE_BIG_LINES.rawValue)
        // libxml2 keeps the last error per thread, also when it reports none (NOERROR).
        xmlResetLastError()
        let parsed = data.withUnsafeBytes { raw -> (xmlParserCtxtPtr, htmlDocPtr?)? in
            guard let base = raw.baseAddress, raw.count > 0,
                  let ctxt = lectern_html_parser(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), options) else { return nil }
            return (ctxt, lectern_html_parse(ctxt))
        }
        guard let (ctxt, doc) = parsed else { return nil }
        defer { htmlFreeParserCtxt(ctxt) }
        // A byte the declared encoding cannot convert stops the parser (the I/O and encoding layers).
        if let error = xmlGetLastError(),
           error.pointee.domain == Int32(XML_FROM_IO.rawValue) || error.pointee.domain == Int32(XML_FROM_I18N.rawValue) {
            if let doc { xmlFreeDoc(doc) }
            let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "encoding error"
            throw ParseError(line: Int(error.pointee.line), message: "its bytes do not fit the encoding it declares (libxml2: \(message)); "
                             + "what follows could not be read: convert the file, or correct its charset")
        }
        // In recovery mode the HTML parser stops early only on a fatal condition (a limit,
        // memory); it then disables its callbacks, and what follows is lost.
        if ctxt.pointee.disableSAX != 0 {
            if let doc { xmlFreeDoc(doc) }
            let stop = lastError(ctxt) ?? ParseError(line: Int(ctxt.pointee.input?.pointee.line ?? 0), message: "parse error")
            throw stop.message.hasPrefix("elements are nested") ? stop
                : ParseError(line: stop.line, message: "libxml2 stopped reading before the end of the file: \(stop.message)")
        }
        guard let doc else { return nil }
        let tree = XMLTree(doc)
        try tree.requireDepthWithinLimit()
        return tree
    }

    /// Throws ``tooDeep(line:)`` for the first element nested deeper than ``maxDepth``
    /// (`XML_PARSE_HUGE` lifts libxml2's own limit); a walk without recursion.
    private func requireDepthWithinLimit() throws {
        guard var node = xmlDocGetRootElement(doc) else { return }
        var depth = 1
        while true {
            if depth > Self.maxDepth { throw Self.tooDeep(line: Int(xmlGetLineNo(node))) }
            if let child = Self.firstElement(from: node.pointee.children) {
                node = child
                depth += 1
                continue
            }
            while true {
                if let next = Self.firstElement(from: node.pointee.next) {
                    node = next
                    break
                }
                guard depth > 1, let parent = node.pointee.parent else { return }
                node = parent
                depth -= 1
            }
        }
    }

    /// The first element among `node` and its following siblings.
    private static func firstElement(from node: xmlNodePtr?) -> xmlNodePtr? {
        var current = node
        while let c = current, c.pointee.type != XML_ELEMENT_NODE { current = c.pointee.next }
        return current
    }

    private static func lastError(_ ctxt: xmlParserCtxtPtr) -> ParseError? {
        guard let error = xmlCtxtGetLastError(ctxt) else { return nil }
        let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "parse error"
        if message.hasPrefix("Excessive depth in document") { return tooDeep(line: Int(error.pointee.line)) }
        return ParseError(line: Int(error.pointee.line), message: message)
    }
}

/// libxml2's node pointer, named for files that do not import libxml2.
typealias XMLNodePointer = xmlNodePtr

/// A node of an ``XMLTree``; it keeps its tree alive.
package struct XMLNode {
    let pointer: xmlNodePtr
    let owner: XMLTree

    init(_ pointer: xmlNodePtr, owner: XMLTree) {
        self.pointer = pointer
        self.owner = owner
    }

    static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"
    static let opsNamespace = "http://www.idpf.org/2007/ops"
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let ssmlNamespace = "http://www.w3.org/2001/10/synthesis"

    var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
    var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }
    var isEntityReference: Bool { pointer.pointee.type == XML_ENTITY_REF_NODE }

    /// The element's local name, lowercased.
    package var name: String { pointer.pointee.name.map { String(cString: $0).lowercased() } ?? "" }

    /// A text node's text; for an entity reference, the character of an HTML predefined entity
    /// (`&nbsp;`, `&mdash;` …) or nil (a custom entity is never expanded).
    var text: String? {
        if isText { return pointer.pointee.content.map { String(cString: $0) } ?? "" }
        if isEntityReference, let n = pointer.pointee.name {
            if let entity = htmlEntityLookup(n), let scalar = Unicode.Scalar(entity.pointee.value) { return String(Character(scalar)) }
        }
        return nil
    }

    /// The entity's name, for a reference that is not expanded.
    var entityName: String { pointer.pointee.name.map { String(cString: $0) } ?? "" }

    var children: [XMLNode] {
        var result: [XMLNode] = []
        var child = pointer.pointee.children
        while let c = child {
            result.append(XMLNode(c, owner: owner))
            child = c.pointee.next
        }
        return result
    }

    package var elements: [XMLNode] { children.filter(\.isElement) }

    /// An attribute by local name, in `namespace` (XML) or written with any prefix (HTML parser,
    /// which keeps `epub:type` as one name).
    func attribute(_ local: String, namespace: String? = nil) -> String? {
        var attr = pointer.pointee.properties
        while let a = attr {
            let attrName = a.pointee.name.map { String(cString: $0) } ?? ""
            let attrNamespace = a.pointee.ns?.pointee.href.map { String(cString: $0) }
            let matches = attrName == local && (namespace == nil || attrNamespace == namespace || (attrNamespace == nil && namespace == nil))
                || (namespace != nil && attrName.hasSuffix(":" + local))
            if matches {
                guard let value = xmlNodeGetContent(UnsafeMutableRawPointer(a).assumingMemoryBound(to: xmlNode.self)) else { return "" }
                defer { lectern_xml_free(value) }
                return String(cString: value)
            }
            attr = a.pointee.next
        }
        return nil
    }

    /// The element's own (not namespaced) attribute.
    package subscript(_ name: String) -> String? {
        var attr = pointer.pointee.properties
        while let a = attr {
            if a.pointee.ns == nil, a.pointee.name.map({ String(cString: $0) }) == name {
                guard let value = xmlNodeGetContent(UnsafeMutableRawPointer(a).assumingMemoryBound(to: xmlNode.self)) else { return "" }
                defer { lectern_xml_free(value) }
                return String(cString: value)
            }
            attr = a.pointee.next
        }
        return nil
    }

    /// `lang` or `xml:lang`.
    var language: String? { attribute("lang", namespace: Self.xmlNamespace) ?? self["lang"] }

    /// Words of `epub:type` (or `role`, for DPUB-ARIA roles), e.g. ["footnote"].
    var semantics: [String] {
        let types = (attribute("type", namespace: Self.opsNamespace) ?? "").split(separator: " ").map(String.init)
        let roles = (self["role"] ?? "").split(separator: " ").map { String($0.hasPrefix("doc-") ? $0.dropFirst(4) : $0[...]) }
        return types + roles
    }

    /// All text below the node, whitespace collapsed; block elements are kept apart by a space.
    package var textContent: String {
        if !isElement { return (text ?? "").split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        var parts: [String] = []
        walkDescendants(enter: { node in
            if let t = node.text { parts.append(t) }
            if node.isElement && !Self.inlineElements.contains(node.name) { parts.append(" ") }
            return true
        }, leave: { node in
            if node.isElement && !Self.inlineElements.contains(node.name) { parts.append(" ") }
        })
        return parts.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Visits the element's descendants in document order without recursion (so any depth fits
    /// the stack): `enter` before a node's children (returning whether to visit them; only an
    /// element's are), `leave` after them.
    func walkDescendants(enter: (XMLNode) -> Bool, leave: (XMLNode) -> Void = { _ in }) {
        guard isElement, var current = pointer.pointee.children else { return }
        while true {
            if enter(XMLNode(current, owner: owner)), current.pointee.type == XML_ELEMENT_NODE, let child = current.pointee.children {
                current = child
                continue
            }
            var done = current
            while true {
                leave(XMLNode(done, owner: owner))
                if let next = done.pointee.next {
                    current = next
                    break
                }
                guard let parent = done.pointee.parent, parent != pointer else { return }
                done = parent
            }
        }
    }

    static let inlineElements: Set<String> = ["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "i", "kbd", "mark",
                                              "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"]

    /// The first descendant element (depth first) satisfying `predicate`.
    package func first(where predicate: (XMLNode) -> Bool) -> XMLNode? {
        var found: XMLNode?
        walkDescendants { node in
            guard found == nil else { return false }
            if node.isElement, predicate(node) { found = node }
            return found == nil
        }
        return found
    }

    /// Every descendant element satisfying `predicate`, in document order.
    package func all(where predicate: (XMLNode) -> Bool) -> [XMLNode] {
        var result: [XMLNode] = []
        walkDescendants { node in
            if node.isElement, predicate(node) { result.append(node) }
            return true
        }
        return result
    }
}
