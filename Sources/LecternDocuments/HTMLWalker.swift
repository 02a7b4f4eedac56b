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
    /// Notes whose paragraph links back to the marker (``ReturnLinkedNotes``), found when the walk starts.
    private var returnLinked = ReturnLinkedNotes()
    private var read: Set<String> = []
    private var chapterNotes: [XMLNode] = []
    private var blockNotes: [String] = []
    /// The id of the note whose blocks the walk is reading into the stream, if any.
    private var noteInProgress: String?
    /// Each note's label as its marker shows it ("3", "A"), by the note's id.
    private var noteLabels: [String: String] = [:]
    /// How many tables the walk is inside (their cells head nothing, unless the table lays out a text).
    private var tableDepth = 0
    /// How many of those lay a text out row by row (``isTextLayout(_:)``: a bilingual edition's
    /// original and translation side by side): their cells head as the text's own blocks would.
    private var textTableDepth = 0
    /// How many poems the walk is inside (`div.poem`, `div.stanza`): a stanza's number or a
    /// poem's `Part the First.` set as a line of it heads no chapter (a tagged heading still may).
    private var verseDepth = 0
    /// How many blocks of in-book links the walk is inside (a contents list set in one paragraph:
    /// `<a href="#c18">CHAPTER XVIII.</a><br> Col. Grangerford.…<br><br>`): their empty lines part nothing.
    private var linkListDepth = 0
    /// How many cast lists the walk is inside (their names are no speakers' labels).
    private var castListDepth = 0
    /// How many stage directions the walk is inside: a persona named in one (`Exeunt
    /// <b>Rosencrantz</b>`) is part of the direction, never a speaker's label.
    private var directionDepth = 0
    /// The speaker's label the markup sets at the start of the block being gathered
    /// (`<p><b>Lane.</b> Yes, sir.</p>`), for the structure pass to weigh.
    private var blockLabel: String?
    /// A drop cap drawn as an image just left out, whose letter the next text starts with.
    private var dropInitial: DropInitial?
    /// How often each word stands in the document being walked (for drop caps), made when first needed.
    private var vocabulary: (document: XMLTree, counts: [String: Int])?
    /// The ids of the headings in the document being walked (``headingIDs(of:)``), made when first needed.
    private var headingTargets: (document: XMLTree, ids: Set<String>)?
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
    /// The classes Project Gutenberg's pages set on a poem and its stanzas.
    static let verseClasses: Set<Substring> = ["poem", "poetry", "stanza", "verse"]
    static let noteTypes: Set<String> = ["footnote", "endnote", "rearnote", "note"]
    /// The types of a section that lists notes, each item a note (Standard Ebooks' endnotes file:
    /// `<section epub:type="endnotes"><ol><li id="note-1">…`).
    static let notesListTypes: Set<String> = ["footnotes", "endnotes", "rearnotes"]

    /// The items of the note lists in `body` that have an id: notes, whatever their own type.
    static func listedNotes(in body: XMLNode) -> [XMLNode] {
        func isList(_ node: XMLNode) -> Bool { node.semantics.contains(where: notesListTypes.contains) }
        return ((isList(body) ? [body] : []) + body.all(where: isList)).flatMap { $0.all { $0.name == "li" && $0["id"] != nil } }
    }

    /// Gets ready to walk a document: its name for reports, its `ssml:alphabet`, and the PLS
    /// lexicons its head links to (`<link rel="pronunciation" href="…">`), which `load` reads
    /// from an `href` (nil: the link points at nothing; a ``LinkedFile/Refusal``: it is not read;
    /// both are reported).
    mutating func prepare(document root: XMLNode, name: String, load: (String) throws -> Lexicon?) throws {
        documentName = name
        readsPronunciation = rules.pronunciation
        alphabet = root.attribute("alphabet", namespace: XMLNode.ssmlNamespace) ?? "ipa"
        lexicons = []
        guard readsPronunciation, let head = root.first(where: { $0.name == "head" }) else { return }
        for link in head.elements where link.name == "link" {
            let relations = (link["rel"] ?? "").lowercased().split(separator: " ")
            guard relations.contains("pronunciation"), let href = link["href"], !href.isEmpty else { continue }
            let loaded: Lexicon?
            do { loaded = try load(href) } catch let refusal as LinkedFile.Refusal {
                builder.note(PronunciationNote(source: name, text: href, reason: "the linked pronunciation lexicon \(refusal.reason)"))
                continue
            }
            if let lexicon = loaded {
                lexicons.append(lexicon)
                for note in lexicon.notes { builder.note(note) }
            } else {
                builder.note(PronunciationNote(source: name, text: href, reason: "the linked pronunciation lexicon does not exist"))
            }
        }
    }

    /// Reads `body` (a document's body or root); `language` is the document's language.
    mutating func walk(_ body: XMLNode, language: String?) {
        for note in body.all(where: { $0.semantics.contains(where: Self.noteTypes.contains) }) + Self.listedNotes(in: body) {
            if let id = note["id"] ?? note.attribute("id", namespace: XMLNode.xmlNamespace) { footnotes[id] = note }
        }
        if stream != nil {
            // Project Gutenberg's `div.footnote`, named by its own id or its anchor's: a link to it is its marker.
            for note in body.all(where: { Self.classes($0).contains("footnote") }) where footnotes[Self.noteID(note)] == nil {
                let id = Self.noteID(note)
                if !id.isEmpty { footnotes[id] = note }
            }
            returnLinked = ReturnLinkedNotes(in: body)
            for (id, note) in returnLinked.notes where footnotes[id] == nil { footnotes[id] = note }
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
            if var text = node.text {
                if returnLinked.labelText.contains(node.pointer) {
                    skip(text, reason: SkipReason.footnoteLabel)  // `1 (` before a note's link back
                    return
                }
                // (The label's closing bracket after the link back; a traced walk keeps every unit of its nodes.)
                if trace == nil, returnLinked.closings.contains(node.pointer) { text = ReturnLinkedNotes.withoutClosing(text) }
                if let initial = dropInitial, text.contains(where: { !$0.isWhitespace }) {
                    dropInitial = nil
                    if block.isBlank, let lead = initial.lead(for: text, vocabulary: vocabulary(of: node)) {
                        block.append(lead, language: language)
                    }
                }
                block.append(text, language: language, origin: trace == nil ? nil : node.pointer)
            } else {
                skip("&\(node.entityName);", reason: .unknownEntity(node.entityName))
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
            skip(node.textContent, reason: SkipReason.footnoteLabel)  // `[A]` linking back to its marker
            return
        }
        if name == "a", Self.isBackLink(node, seen: seenIDs) {
            skip(node.textContent, reason: .backLink)
            return
        }
        if let reason = omitted.reason(for: node, keptText: stream?.hasText ?? builder.book.chapters.contains { !$0.blocks.isEmpty }) {
            if !XMLNode.inlineElements.contains(name) { flush() }
            skip(BookMatter.listedText(node), reason: reason)
            return
        }
        if readShown(node, language: language) { return }
        let semantics = node.semantics
        let classes = Self.classes(node)
        if stream != nil, let reason = Self.streamSkip(node, classes: classes, illustrations: rules.illustrations) {
            if !XMLNode.inlineElements.contains(name) { flush() }
            // A figure's images' alt text is listed with its caption, as an image's is.
            let alt = node.all { $0.name == "img" }.compactMap { $0["alt"] }.filter { !$0.isEmpty }
            skip(([node.textContent] + alt).joined(separator: " "), reason: reason)
            if alt.count == 1, node.textContent.allSatisfy(\.isWhitespace) { dropInitial = DropInitial(alt: alt[0]) }
            return
        }
        if semantics.contains("pagebreak") {
            skip(node["title"] ?? node["aria-label"] ?? node.textContent, reason: .pageNumber)
            return
        }
        // Project Gutenberg's `a.fnanchor` and `div.footnote` count only for the structure pass.
        if semantics.contains("noteref")
            || (stream != nil && name == "a" && (classes.contains("fnanchor") || Self.isNoteMarker(node, notes: footnotes))) {
            skip(node.textContent, reason: .footnoteReference)
            if let href = node["href"], let hash = href.firstIndex(of: "#") {
                let id = String(href[href.index(after: hash)...])
                blockNotes.append(id)
                noteLabels[id] = noteLabels[id] ?? Self.label(node.textContent)
            }
            return
        }
        if semantics.contains(where: Self.noteTypes.contains) || (stream != nil && classes.contains("footnote"))
            || (name == "li" && node["id"].flatMap { footnotes[$0] }?.pointer == node.pointer)
            || returnLinked.ids[node.pointer] != nil {
            let id = returnLinked.ids[node.pointer] ?? Self.noteID(node)
            if read.contains(id) { return }
            if rules.footnotes == .skip {
                skip(node.textContent, reason: .footnote)
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
        let isLinkList = name == "p" && Self.holdsLinkList(node)
        if isLinkList { linkListDepth += 1 }
        defer { if isLinkList { linkListDepth -= 1 } }
        let isVerse = !XMLNode.inlineElements.contains(name) && classes.contains { Self.verseClasses.contains($0) }
        if isVerse { verseDepth += 1 }
        defer { if isVerse { verseDepth -= 1 } }
        // A cast list's names (Standard Ebooks' `z3998:dramatis-personae`) are no speakers' labels.
        let isCastList = semantics.contains("z3998:dramatis-personae")
        if isCastList { castListDepth += 1 }
        defer { if isCastList { castListDepth -= 1 } }
        // A persona named inside a direction, or inside running text (`A room in <b>Polonius’</b>
        // house.`), is a name in that text; a speaker's label opens its block.
        if castListDepth == 0, directionDepth == 0, let play = Self.playKind(classes: classes, semantics: semantics),
           play == .stageDirection || block.isBlank {
            // A speaker's name or a stage direction, a block of its own even inside a speech.
            flush(as: kind, language: language)
            if play == .stageDirection { directionDepth += 1 }
            children(of: node, kind: play, language: language)
            if play == .stageDirection { directionDepth -= 1 }
            flush(as: play, language: language)
            return
        }
        if name == "nav" || semantics.contains("toc") || semantics.contains("landmarks") || semantics.contains("page-list") {
            skip(node.textContent, reason: .navigation)
            return
        }
        if (["table", "ul", "ol"].contains(name) && Self.isTableOfContents(node))
            || (stream != nil && ["p", "div"].contains(name) && Self.isListOfLinks(node))
            || (stream != nil && name == "table" && Self.isHeadingsTable(node, headings: headingIDs(of: node))) {
            flush()
            skip(node.textContent, reason: .contentsLinks)
            stream?.append(.contentsEntries(Self.contentsEntries(node)))
            return
        }
        if ["blockquote", "div"].contains(name), Self.isParagraphContents(node) {
            // A list laid out as a text's is (its entries in paragraphs), and so named.
            flush()
            skip(node.textContent, reason: SkipReason.contentsList)
            stream?.append(.contentsEntries(Self.paragraphEntries(node)))
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
            skip(node["alt"] ?? "", reason: .image)
            dropInitial = DropInitial(alt: node["alt"] ?? "")
        case "svg", "math":
            flush()
            skip(node.textContent, reason: name == "svg" ? .drawing : .mathematics)
        case "pre":
            flush()
            if node.first(where: { $0.name == "code" }) != nil {
                skip(node.textContent, reason: .codeBlock)
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
                skip(node.textContent, reason: .tableSkipped)
            } else if let table = TableReader(node) {
                read(table, language: language)  // a data table: a sentence per row (HTMLWalker+Tables)
            } else {
                let text = Self.isTextLayout(node)
                if text { textTableDepth += 1 }
                defer { if text { textTableDepth -= 1 } }
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
                if stream != nil, castListDepth == 0, directionDepth == 0 { blockLabel = Self.speakerLabel(opening: node) }
                children(of: node, kind: kind, language: language)
                // (Only a block left with text of its own is weighed: the walk of its elements is not
                // repeated at every level of blocks nested in blocks.)
                flush(as: kind, language: language, italic: !block.isBlank && Self.isWhollyItalic(node))
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

    /// The ids of the headings of the document `node` belongs to (and of the anchors inside them),
    /// made when first needed.
    private mutating func headingIDs(of node: XMLNode) -> Set<String> {
        if let headingTargets, headingTargets.document === node.owner { return headingTargets.ids }
        var ids: Set<String> = []
        for heading in node.owner.root?.all(where: { Self.headingElements.contains($0.name) }) ?? [] {
            for element in [heading] + heading.all(where: { _ in true }) {
                if let id = element["id"] { ids.insert(id) }
                if let id = element["name"] { ids.insert(id) }
            }
        }
        headingTargets = (node.owner, ids)
        return ids
    }

    /// How often each word stands in the document `node` belongs to.
    private mutating func vocabulary(of node: XMLNode) -> [String: Int] {
        if let vocabulary, vocabulary.document === node.owner { return vocabulary.counts }
        let counts = DropInitial.vocabulary(node.owner.root?.textContent ?? "")
        vocabulary = (node.owner, counts)
        return counts
    }

    /// Lists text the walk leaves out, in the stream when there is one.
    mutating func skip(_ text: String, reason: SkipReason) {
        if stream != nil { stream?.skip(text, reason: reason) } else { builder.skip(text, reason: reason) }
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

    /// Whether all the letters of an element lie inside `i` or `em` (punctuation may stand outside).
    static func isWhollyItalic(_ node: XMLNode) -> Bool {
        var italic = false
        var plain = false
        func walk(_ node: XMLNode, inItalic: Bool) {
            for child in node.children where !plain {
                if child.isText {
                    guard (child.text ?? "").contains(where: { $0.isLetter || $0.isNumber }) else { continue }
                    if inItalic { italic = true } else { plain = true }
                } else if child.isElement {
                    walk(child, inItalic: inItalic || child.name == "i" || child.name == "em")
                }
            }
        }
        walk(node, inItalic: false)
        return italic && !plain
    }

    private mutating func children(of node: XMLNode, kind: BlockKind, language: String?) {
        for child in node.children { visit(child, kind: kind, language: language) }
    }

    /// Ends the current block (if it has text) as a block of `kind`, with the words of `frames`
    /// spoken around its stretches, then reads the footnotes it referred to when footnotes are read
    /// per paragraph.
    mutating func flush(as kind: BlockKind = .paragraph, language: String? = nil, frames: [SpokenFrame] = [], level: Int? = nil,
                        italic: Bool = false) {
        let run = block
        block = TextRun()
        let label = blockLabel
        blockLabel = nil
        let (text, spans, base, marked, origins) = run.normalised(base: language, tracing: trace != nil)
        if !text.isEmpty {
            var pronunciations = readsPronunciation
                ? Lexicon.pronunciations(lexicons, in: text, language: base, spans: spans, adding: marked) : []
            if !frames.isEmpty { pronunciations = SpokenFrame.pronunciations(frames, in: text, over: pronunciations) }
            if stream != nil {
                // A paragraph's or quotation's empty line (`<br><br>`) parts it, as a blank line does a
                // plain text's; a heading's, a list item's or a cell's stays within its block.
                let parted = level == nil && (kind == .paragraph || kind == .quote) && tableDepth == 0 && linkListDepth == 0
                let read = BlockStream.Block(lines: run.lines(blankLines: parted), text: text, kind: kind, language: base, spans: spans,
                                             pronunciations: pronunciations, headingLevel: level, noteReferences: blockNotes,
                                             mayHead: tableDepth == textTableDepth && kind != .listItem && (verseDepth == 0 || level != nil),
                                             speakerLabel: label.flatMap { Self.labelLength($0, in: text) }, italic: italic)
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
        let id = returnLinked.ids[note.pointer] ?? Self.noteID(note)
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
