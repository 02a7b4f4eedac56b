import Foundation

/// The computed values, for every element of one document, of the few properties narration
/// uses: font size (px, inherited; em/%/px/pt/rem/keywords), boldness (inherited), `display` and
/// `position: running(…)` (not inherited), `text-align` and `text-transform` (inherited). The
/// cascade: browser defaults (``CSSStyleSheet/userAgent``) below the book's sheets, then
/// `!important`, then specificity, then order; a `style` attribute beats any selector.
struct CSSStyles {
    /// One element's computed style.
    struct Style: Equatable {
        var fontSize = 16.0
        var bold = false
        var display: String?
        var running = false
        var textAlign: String?
        var textTransform: String?
    }

    private(set) var styles: [XMLNodePointer: Style] = [:]
    /// The body's font size, what "larger" is measured against.
    private(set) var bodySize = 16.0

    private struct Indexed {
        var rule: CSSStyleSheet.Rule
        var origin: Int
        var order: Int
    }

    private var byID: [String: [Int]] = [:], byClass: [String: [Int]] = [:], byElement: [String: [Int]] = [:]
    private var universal: [Int] = []
    private var rules: [Indexed] = []

    /// Computes the styles of `root`'s elements under the book's `sheets` (in document order).
    init(root: XMLNode, sheets: [CSSStyleSheet]) {
        for (origin, sheet) in ([CSSStyleSheet.userAgent] + sheets).enumerated() {
            for rule in sheet.rules {
                let i = rules.count
                rules.append(Indexed(rule: rule, origin: origin == 0 ? 0 : 1, order: i))
                let key = rule.selector.compounds[0]
                if let id = key.id { byID[id, default: []].append(i) }
                else if let c = key.classes.first { byClass[c, default: []].append(i) }
                else if let e = key.element { byElement[e, default: []].append(i) }
                else { universal.append(i) }
            }
        }
        // Document order, without recursion (any depth fits the stack); at most `maxElements`
        // elements get a computed style, the rest read as body text.
        var pending: [(node: XMLNode, parent: Style)] = [(root, Style())]
        var count = 0
        while let (node, parent) = pending.popLast(), count < Self.maxElements {
            guard node.isElement else { continue }
            count += 1
            let style = compute(node, parent: parent)
            pending.append(contentsOf: node.elements.reversed().map { ($0, style) })
        }
        if let body = root.name == "body" ? root : root.first(where: { $0.name == "body" }), let style = styles[body.pointer] {
            bodySize = style.fontSize
        }
    }

    func style(_ node: XMLNode) -> Style? { styles[node.pointer] }

    /// The element's font size relative to the body's (1 = body text).
    func relativeSize(_ node: XMLNode) -> Double { (styles[node.pointer]?.fontSize ?? bodySize) / bodySize }

    /// The most elements of one document whose style is computed (a bound on time).
    static let maxElements = 500_000

    /// Computes and records one element's style, given its parent's.
    private mutating func compute(_ node: XMLNode, parent: Style) -> Style {
        var style = Style(fontSize: parent.fontSize, bold: parent.bold, textAlign: parent.textAlign, textTransform: parent.textTransform)
        var candidates = universal
        if let id = node["id"] { candidates += byID[id] ?? [] }
        for c in node.classes { candidates += byClass[c] ?? [] }
        candidates += byElement[node.name] ?? []
        // Winning declaration per property: (important, origin, specificity, order).
        var winners: [String: (rank: (Int, Int, Int, Int), value: String)] = [:]
        func offer(_ d: CSSStyleSheet.Declaration, origin: Int, specificity: Int, order: Int) {
            let rank = (d.important ? 1 : 0, origin, specificity, order)
            for property in Self.longhands(d) {
                if let w = winners[property.0], w.rank > rank { continue }
                winners[property.0] = (rank, property.1)
            }
        }
        for i in Set(candidates) where rules[i].rule.selector.matches(node) {
            for d in rules[i].rule.declarations { offer(d, origin: rules[i].origin, specificity: rules[i].rule.selector.specificity, order: i) }
        }
        if let inline = node["style"] {
            for d in CSSStyleSheet.declarations(inline) { offer(d, origin: 1, specificity: 1_000_000, order: Int.max) }
        }
        if let v = winners["font-size"]?.value { style.fontSize = Self.fontSize(v, parent: parent.fontSize) }
        if let v = winners["font-weight"]?.value { style.bold = Self.bold(v, parent: parent.bold) }
        if let v = winners["display"]?.value { style.display = v.lowercased() }
        if let v = winners["position"]?.value { style.running = v.lowercased().hasPrefix("running(") }
        if let v = winners["text-align"]?.value, v.lowercased() != "inherit" { style.textAlign = v.lowercased() }
        if let v = winners["text-transform"]?.value, v.lowercased() != "inherit" { style.textTransform = v.lowercased() }
        styles[node.pointer] = style
        return style
    }

    /// A declaration as (property, value) pairs; the `font` shorthand gives its size and weight.
    private static func longhands(_ d: CSSStyleSheet.Declaration) -> [(String, String)] {
        guard d.property == "font" else { return [(d.property, d.value)] }
        var result: [(String, String)] = []
        for token in d.value.lowercased().split(whereSeparator: \.isWhitespace).prefix(8) {
            let t = String(token.split(separator: "/").first ?? token)
            if ["bold", "bolder", "600", "700", "800", "900"].contains(t) { result.append(("font-weight", t)) }
            else if t.first?.isNumber == true || t.first == "." || sizeKeywords[t] != nil { result.append(("font-size", t)) ; break }
        }
        return result
    }

    static let sizeKeywords: [String: Double] = [
        "xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32, "xxx-large": 48,
    ]

    /// A `font-size` value in px, given the parent's.
    static func fontSize(_ value: String, parent: Double) -> Double {
        let v = value.lowercased().trimmingCharacters(in: .whitespaces)
        if let k = sizeKeywords[v] { return k }
        if v == "larger" { return parent * 1.2 }
        if v == "smaller" { return parent / 1.2 }
        let number = v.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        guard let n = Double(number), n > 0 else { return parent }
        let size: Double
        switch v.dropFirst(number.count) {
        case "px": size = n
        case "pt": size = n * 4 / 3
        case "em", "ex": size = n * parent * (v.hasSuffix("ex") ? 0.5 : 1)
        case "%": size = n / 100 * parent
        case "rem": size = n * 16
        case "": size = n == 0 ? 0 : parent
        default: return parent
        }
        return min(max(size, 1), 2_000)
    }

    /// Whether a `font-weight` value is bold (600 and above), given the parent's.
    static func bold(_ value: String, parent: Bool) -> Bool {
        switch value.lowercased() {
        case "bold", "bolder": return true
        case "normal", "lighter": return false
        case "inherit": return parent
        default: return (Int(value) ?? 400) >= 600
        }
    }
}
