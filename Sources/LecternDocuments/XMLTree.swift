import Foundation
internal import CLibXML2

/// A document parsed by libxml2 — XML (XHTML, OPF, NCX) with its XML parser, tag soup with its
/// HTML parser — parsed so that a hostile file cannot reach outside itself or blow up:
/// no network, no DTD loading, external entities refused by a loader that loads nothing, and
/// entities never substituted (an entity reference stays a reference; `XMLNode` resolves only
/// HTML's predefined names), with libxml2's default size limits (no `XML_PARSE_HUGE`).
final class XMLTree {
    private let doc: xmlDocPtr

    /// Why a document could not be parsed, with libxml2's line and message.
    struct ParseError: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    private init(_ doc: xmlDocPtr) { self.doc = doc }
    deinit { xmlFreeDoc(doc) }

    /// The root element.
    var root: XMLNode? { xmlDocGetRootElement(doc).map(XMLNode.init) }

    /// Installs the refusing entity loader once per process.
    private static let refuseExternalEntities: Void = {
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    /// Parses well-formed XML; any error is fatal.
    static func xml(_ data: Data, name: String) throws -> XMLTree {
        _ = refuseExternalEntities
        guard let ctxt = xmlNewParserCtxt() else { throw ParseError(line: 0, message: "libxml2 could not start a parser") }
        defer { xmlFreeParserCtxt(ctxt) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let doc = data.withUnsafeBytes { raw -> xmlDocPtr? in
            guard let base = raw.baseAddress else { return nil }
            return xmlCtxtReadMemory(ctxt, base.assumingMemoryBound(to: CChar.self), Int32(raw.count), name, nil, options)
        }
        if ctxt.pointee.wellFormed == 0 || doc == nil {
            if let doc { xmlFreeDoc(doc) }
            throw lastError(ctxt) ?? ParseError(line: 0, message: "not well-formed XML")
        }
        return XMLTree(doc!)
    }

    /// Parses HTML as browsers do, recovering from any error; nil only for empty input.
    static func html(_ data: Data, name: String) -> XMLTree? {
        _ = refuseExternalEntities
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                            | HTML_PARSE_RECOVER.rawValue)
        let doc = data.withUnsafeBytes { raw -> htmlDocPtr? in
            guard let base = raw.baseAddress else { return nil }
            return htmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), name, nil, options)
        }
        return doc.map(XMLTree.init)
    }

    private static func lastError(_ ctxt: xmlParserCtxtPtr) -> ParseError? {
        guard let error = xmlCtxtGetLastError(ctxt) else { return nil }
        let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "parse error"
        return ParseError(line: Int(error.pointee.line), message: message)
    }
}

/// A node of an ``XMLTree`` (valid while the tree lives).
struct XMLNode {
    let pointer: xmlNodePtr

    init(_ pointer: xmlNodePtr) { self.pointer = pointer }

    static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"
    static let opsNamespace = "http://www.idpf.org/2007/ops"
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    static let ssmlNamespace = "http://www.w3.org/2001/10/synthesis"

    var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }
    var isText: Bool { pointer.pointee.type == XML_TEXT_NODE || pointer.pointee.type == XML_CDATA_SECTION_NODE }
    var isEntityReference: Bool { pointer.pointee.type == XML_ENTITY_REF_NODE }

    /// The element's local name, lowercased.
    var name: String { pointer.pointee.name.map { String(cString: $0).lowercased() } ?? "" }

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
            result.append(XMLNode(c))
            child = c.pointee.next
        }
        return result
    }

    var elements: [XMLNode] { children.filter(\.isElement) }

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
    subscript(_ name: String) -> String? {
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

    /// All text below the node, whitespace collapsed.
    var textContent: String {
        var parts: [String] = []
        func collect(_ node: XMLNode) {
            if let t = node.text { parts.append(t) }
            for c in node.children { collect(c) }
        }
        collect(self)
        return parts.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The first descendant element (depth first) satisfying `predicate`.
    func first(where predicate: (XMLNode) -> Bool) -> XMLNode? {
        for c in elements {
            if predicate(c) { return c }
            if let found = c.first(where: predicate) { return found }
        }
        return nil
    }

    /// Every descendant element satisfying `predicate`, in document order.
    func all(where predicate: (XMLNode) -> Bool) -> [XMLNode] {
        elements.flatMap { c in (predicate(c) ? [c] : []) + c.all(where: predicate) }
    }
}
