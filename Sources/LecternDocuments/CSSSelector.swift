import Foundation
internal import CLibXML2

/// One CSS selector of the subset Lectern reads: compound selectors (an element name or `*`,
/// `.class`, `#id`, `[attr]`, `[attr=value]` and `~= |= ^= $= *=`, `[epub|type~=…]`) joined by
/// descendant (space) and child (`>`) combinators. Anything else (pseudo-classes, `+`, `~`,
/// escapes) makes the selector unsupported: ``parse(_:)`` returns nil and its rule is ignored.
/// Work is bounded: a selector has at most ``maxLength`` characters and ``maxCompounds`` parts
/// (far beyond any stylesheet: a 300-step descendant chain is read), and a match gives up after
/// ``matchBudget`` steps, so no hostile selector or tree can make it explode.
struct CSSSelector: Sendable, Equatable {
    struct Attribute: Sendable, Equatable {
        var name: String
        var op: String?
        var value: String
    }

    struct Compound: Sendable, Equatable {
        var element: String?
        var id: String?
        var classes: [String] = []
        var attributes: [Attribute] = []
    }

    enum Combinator: Sendable, Equatable { case descendant, child }

    /// Rightmost first.
    var compounds: [Compound]
    /// `combinators[i]` joins `compounds[i]` to `compounds[i + 1]` (its left).
    var combinators: [Combinator]
    /// ids × 10 000 + (classes and attributes) × 100 + elements.
    var specificity: Int

    static let maxCompounds = 1_000
    static let maxLength = 20_000
    static let matchBudget = 4_096

    /// What Lectern reads, for the error of a selector it does not.
    static let subset = "elements, .class, #id, [attr=value], descendant and child combinators"

    /// `text` as a message may quote it: at most 120 characters, then an ellipsis and its length.
    static func quoted(_ text: some StringProtocol) -> String {
        text.count <= 120 ? "\"\(text)\"" : "\"\(text.prefix(120))…\" (\(text.count) characters)"
    }

    /// The error message for `chapters.selector` when no selector of the group can be read.
    static func unreadable(_ text: some StringProtocol) -> String {
        "\(quoted(text)) is not a selector Lectern reads (\(subset)"
            + (text.unicodeScalars.count > maxLength ? "; at most \(maxLength) characters)" : ")")
    }

    /// The selectors of a group (`a, b`), the unsupported ones left out.
    static func parseList(_ text: some StringProtocol) -> [CSSSelector] {
        text.split(separator: ",", omittingEmptySubsequences: false).prefix(256).compactMap { parse($0) }
    }

    static func parse(_ text: some StringProtocol) -> CSSSelector? {
        let s = Array(text.unicodeScalars)
        guard s.count <= maxLength else { return nil }
        var compounds: [Compound] = []
        var combinators: [Combinator] = []
        var current = Compound()
        var inCompound = false
        var pending: Combinator?
        var i = 0
        func isIdent(_ c: Unicode.Scalar) -> Bool {
            CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_" || c.value > 127
        }
        func ident() -> String {
            var out = ""
            while i < s.count, isIdent(s[i]) { out.unicodeScalars.append(s[i]); i += 1 }
            return out
        }
        while i < s.count {
            let c = s[i]
            if CharacterSet.whitespacesAndNewlines.contains(c) {
                if inCompound { compounds.append(current); current = Compound(); inCompound = false; pending = .descendant }
                i += 1
                continue
            }
            if c == ">" {
                if inCompound { compounds.append(current); current = Compound(); inCompound = false }
                guard !compounds.isEmpty else { return nil }
                pending = .child
                i += 1
                continue
            }
            if !inCompound {
                if !compounds.isEmpty {
                    guard let p = pending else { return nil }
                    combinators.append(p)
                }
                pending = nil
                inCompound = true
                guard compounds.count < maxCompounds else { return nil }
            }
            switch c {
            case ".":
                i += 1
                let name = ident()
                guard !name.isEmpty else { return nil }
                current.classes.append(name)
            case "#":
                i += 1
                let name = ident()
                guard !name.isEmpty else { return nil }
                current.id = name
            case "*":
                i += 1
                if i < s.count, s[i] == "|" { i += 1 }  // *|name
            case "[":
                i += 1
                var inner = ""
                var quote: Unicode.Scalar?
                while i < s.count {
                    let d = s[i]
                    if let q = quote { if d == q { quote = nil } } else if d == "\"" || d == "'" { quote = d } else if d == "]" { break }
                    inner.unicodeScalars.append(d)
                    i += 1
                }
                guard i < s.count, let attribute = Self.attribute(inner) else { return nil }
                current.attributes.append(attribute)
                i += 1
            default:
                guard isIdent(c), current == Compound() else { return nil }
                var name = ident().lowercased()
                if i < s.count, s[i] == "|" { i += 1; name = ident().lowercased() }  // ns|name
                guard !name.isEmpty else { return nil }
                current.element = name
            }
        }
        if inCompound { compounds.append(current) }
        guard !compounds.isEmpty, pending != .child else { return nil }
        let ids = compounds.filter { $0.id != nil }.count
        let classes = compounds.reduce(0) { $0 + $1.classes.count + $1.attributes.count }
        let elements = compounds.filter { $0.element != nil }.count
        return CSSSelector(compounds: compounds.reversed(), combinators: combinators.reversed(),
                           specificity: ids * 10_000 + classes * 100 + elements)
    }

