import Foundation
import LecternCore
import LecternText

/// What an (X)HTML element's markup says about it, for the walk and the structure pass: page
/// numbers, figures, back-links, notes and their labels, a play's speakers and stage directions,
/// contents lists.
extension HTMLWalker {
    /// What only the markup tells, for the structure pass: a page number (`span.pagenum`,
    /// Project Gutenberg's), a figure's caption (`figure`, or a `fig…`-classed block holding an
    /// image, or a block classed `caption`: Project Gutenberg's `p.caption` under an image), unless
    /// `illustrations: read` — as a plain text's `[Illustration: …]` is.
    static func streamSkip(_ node: XMLNode, classes: [Substring], illustrations: ReadingRules.Illustrations) -> SkipReason? {
        if classes.contains(where: { $0.hasPrefix("pagenum") || $0 == "pageno" || $0 == "page-number" }) { return .pageNumber }
        if illustrations == .skip, node.name == "p" || node.name == "div" || node.name == "figcaption", classes.contains("caption") {
            return .illustration
        }
        guard illustrations == .skip, node.name == "figure" || classes.contains(where: { $0.hasPrefix("fig") }),
              node.first(where: { $0.name == "img" || $0.name == "svg" }) != nil else { return nil }
        return .illustration
    }

    static let headingElements: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// The words of a navigation link (`Back to Top`, `Contents`).
    static let navigation = LinePattern(#"\b(?:back|top|return|contents|index|home|up|next|previous)\b"#, caseInsensitive: true)

    /// A link back within the book, which a narrator does not read: an arrow (`↩`, a note's way
    /// back to its reference), or a short link alone in its block to a place already passed
    /// (`ToC` under each chapter heading).
    static func isBackLink(_ link: XMLNode, seen: Set<String>) -> Bool {
        guard let target = internalTarget(link) else { return false }
        let text = TextLines.collapse(link.textContent)
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ backArrows.contains($0) || $0.properties.isVariationSelector || $0 == " " }) {
            return true
        }
        guard seen.contains(target), TextLines.wordCount(text) <= 3, let parent = link.parent else { return false }
        // A heading that links back to the contents (`<h2><a href="#contents">Transcriber's Notes</a></h2>`)
        // is still the heading; only a navigation word there (`Back to Top`, `Contents`) is a back-link.
        if headingElements.contains(parent.name), !navigation.matches(text) { return false }
        return TextLines.collapse(parent.textContent) == text
    }

    /// What the markup says of a play's text: a speaker's name (`p.speaker`, Standard Ebooks'
    /// `z3998:persona`) or a stage direction (`span.stagedir`, `p.scenedesc`,
    /// `z3998:stage-direction`).
    static func playKind(classes: [Substring], semantics: [String]) -> BlockKind? {
        if semantics.contains("z3998:persona") { return .speaker }
        if semantics.contains("z3998:stage-direction") { return .stageDirection }
        if classes.contains(where: { $0 == "speaker" || $0 == "persona" }) { return .speaker }
        if classes.contains(where: { ["stagedir", "stage-direction", "stagedirection", "scenedesc", "stage"].contains($0) }) {
            return .stageDirection
        }
        return nil
    }

    /// The speaker's label a block's markup sets at its start, as its text reads ("Lane."): a
    /// bold or small-caps name of at most four capitalised words opening the block, ending in a
    /// period or colon (inside the element or just after it). Only a candidate: the play reading
    /// decides, from the whole book, whether the names are speakers.
    static func speakerLabel(opening block: XMLNode) -> String? {
        let children = block.children
        // The first child with text, looked for without reading any other child's text: a block
        // nested thousands deep costs no walk of its depth at every level.
        var found: Int?
        for (k, child) in children.enumerated() {
            if child.isText || child.isEntityReference {
                if (child.text ?? "").allSatisfy(\.isWhitespace) { continue }
                return nil
            }
            guard child.isElement else { continue }
            if isNameElement(child) {
                if TextLines.collapse(child.textContent).isEmpty { continue }
                found = k
                break
            }
            // An empty anchor or break before the name is passed over; any other element comes first.
            guard child.children.allSatisfy({ $0.isText && ($0.text ?? "").allSatisfy(\.isWhitespace) }) else { return nil }
        }
        guard let i = found else { return nil }
        let first = children[i]
        var label = TextLines.collapse(first.textContent)
        if label.last != ".", label.last != ":" {
            guard i + 1 < children.count, children[i + 1].isText, let after = children[i + 1].text?.first,
                  after == "." || after == ":" else { return nil }
            label.append(after)
        }
        let name = label.dropLast().trimmingCharacters(in: .whitespaces)
        let words = TextLines.words(name)
        guard !words.isEmpty, words.count <= 4, name.count <= 40, !name.contains(where: \.isNumber),
              name.first?.isUppercase == true,
              words.allSatisfy({ $0.first?.isUppercase == true || nameParticles.contains(String($0)) }) else { return nil }
        return label
    }

    /// An element that sets a name apart: bold, small capitals, or classed a speaker's.
    static func isNameElement(_ node: XMLNode) -> Bool {
        ["b", "strong"].contains(node.name)
            || classes(node).contains(where: { ["smcap", "smcaps", "smallcaps", "small-caps", "sc", "speaker", "persona"].contains($0) })
    }

    /// Small words inside a persona's name ("Duke of York", "Lady de Winter").
    static let nameParticles: Set<String> = ["of", "de", "la", "le", "du", "von", "van", "the", "and", "di", "da"]

    /// The length (UTF-16) of `label` at the start of a block's text, or nil when the text does not start with it.
    static func labelLength(_ label: String, in text: String) -> Int? {
        text.hasPrefix(label) ? label.utf16.count : nil
    }

    /// A link that is a note's marker though its markup does not say so: a short label (`1`,
    /// `[4a]`, `*`) linking to a note of the document (`div.footnote`, an `epub:type` note). A
    /// link of words to a note is running text.
    static func isNoteMarker(_ link: XMLNode, notes: [String: XMLNode]) -> Bool {
        guard let target = internalTarget(link), notes[target] != nil else { return false }
        let text = TextLines.collapse(link.textContent)
        return !text.isEmpty && text.count <= 6 && !text.contains(" ")
    }

    /// A note's id: its own, or (Project Gutenberg's `div.footnote`) that of the anchor inside it.
    static func noteID(_ note: XMLNode) -> String {
        note["id"] ?? note.first { $0.name == "a" && ($0["id"] ?? $0["name"]) != nil }.flatMap { $0["id"] ?? $0["name"] } ?? ""
    }

    /// A note's label as a listener hears it: the marker's text without its brackets ("[A]" → "A").
    static func label(_ text: String) -> String? {
        let t = TextLines.collapse(text).trimmingCharacters(in: CharacterSet(charactersIn: "[](){}^ "))
        return t.isEmpty || TextLines.wordCount(t) > 2 ? nil : t
    }

    /// A short link inside a note to a place already passed: the note's label, linking back to its
    /// marker (`<a href="#FNanchor_A_1">[A]</a>`).
    static func isLinkBack(_ link: XMLNode, seen: Set<String>) -> Bool {
        guard let target = internalTarget(link) else { return false }
        return seen.contains(target) && TextLines.wordCount(link.textContent) <= 3
    }

    /// The id a link points at within the book (`#id`, `file.xhtml#id`), or nil (none, or an
    /// address elsewhere: `http:`, `mailto:`).
    static func internalTarget(_ link: XMLNode) -> String? {
        guard let href = link["href"], let hash = href.firstIndex(of: "#"), !href.contains(":") else { return nil }
        return String(href[href.index(after: hash)...])
    }

    /// The element's classes, lowercased.
    static func classes(_ node: XMLNode) -> [Substring] {
        (node["class"] ?? "").lowercased().split(separator: " ")
    }

    static let backArrows: Set<Unicode.Scalar> = ["\u{21A9}", "\u{2191}", "\u{2934}", "^", "\u{21B5}", "\u{2B06}", "\u{21B0}"]

    /// A contents table's rows (cells apart by two spaces, so that a page number stays one) or a
    /// contents list's items (without the lists inside them).
    static func contentsEntries(_ node: XMLNode) -> [String] {
        var entries: [String] = []
        node.walkDescendants { child in
            switch child.name {
            case "tr":
                let cells = child.elements.filter { !TextLines.collapse($0.textContent).isEmpty }
                let isBlock = { (node: XMLNode) in ["p", "div"].contains(node.name) }
                let paragraphs = child.all { isBlock($0) && $0.first(where: isBlock) == nil && !TextLines.collapse($0.textContent).isEmpty }
                if isGridRow(paragraphs) {
                    entries += paragraphs.map { TextLines.collapse($0.textContent) }  // one cell, an entry a paragraph
                } else if isGridRow(cells) {
                    entries += cells.map { TextLines.collapse($0.textContent) }
                } else {
                    entries.append(cells.map { TextLines.collapse($0.textContent) }.joined(separator: "  "))
                }
                return false
            case "li":
                let own = child.children.filter { !["ul", "ol"].contains($0.name) }.map(\.textContent).joined()
                entries.append(TextLines.collapse(own))
                return true
            default:
                return true
            }
        }
        return entries.filter { !$0.isEmpty }
    }

    /// A contents table's row that lays several entries side by side (`CHAPTER I` | `CHAPTER II` | …),
    /// or one above the other in paragraphs of one cell: each links to a place of its own, and
    /// none is a page number.
    static func isGridRow(_ cells: [XMLNode]) -> Bool {
        guard cells.count >= 2 else { return false }
        var targets: Set<String> = []
        for cell in cells {
            let text = TextLines.collapse(cell.textContent)
            guard !text.allSatisfy({ $0.isNumber || "ivxlcdm. ".contains($0) }),
                  let link = cell.first(where: { $0.name == "a" && internalTarget($0) != nil }),
                  let target = internalTarget(link), targets.insert(target).inserted else { return false }
        }
        return true
    }

    /// A paragraph of links to places in the book, one a line (`<a href="#…">…</a><br>` five times
    /// or more): an index of first lines, or a contents list set without a table or a list.
    static func isListOfLinks(_ node: XMLNode) -> Bool {
        // Such a list's links stand in its paragraph, not in blocks nested inside it.
        guard !node.children.contains(where: { $0.isElement && blockElements.contains($0.name) }) else { return false }
        let links = node.all { $0.name == "a" && internalTarget($0) != nil }.count
        return links >= 5 && node.all { $0.name == "br" }.count >= links - 1 && isTableOfContents(node)
    }

    /// A table whose every row (three or more, each a short line) links to a heading of the book
    /// (`<tr><td><a href="#VANCOUVER">I.</a></td><td>Vancouver</td></tr>`, under `HISTORICAL NOTES.`
    /// after the contents): a contents list, whatever share of its words the links hold.
    static func isHeadingsTable(_ table: XMLNode, headings: Set<String>) -> Bool {
        guard !headings.isEmpty else { return false }
        let rows = table.all { $0.name == "tr" }.filter { !TextLines.collapse($0.textContent).isEmpty }
        guard rows.count >= 3 else { return false }
        return rows.allSatisfy { row in
            TextLines.wordCount(row.textContent) <= 15
                && row.first(where: { $0.name == "a" && internalTarget($0).map(headings.contains) == true }) != nil
        }
    }

    /// Whether a paragraph holds three or more links to places in the book (a contents list set in a
    /// paragraph, each entry a link and its title): its empty lines are the list's, not a poem's stanzas.
    static func holdsLinkList(_ node: XMLNode) -> Bool {
        node.all { $0.name == "a" && internalTarget($0) != nil }.count >= 3
    }

    /// A block of paragraphs each a link to a place in the book, with no heading among them
    /// (`<blockquote><p class="toc"><a href="#act1">ACT I.</a></p>…`): a contents list laid out
    /// in paragraphs, as a table's or a list's would be (``isTableOfContents(_:)``).
    static func isParagraphContents(_ node: XMLNode) -> Bool {
        // Paragraphs laid out side by side, nothing else (a quick test before the walk below).
        let blocks = node.children.filter(\.isElement)
        guard blocks.filter({ $0.name == "p" }).count >= 3, blocks.allSatisfy({ ["p", "div", "br"].contains($0.name) }) else { return false }
        guard node.first(where: { ["h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol"].contains($0.name) }) == nil else { return false }
        return paragraphEntries(node).count >= 3 && isTableOfContents(node)
    }

    /// The entries of a contents list laid out in paragraphs: the text of each paragraph with none inside it.
    static func paragraphEntries(_ node: XMLNode) -> [String] {
        let isBlock = { (node: XMLNode) in ["p", "div"].contains(node.name) }
        return node.all { isBlock($0) && $0.first(where: isBlock) == nil }.map { TextLines.collapse($0.textContent) }.filter { !$0.isEmpty }
    }

    /// A table or list whose text is all links to places in the book (a contents list). Its page
    /// numbers (`3.`, `17.`) and their column's header (`Page`, `Bladz.`) may stand outside the
    /// links: the words are counted by their letters, where the entries have any.
    static func isTableOfContents(_ node: XMLNode) -> Bool {
        let links = node.all { a in
            guard a.name == "a", let href = a["href"], !href.isEmpty else { return false }
            return !href.contains(":")  // within the book: "#id" or "file.xhtml#id", not http:, mailto:
        }
        guard links.count >= 2 else { return false }
        let alphanumerics = { (s: String) in s.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.count }
        let letters = { (s: String) in s.unicodeScalars.filter { CharacterSet.letters.contains($0) }.count }
        let linkedLetters = links.reduce(0) { $0 + letters($1.textContent) }
        let share = { (linked: Int, all: Int) in Double(linked) >= 0.9 * Double(all) }
        // Roman numerals outside the links (`I.`, `XIV.` in a column of their own) are numbers, as page numbers are.
        let numerals = TextLines.words(node.textContent).filter { word in
            let bare = word.trimmingCharacters(in: .punctuationCharacters)
            return !bare.isEmpty && bare.allSatisfy { "IVXLCDM".contains($0) }
        }.reduce(0) { $0 + letters(String($1)) }
        let linkedNumerals = links.reduce(0) { n, link in
            n + TextLines.words(link.textContent).filter { word in
                let bare = word.trimmingCharacters(in: .punctuationCharacters)
                return !bare.isEmpty && bare.allSatisfy { "IVXLCDM".contains($0) }
            }.reduce(0) { $0 + letters(String($1)) }
        }
        // A long list may name an entry or two it does not link (`Selected Bibliography [missing from e-book]`).
        let unlinked = letters(node.textContent) - max(0, numerals - linkedNumerals) - linkedLetters
        if linkedLetters >= links.count * 2, share(linkedLetters, linkedLetters + unlinked)
            || (links.count >= 8 && Double(linkedLetters) >= 0.8 * Double(linkedLetters + unlinked)) { return true }
        return share(links.reduce(0) { $0 + alphanumerics($1.textContent) }, alphanumerics(node.textContent))
    }
}
