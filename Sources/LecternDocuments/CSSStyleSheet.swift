import Foundation

/// A stylesheet read only as far as narration needs: style rules (their selectors, see
/// ``CSSSelector``, and declarations, `!important` noted); comments dropped; at-rules —
/// `@media`, `@font-face`, `@page`, `@import` … — skipped whole. Parsing is a single pass with
/// brace counting (no recursion) over at most ``maxInput`` characters, keeping at most
/// ``maxRules`` rules, so hostile input cannot hang or explode it.
struct CSSStyleSheet: Sendable {
    struct Declaration: Sendable, Equatable {
        var property: String
        var value: String
        var important: Bool
    }

    struct Rule: Sendable {
        var selector: CSSSelector
        var declarations: [Declaration]
    }

    var rules: [Rule] = []

    static let maxInput = 1_000_000
    static let maxRules = 20_000

    init(parsing text: String) {
        let s = Self.withoutComments(Array(text.unicodeScalars.prefix(Self.maxInput)))
        var i = 0
        let n = s.count
        /// The index just past the block opened at `open` (a `{`), quotes respected.
        func endOfBlock(_ open: Int) -> Int {
            var depth = 0
            var quote: Unicode.Scalar?
            var j = open
            while j < n {
                let c = s[j]
                if let q = quote {
                    if c == "\\" { j += 1 } else if c == q { quote = nil }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == "{" {
                    depth += 1
                } else if c == "}" {
                    depth -= 1
                    if depth == 0 { return j + 1 }
                }
                j += 1
            }
            return n
        }
        while i < n, rules.count < Self.maxRules {
            let c = s[i]
            if CharacterSet.whitespacesAndNewlines.contains(c) || c == "}" || c == ";" { i += 1; continue }
            var j = i
            while j < n, s[j] != "{", s[j] != ";" || c != "@", s[j] != "}" { j += 1 }
            guard j < n else { break }
            if s[j] != "{" {  // `@import …;`, or a stray `}`
                i = j + 1
                continue
            }
            let end = endOfBlock(j)
            if c != "@" {
                let prelude = String(String.UnicodeScalarView(s[i..<j]))
                let body = String(String.UnicodeScalarView(s[(j + 1)..<max(j + 1, end - 1)]))
                let declarations = Self.declarations(body)
                for selector in CSSSelector.parseList(prelude) where rules.count < Self.maxRules {
                    rules.append(Rule(selector: selector, declarations: declarations))
                }
            }
            i = end
        }
    }

    /// The text with `/* … */` comments replaced by a space (an unclosed one runs to the end).
    private static func withoutComments(_ s: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if s[i] == "/", i + 1 < s.count, s[i + 1] == "*" {
                i += 2
                while i < s.count, !(s[i] == "*" && i + 1 < s.count && s[i + 1] == "/") { i += 1 }
                i += 2
                out.append(" ")
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// `property: value [!important]` pairs of a rule's body (or a `style` attribute), in order.
    static func declarations(_ body: String) -> [Declaration] {
        var result: [Declaration] = []
        var parts: [String] = []
        var current = ""
        var quote: Character?
        var parens = 0
        for ch in body {
            if let q = quote {
                if ch == q { quote = nil }
            } else if ch == "\"" || ch == "'" {
                quote = ch
            } else if ch == "(" {
                parens += 1
            } else if ch == ")" {
                parens = max(0, parens - 1)
            } else if ch == ";", parens == 0 {
                parts.append(current)
                current = ""
                continue
            }
            current.append(ch)
        }
        parts.append(current)
        for part in parts.prefix(1_000) {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let property = part[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            var value = part[part.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            var important = false
            if let bang = value.range(of: "!important", options: [.caseInsensitive, .backwards]) {
                important = true
                value = value[..<bang.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            guard !property.isEmpty, !value.isEmpty else { continue }
            result.append(Declaration(property: property, value: value, important: important))
        }
        return result
    }

    /// What browsers apply before any author style, for the properties Lectern uses.
    static let userAgent = CSSStyleSheet(parsing: """
        h1 { font-size: 2em; font-weight: bold } h2 { font-size: 1.5em; font-weight: bold }
        h3 { font-size: 1.17em; font-weight: bold } h4 { font-weight: bold }
        h5 { font-size: 0.83em; font-weight: bold } h6 { font-size: 0.67em; font-weight: bold }
        b, strong, th { font-weight: bold } small { font-size: smaller } big { font-size: larger }
        """)
}

extension CSSStyleSheet {
    /// The stylesheets a document uses, in document order: `<link rel="stylesheet" href>` (its
    /// sheet from `load`, nil when it cannot be found; alternate sheets left out) and `<style>`.
    static func sheets(of root: XMLNode, load: (String) -> CSSStyleSheet?) -> [CSSStyleSheet] {
        root.all { $0.name == "link" || $0.name == "style" }.prefix(64).compactMap { node in
            if node.name == "style" { return CSSStyleSheet(parsing: rawText(node)) }
            let relations = (node["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace)
            guard relations.contains("stylesheet"), !relations.contains("alternate"), let href = node["href"], !href.isEmpty,
                  let sheet = load(href) else { return nil }
            return sheet
        }
    }

    /// A `<style>` element's text as written (its text and CDATA children).
    private static func rawText(_ node: XMLNode) -> String {
        node.children.compactMap { $0.isText ? $0.text : nil }.joined()
    }
}