    /// `name`, `name=value`, `ns|name~="value"` …
    private static func attribute(_ inner: String) -> Attribute? {
        let ops = ["~=", "|=", "^=", "$=", "*=", "="]
        var name = inner.trimmingCharacters(in: .whitespaces)
        var op: String?
        var value = ""
        for candidate in ops {
            if let r = inner.range(of: candidate) {
                name = String(inner[..<r.lowerBound]).trimmingCharacters(in: .whitespaces)
                value = String(inner[r.upperBound...]).trimmingCharacters(in: .whitespaces)
                op = candidate
                break
            }
        }
        if value.hasSuffix(" i") || value.hasSuffix(" s") { value = String(value.dropLast(2)).trimmingCharacters(in: .whitespaces) }
        if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f { value = String(value.dropFirst().dropLast()) }
        if let bar = name.lastIndex(of: "|") { name = String(name[name.index(after: bar)...]) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" }) else { return nil }
        return Attribute(name: name.lowercased(), op: op, value: value)
    }

    /// Whether the element matches.
    func matches(_ node: XMLNode) -> Bool {
        var budget = Self.matchBudget
        return match(0, node, &budget)
    }

    private func match(_ k: Int, _ node: XMLNode, _ budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0, Self.matches(compounds[k], node) else { return false }
        if k == compounds.count - 1 { return true }
        switch combinators[k] {
        case .child:
            guard let parent = node.parentElement else { return false }
            return match(k + 1, parent, &budget)
        case .descendant:
            var ancestor = node.parentElement
            while let a = ancestor, budget >= 0 {
                if match(k + 1, a, &budget) { return true }
                ancestor = a.parentElement
            }
            return false
        }
    }

    static func parentElement(_ node: xmlNodePtr) -> xmlNodePtr? {
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return parent
    }

    private static func matches(_ compound: Compound, _ node: XMLNode) -> Bool {
        guard node.isElement else { return false }
        if let element = compound.element, node.name != element { return false }
        if let id = compound.id, node["id"] != id { return false }
        if !compound.classes.isEmpty {
            let classes = node.classes
            for c in compound.classes where !classes.contains(c) { return false }
        }
        for a in compound.attributes {
            let value: String?
            if a.name == "type" || a.name == "epub:type" {
                value = node.attribute("type", namespace: XMLNode.opsNamespace) ?? node["type"]
            } else {
                value = node[a.name] ?? node.attribute(a.name, namespace: "")
            }
            guard let v = value else { return false }
            switch a.op {
            case nil: continue
            case "=": if v != a.value { return false }
            case "~=": if !v.split(whereSeparator: \.isWhitespace).contains(where: { $0 == a.value }) { return false }
            case "|=": if v != a.value && !v.hasPrefix(a.value + "-") { return false }
            case "^=": if a.value.isEmpty || !v.hasPrefix(a.value) { return false }
            case "$=": if a.value.isEmpty || !v.hasSuffix(a.value) { return false }
            case "*=": if a.value.isEmpty || !v.contains(a.value) { return false }
            default: return false
            }
        }
        return true
    }
}

extension XMLNode {
    /// The words of the `class` attribute.
    var classes: [String] { (self["class"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init) }

    /// The parent element, if any.
    var parentElement: XMLNode? { CSSSelector.parentElement(pointer).map { XMLNode($0, owner: owner) } }
}
