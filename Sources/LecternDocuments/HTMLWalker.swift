import Foundation
import LecternCore
import LecternText

/// Walks an (X)HTML body the way a careful narrator reads it, feeding a ``BookBuilder``:
/// headings, paragraphs, list items, block quotes, tables (``TableReader``), `<br>` as a
/// space, `lang`/`xml:lang` on any element kept as language spans, `ssml:ph` and the document's
/// PLS lexicons kept as pronunciations (or, where espeak-ng cannot express them, reported).
///
/// Not read aloud, and listed as skipped with the reason: navigation, page-number markers
/// (`epub:type="pagebreak"`, `role="doc-pagebreak"`), running heads and feet and front and back
/// matter (``OmittedParts``), footnote references, images (their alt
/// text), code, and entities that are not HTML's own. Scripts, styles and the head carry no
/// document text and are passed over. Footnote bodies are read after the paragraph that refers
/// to them, at the end of the chapter, or skipped (``ReadingRules/footnotes``); a footnote no
/// paragraph refers to is read at the end of its chapter, never dropped.
struct HTMLWalker {
    var builder: BookBuilder
    let rules: ReadingRules
    /// Headings at or above this level start chapters whose title is spoken; nil: headings are
    /// blocks, and ``chapterStarts`` decide.
    let chapterLevel: Int?
    /// Element ids (EPUB navigation targets) where a chapter with the given title starts.
    var chapterStarts: [String: String] { didSet { consumedStarts = [] } }
    /// The ids of ``chapterStarts`` the walk has met.
    private(set) var consumedStarts: Set<String> = []
    /// The document being walked, for reports (e.g. "book.epub: OEBPS/ch1.xhtml").
    var documentName = ""
    /// Whether `ssml:ph` and ``lexicons`` are honoured (``ReadingRules/pronunciation``).
    var readsPronunciation = true
    /// The PLS lexicons the current document links to, first first.
    var lexicons: [Lexicon] = []
    /// The `ssml:alphabet` in effect (inherited from the element's ancestors).
    var alphabet = "ipa"
    /// Numbers each `ssml:ph` of the walk, so that ending one never ends another in a text run
    /// swapped in meanwhile (a heading's, a footnote's).
    private var pronunciationCount = 0
    /// When not nil, every block the builder keeps is recorded here with where each UTF-16 unit
    /// of its text came from (``EPUBTextMarker`` marks the document with it); nil, the default,
    /// records nothing.
    var trace: [TracedBlock]?
    /// Headings, chapter starts and page furniture the document shows through its CSS, classes
    /// and roles (``HeadingDetector``); empty by default.
    var shown = ShownStructure()
    /// Running heads and feet, front and back matter: left out, listed with their reasons.
    var omitted = OmittedParts()

    /// When not nil, the walk records the document as a ``BlockStream`` here, for the structure
    /// pass to decide chapters and what is left out, instead of feeding ``builder``.
    var stream: BlockStream?

    var block = TextRun()
    private var footnotes: [String: XMLNode] = [:]
    private var read: Set<String> = []
    private var chapterNotes: [XMLNode] = []
    private var blockNotes: [String] = []
    /// The id of the note whose blocks the walk is reading into the stream, if any.
    private var noteInProgress: String?
    /// Each note's label as its marker shows it ("3", "A"), by the note's id.
    private var noteLabels: [String: String] = [:]
    /// How many tables the walk is inside (their cells head nothing).
    private var tableDepth = 0
    /// The ids of the elements met so far, for links that point back.
    private var seenIDs: Set<String> = []

    init(builder: BookBuilder, rules: ReadingRules, chapterLevel: Int?, chapterStarts: [String: String] = [:]) {
        self.builder = builder
        self.rules = rules
        self.chapterLevel = chapterLevel
        self.chapterStarts = chapterStarts
        omitted.matter = rules.matter
    }

    static let skippedElements: Set<String> = ["script", "style", "head", "template", "noscript", "iframe", "object", "embed", "link", "meta"]
    static let blockElements: Set<String> = [
        "p", "div", "section", "article", "main", "header", "footer", "aside", "body", "html", "ul", "ol", "dl", "dt", "dd",
        "figure", "figcaption", "hr", "address", "center", "details", "summary", "hgroup", "fieldset", "form", "caption",
    ]
    static let contentsReason = "table of contents (links within the book)"
    static let noteTypes: Set<String> = ["footnote", "endnote", "rearnote", "note"]

    /// Gets ready to walk a document: its name for reports, its `ssml:alphabet`, and the PLS
    /// lexicons its head links to (`<link rel="pronunciation" href="…">`), which `load` reads
    /// from an `href` (nil: the link points at nothing, which is reported).
    mutating func prepare(document root: XMLNode, name: String, load: (String) throws -> Lexicon?) throws {
        documentName = name
        readsPronunciation = rules.pronunciation
        alphabet = root.attribute("alphabet", namespace: XMLNode.ssmlNamespace) ?? "ipa"
        lexicons = []
        guard readsPronunciation, let head = root.first(where: { $0.name == "head" }) else { return }
        for link in head.elements where link.name == "link" {
            let relations = (link["rel"] ?? "").lowercased().split(separator: " ")
            guard relations.contains("pronunciation"), let href = link["href"], !href.isEmpty else { continue }
            if let lexicon = try load(href) {
                lexicons.append(lexicon)
                for note in lexicon.notes { builder.note(note) }
            } else {
                builder.note(PronunciationNote(source: name, text: href, reason: "the linked pronunciation lexicon does not exist"))
            }
        }
    }

    /// Reads `body` (a document's body or root); `language` is the document's language.
    mutating func walk(_ body: XMLNode, language: String?) {
        for note in body.all(where: { $0.semantics.contains(where: Self.noteTypes.contains) }) {
            if let id = note["id"] ?? note.attribute("id", namespace: XMLNode.xmlNamespace) { footnotes[id] = note }
        }
        visit(body, kind: .paragraph, language: body.language ?? language)
        endChapter()
    }

    /// Ends the walk's last chapter: its pending footnotes are read.
    mutating func endChapter() {
        flush()
        let notes = chapterNotes
        chapterNotes = []
        for note in notes { readNote(note) }
    }

    mutating func visit(_ node: XMLNode, kind: BlockKind, language: String?) {
        if node.isText || node.isEntityReference {
            if let text = node.text {
                block.append(text, language: language, origin: trace == nil ? nil : node.pointer)
            } else {
                skip("&\(node.entityName);", reason: "entity &\(node.entityName); is not an HTML entity and is not expanded")
            }
            return
        }
        guard node.isElement else { return }
        let name = node.name
        let language = node.language ?? language
        if let id = node["id"] ?? node["name"], let title = chapterStarts[id], !consumedStarts.contains(id) {
            consumedStarts.insert(id)
            endChapter()
            startSilentChapter(title)
        }
        if Self.skippedElements.contains(name) { return }
        if let id = node["id"] ?? node["name"] { seenIDs.insert(id) }
        if name == "a", noteInProgress != nil, Self.isLinkBack(node, seen: seenIDs) {
            skip(node.textContent, reason: Footnotes.labelReason)  // `[A]` linking back to its marker
            return
        }
        if name == "a", Self.isBackLink(node, seen: seenIDs) {
            skip(node.textContent, reason: "back-link")
            return
        }
        if let reason = omitted.reason(for: node, keptText: stream?.hasText ?? builder.book.chapters.contains { !$0.blocks.isEmpty }) {
            if !XMLNode.inlineElements.contains(name) { flush() }
            skip(BookMatter.listedText(node), reason: reason)
            return
        }
        if readShown(node, language: language) { return }
        let semantics = node.semantics
        if stream != nil, let reason = Self.streamSkip(node, illustrations: rules.illustrations) {
            if !XMLNode.inlineElements.contains(name) { flush() }
            skip(node.textContent, reason: reason)
            return
        }
        if semantics.contains("pagebreak") {
            skip(node["title"] ?? node["aria-label"] ?? node.textContent, reason: "page number")
            return
        }
        let classes = stream == nil ? [] : (node["class"] ?? "").lowercased().split(separator: " ").map(String.init)
        if semantics.contains("noteref") || (name == "a" && classes.contains("fnanchor")) {
            skip(node.textContent, reason: "footnote reference")
            if let href = node["href"], let hash = href.firstIndex(of: "#") {
                let id = String(href[href.index(after: hash)...])
                blockNotes.append(id)
                noteLabels[id] = noteLabels[id] ?? Self.label(node.textContent)
            }
            return
        }
        if semantics.contains(where: Self.noteTypes.contains) || classes.contains("footnote") {
            let id = Self.noteID(node)
            if read.contains(id) { return }
            if rules.footnotes == .skip {
                skip(node.textContent, reason: "footnote (footnotes: skip)")
            } else if stream != nil {
                readNote(node)  // the structure pass places it
            } else {
                chapterNotes.append(node)
            }
            return
        }
        let savedAlphabet = alphabet
        alphabet = node.attribute("alphabet", namespace: XMLNode.ssmlNamespace) ?? alphabet
        defer { alphabet = savedAlphabet }
        var pronunciation: Int?
        if readsPronunciation, let ph = node.attribute("ph", namespace: XMLNode.ssmlNamespace) {
            switch spoken(ph: ph) {
            case .success(let spoken):
                pronunciationCount += 1
                pronunciation = block.beginPronunciation(spoken, id: pronunciationCount)
            case .failure(let problem):
                builder.note(PronunciationNote(source: "\(documentName) ssml:ph", text: node.textContent, reason: problem.reason))
            }
        }
        defer { if let pronunciation { block.endPronunciation(pronunciation) } }
        if let play = Self.playKind(node, semantics: semantics) {
            // A speaker's name or a stage direction, a block of its own even inside a speech.
            flush(as: kind, language: language)
            children(of: node, kind: play, language: language)
            flush(as: play, language: language)
            return
        }
        if name == "nav" || semantics.contains("toc") || semantics.contains("landmarks") || semantics.contains("page-list") {
            skip(node.textContent, reason: "navigation")
            return
        }
        if ["table", "ul", "ol"].contains(name), Self.isTableOfContents(node) {
            flush()
            skip(node.textContent, reason: Self.contentsReason)
            return
        }
        switch name {
        case "br":
            block.appendLineBreak(language: language)
        case "hr":
            flush()
            stream?.sectionBreak()
        case "img":
            flush()
            skip(node["alt"] ?? "", reason: "image")
        case "svg", "math":
            flush()
            skip(node.textContent, reason: name == "svg" ? "drawing (SVG)" : "mathematics (MathML)")
        case "pre":
            flush()
            if node.first(where: { $0.name == "code" }) != nil {
                skip(node.textContent, reason: "code block")
            } else {
                block.preformatted = true
                children(of: node, kind: kind, language: language)
                flush(as: kind)
            }
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush()
            let level = Int(name.dropFirst())!
            if let chapterLevel, level <= chapterLevel {
                var heading = TextRun()
                swap(&heading, &block)
                children(of: node, kind: .heading, language: language)
                swap(&heading, &block)
                endChapter()
                builder.startChapter(title: heading.normalised().text)
            } else {
                children(of: node, kind: .heading, language: language)
                flush(as: .heading, language: language, level: level)
            }
        case "li":
            flush()
            children(of: node, kind: .listItem, language: language)
            flush(as: .listItem, language: language)
        case "blockquote":
            flush()
            children(of: node, kind: .quote, language: language)
            flush(as: .quote, language: language)
        case "table":
            flush()
            tableDepth += 1
            defer { tableDepth -= 1 }
            if rules.tables == .skip {
                skip(node.textContent, reason: "table (tables: skip)")
            } else if let table = TableReader(node) {
                read(table, language: language)  // a data table: a sentence per row (HTMLWalker+Tables)
            } else {
                children(of: node, kind: kind, language: language)
                flush(as: kind, language: language)
            }
        case "tr":
            flush()
            for (i, cell) in node.elements.enumerated() {
                if i > 0, !block.isBlank { block.append("; ", language: language) }
                visit(cell, kind: kind, language: language)
            }
            flush(as: kind, language: language)
        default:
            if Self.blockElements.contains(name) || name == "td" || name == "th" {
                flush()
                children(of: node, kind: kind, language: language)
                flush(as: kind, language: language)
            } else {
                children(of: node, kind: kind, language: language)  // inline: a, span, em, i, b, sup …
            }
        }
    }

    /// Applies ``shown`` to an element: furniture is skipped with its reason; a chapter start
    /// opens a chapter titled by the element's text; a shown heading is read as a heading block.
    /// Returns whether the element was dealt with.
    private mutating func readShown(_ node: XMLNode, language: String?) -> Bool {
        if let reason = shown.skips[node.pointer] {
            flush()
            skip(node.textContent, reason: reason)
            return true
        }
        if shown.chapterStarts.contains(node.pointer), !node.textContent.isEmpty {
            endChapter()
            startSilentChapter(node.textContent)
        }
        guard let level = shown.headings[node.pointer] else { return false }
        flush()
        children(of: node, kind: .heading, language: language)
        flush(as: .heading, language: language, level: level)
        return true
    }

    /// Starts a chapter titled from outside the text, in the stream when there is one.
    mutating func startSilentChapter(_ title: String) {
        if stream != nil { stream?.chapter(title: title) } else { builder.startSilentChapter(title: title) }
    }

    /// Lists text the walk leaves out, in the stream when there is one.
    mutating func skip(_ text: String, reason: String) {
        if stream != nil { stream?.skip(text, reason: reason) } else { builder.skip(text, reason: reason) }
    }

    /// What only the markup tells, for the structure pass: a page number (`span.pagenum`,
    /// Project Gutenberg's), a figure's caption (`figure`, or a `fig…`-classed block holding an
    /// image), unless `illustrations: read`.
    static func streamSkip(_ node: XMLNode, illustrations: ReadingRules.Illustrations) -> String? {
        let classes = (node["class"] ?? "").lowercased().split(separator: " ")
        if classes.contains(where: { $0.hasPrefix("pagenum") || $0 == "pageno" || $0 == "page-number" }) { return "page number" }
        guard illustrations == .skip, node.name == "figure" || classes.contains(where: { $0.hasPrefix("fig") }),
              node.first(where: { $0.name == "img" || $0.name == "svg" }) != nil else { return nil }
        return "illustration"
    }

    /// A link back within the book, which a narrator does not read: an arrow (`↩`, a note's way
    /// back to its reference), or a short link alone in its block to a place already passed
    /// (`ToC` under each chapter heading).
    static func isBackLink(_ link: XMLNode, seen: Set<String>) -> Bool {
        guard let href = link["href"], let hash = href.firstIndex(of: "#"), !href.contains(":") else { return false }
        let text = TextLines.collapse(link.textContent)
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ backArrows.contains($0) || $0.properties.isVariationSelector || $0 == " " }) {
            return true
        }
        let target = String(href[href.index(after: hash)...])
        guard seen.contains(target), TextLines.wordCount(text) <= 3, let parent = link.parent else { return false }
        return TextLines.collapse(parent.textContent) == text
    }

    /// What the markup says of a play's text: a speaker's name (`p.speaker`, Standard Ebooks'
    /// `z3998:persona`) or a stage direction (`span.stagedir`, `p.scenedesc`,
    /// `z3998:stage-direction`).
    static func playKind(_ node: XMLNode, semantics: [String]) -> BlockKind? {
        if semantics.contains("z3998:persona") { return .speaker }
        if semantics.contains("z3998:stage-direction") { return .stageDirection }
        guard let value = node["class"] else { return nil }
        let classes = value.lowercased().split(separator: " ")
        if classes.contains(where: { $0 == "speaker" || $0 == "persona" }) { return .speaker }
        if classes.contains(where: { ["stagedir", "stage-direction", "stagedirection", "scenedesc", "stage"].contains($0) }) {
            return .stageDirection
        }
        return nil
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
        guard let href = link["href"], let hash = href.firstIndex(of: "#"), !href.contains(":") else { return false }
        return seen.contains(String(href[href.index(after: hash)...])) && TextLines.wordCount(link.textContent) <= 3
    }

    static let backArrows: Set<Unicode.Scalar> = ["\u{21A9}", "\u{2191}", "\u{2934}", "^", "\u{21B5}", "\u{2B06}", "\u{21B0}"]

    /// A table or list whose text is all links to places in the book (a contents list).
    static func isTableOfContents(_ node: XMLNode) -> Bool {
        let links = node.all { a in
            guard a.name == "a", let href = a["href"], !href.isEmpty else { return false }
            return !href.contains(":")  // within the book: "#id" or "file.xhtml#id", not http:, mailto:
        }
        guard links.count >= 2 else { return false }
        let count = { (s: String) in s.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.count }
        let linked = links.reduce(0) { $0 + count($1.textContent) }
        return Double(linked) >= 0.9 * Double(count(node.textContent))
    }

    /// What espeak-ng reads for an `ssml:ph` in the current alphabet: IPA converted to its
    /// phonemes, or its own phonemes (`x-espeak`).
    private func spoken(ph: String) -> Result<String, PronunciationProblem> {
        switch alphabet.lowercased() {
        case "ipa": return Pronunciation.spoken(fromIPA: ph)
        case "x-espeak", "x-espeak-ng": return Lexicon.spoken(from: "[[\(ph)]]")
        default: return .failure(PronunciationProblem("alphabet \"\(alphabet)\" is not supported (ipa or x-espeak)"))
        }
    }

    private mutating func children(of node: XMLNode, kind: BlockKind, language: String?) {
        for child in node.children { visit(child, kind: kind, language: language) }
    }

    /// Ends the current block (if it has text) as a block of `kind`, with the words of `frames`
    /// spoken around its stretches, then reads the footnotes it referred to when footnotes are read
    /// per paragraph.
    mutating func flush(as kind: BlockKind = .paragraph, language: String? = nil, frames: [SpokenFrame] = [], level: Int? = nil) {
        let run = block
        block = TextRun()
        let (text, spans, base, marked, origins) = run.normalised(base: language, tracing: trace != nil)
        if !text.isEmpty {
            var pronunciations = readsPronunciation
                ? Lexicon.pronunciations(lexicons, in: text, language: base, spans: spans, adding: marked) : []
            if !frames.isEmpty { pronunciations = SpokenFrame.pronunciations(frames, in: text, over: pronunciations) }
            if stream != nil {
                let read = BlockStream.Block(lines: run.lines(), text: text, kind: kind, language: base, spans: spans,
                                             pronunciations: pronunciations, headingLevel: level, noteReferences: blockNotes,
                                             mayHead: tableDepth == 0 && kind != .listItem)
                if let id = noteInProgress { stream?.note(id: id, label: noteLabels[id], read) } else { stream?.add(read) }
                blockNotes = []
                if trace != nil { trace? += TracedBlock.lines(run.lines(), of: TracedBlock(text: text, origins: origins)) }
                return
            }
            let kept = builder.add(text, kind: kind, language: base, spans: spans, pronunciations: pronunciations)
            // The builder may clean the text further; a block it changed keeps no origins.
            if let kept, trace != nil { trace?.append(TracedBlock(text: kept, origins: kept == text ? origins : [])) }
        }
        let notes = blockNotes
        blockNotes = []
        guard rules.footnotes == .paragraph else { return }
        for id in notes {
            if let note = footnotes[id], !read.contains(id) { readNote(note) }
        }
    }

    private mutating func readNote(_ note: XMLNode) {
        let id = Self.noteID(note)
        guard id.isEmpty || !read.contains(id) else { return }
        read.insert(id)
        var outer = TextRun()
        swap(&outer, &block)  // the note is a block of its own; the one around it resumes after
        // With a stream, every block of the note goes to it as the note's (the pass places them).
        let outerNote = noteInProgress
        if stream != nil { noteInProgress = id }
        for child in note.children { visit(child, kind: .paragraph, language: note.language) }
        flush(as: .paragraph, language: note.language)
        noteInProgress = outerNote
        swap(&outer, &block)
    }
}

/// The text of one block as it is gathered, piece by piece with each piece's language, the
/// pronunciation it is under and (when tracing) the node it came from; it is normalised
/// (whitespace collapsed, trimmed) with the languages and pronunciations kept as UTF-16 ranges.
struct TextRun {
    private var pieces: [(text: String, language: String?, pronunciation: Int?, origin: XMLNodePointer?)] = []
    private var spoken: [Int: String] = [:]
    private var active: Int?
    /// The pieces that are line breaks (`<br>`).
    private var breaks: Set<Int> = []
    /// Inside `<pre>`: the text's own newlines are line breaks.
    var preformatted = false

    /// A line break (`<br>`): a space in the text, a new line in ``lines()``.
    mutating func appendLineBreak(language: String?) {
        breaks.insert(pieces.count)
        pieces.append(("\n", language, active, nil))
    }

    /// The text as lines (split at line breaks), each trimmed and collapsed, empty ones left
    /// out but inside preformatted text: joined with spaces they are the normalised text.
    func lines() -> [String] {
        var lines: [String] = []
        var current = ""
        for (k, piece) in pieces.enumerated() {
            if breaks.contains(k) {
                lines.append(current)
                current = ""
            } else if preformatted {
                let parts = piece.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                current += parts[0]
                for part in parts.dropFirst() {
                    lines.append(current)
                    current = String(part)
                }
            } else {
                current += piece.text
            }
        }
        lines.append(current)
        let collapsed = lines.map(TextLines.collapse)
        // Preformatted text keeps its blank lines (they part its paragraphs), but not at its ends.
        guard preformatted, let first = collapsed.firstIndex(where: { !$0.isEmpty }),
              let last = collapsed.lastIndex(where: { !$0.isEmpty }) else { return collapsed.filter { !$0.isEmpty } }
        return Array(collapsed[first...last])
    }

    /// Appends a piece of text; `origin` is the text node (or entity reference) it is the text of.
    mutating func append(_ text: String, language: String?, origin: XMLNodePointer? = nil) {
        pieces.append((text, language, active, origin))
    }

    /// Text appended from now until ``endPronunciation(_:)`` is spoken as `spoken` (unless an
    /// enclosing pronunciation is already active: the outer one covers it). Returns `id` when it
    /// took effect.
    mutating func beginPronunciation(_ spoken: String, id: Int) -> Int? {
        guard active == nil else { return nil }
        self.spoken[id] = spoken
        active = id
        return id
    }

    mutating func endPronunciation(_ id: Int) {
        if active == id { active = nil }
    }

    var isBlank: Bool { pieces.allSatisfy { $0.text.allSatisfy(\.isWhitespace) } }

    /// The text, the spans in a language other than `base` (default: the language of most of the
    /// text), the base language, the pronunciations, and — when `tracing` — where each UTF-16 unit
    /// of the text came from (nil for a space standing for collapsed whitespace and for text
    /// appended without an origin; empty when not tracing).
    func normalised(base: String? = nil, tracing: Bool = false)
        -> (text: String, spans: [LanguageSpan], base: String?, pronunciations: [Pronunciation], origins: [TextOrigin?]) {
        var text = ""
        var runs: [(start: Int, end: Int, language: String?)] = []
        var marked: [Int: (start: Int, end: Int)] = [:]
        var origins: [TextOrigin?] = []
        var utf16 = 0
        var pendingSpace = false
        for piece in pieces {
            var offset = 0  // into the piece, in UTF-16 units
            for ch in piece.text {
                let width = ch.utf16.count
                defer { offset += width }
                if ch.isWhitespace {
                    pendingSpace = !text.isEmpty
                    continue
                }
                if pendingSpace {
                    text.append(" ")
                    utf16 += 1
                    pendingSpace = false
                    if tracing { origins.append(nil) }
                }
                let start = utf16
                text.append(ch)
                utf16 += width
                if tracing {
                    for k in 0..<width { origins.append(piece.origin.map { TextOrigin(node: $0, offset: offset + k) }) }
                }
                if let p = piece.pronunciation { marked[p] = (marked[p]?.start ?? start, utf16) }
                if let last = runs.last, last.language == piece.language, last.end == start || last.end + 1 == start {
                    runs[runs.count - 1].end = utf16
                } else {
                    runs.append((start, utf16, piece.language))
                }
            }
        }
        var weights: [String?: Int] = [:]
        for r in runs { weights[r.language, default: 0] += r.end - r.start }
        let blockLanguage = base ?? weights.max { $0.value < $1.value }?.key ?? nil
        let spans = runs.filter { $0.language != nil && $0.language != blockLanguage }.map {
            LanguageSpan(offset: $0.start, length: $0.end - $0.start, language: $0.language!)
        }
        let pronunciations = marked.sorted { $0.key < $1.key }.map {
            Pronunciation(offset: $0.value.start, length: $0.value.end - $0.value.start, spoken: spoken[$0.key] ?? "")
        }
        return (text, spans, blockLanguage, pronunciations, origins)
    }
}
