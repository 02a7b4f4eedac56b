import Foundation
import LecternCore

/// Reads an HTML or XHTML file: `.xhtml` with libxml2's XML parser (a malformed file is an error
/// naming its line), anything else with its HTML parser, which reads tag soup as browsers do.
/// With `chapters:` not given, the page is read as a ``BlockStream`` by the structure pass every
/// format shares (``StructurePass``); with a level or a selector, headings at or above that
/// level, or the selector's elements, start chapters.
public struct HTMLReader: Sendable {
    public init() {}

    public func read(_ source: Source) throws -> Book {
        try DeepStack.run { try readHere(source) }
    }

    /// Reads on the calling thread (``read(_:)`` calls it on a ``DeepStack`` thread).
    private func readHere(_ source: Source) throws -> Book {
        let data = try SourceFile.contents(source)
        let tree: XMLTree
        if source.url.pathExtension.lowercased() == "xhtml" {
            do { tree = try XMLTree.xml(data, name: source.url.path) } catch let error as XMLTree.ParseError {
                throw DocumentError(document: source.url.path, message: "malformed XHTML, \(error)")
            }
        } else {
            let parsed: XMLTree?
            do { parsed = try XMLTree.html(data, name: source.url.path) } catch let error as XMLTree.ParseError {
                throw DocumentError(document: source.url.path, message: "cannot read the HTML, \(error)")
            }
            guard let parsed else { throw DocumentError(document: source.url.path, message: "the file is empty") }
            tree = parsed
        }
        guard let root = tree.root else { throw DocumentError(document: source.url.path, message: "no HTML content") }
        let skips = try BookBuilder.skips(source)
        let structured = Self.findsStructure(source)
        // With the structure pass, the markers cut the stream, before the pass (``StreamCut``).
        var walker = HTMLWalker(builder: try BookBuilder(source: structured ? source.withoutMarkers : source, skips: skips), rules: source.rules,
                                chapterLevel: structured || source.chapters.selector != nil ? nil : source.chapters.level)
        if structured { walker.stream = BlockStream() }
        var linked: [URL] = []
        var refused: [String] = []
        walker.shown = try Self.shown(root, source: source) { url, refusal in
            linked.append(url)
            if let refusal { refused.append(refusal) }
        }
        // The structure pass chooses the chapters; what the page shows is its evidence.
        if structured { walker.shown.chapterStarts = [] }
        try walker.prepare(document: root, name: source.displayPath) { href in
            let url = SourceFile.url(href, from: source)
            linked.append(url)
            return try PLSLexicon.parse(try SourceFile.linked(href, from: source, maxBytes: PLSLexicon.maxInput), name: url.path)
        }
        walker.walk(root.first { $0.name == "body" } ?? root, language: root.language)
        if let stream = walker.stream {
            let items = StructurePass.items(try StreamCut.apply(stream, source: source), illustrations: source.rules.illustrations == .read ? .read : .skip,
                                            defaultLevel: source.chapters.level)
            StructureReading.read(items, footnotes: source.rules.footnotes, stageDirections: source.rules.stageDirections,
                                  into: &walker.builder)
        }
        var book = try walker.builder.finish()
        book.linkedFiles = linked
        book.warnings += refused.map { "\(source.displayPath): \($0)" }
        book.metadata = book.metadata.filling(from: Self.metadata(root))
        if book.metadata.title == nil { book.metadata.title = walker.omitted.titlePageTitle }
        return book
    }

    /// Whether the page's structure is found by the structure pass (``StructurePass``), as a plain
    /// text's is: when `chapters:` gives no level, selector or pattern and is not `none`.
    static func findsStructure(_ source: Source) -> Bool {
        source.chapters.detection == .auto && source.chapters.selector == nil && !source.chapters.levelGiven
            && source.chapters.heading == nil
    }

    /// What the page shows through its stylesheets (linked files in the source's folders, `<style>`),
    /// classes and roles; chapters start at `chapters.selector`'s elements or shown headings within
    /// `level`. `reading` is told each linked sheet and, when it is not read but for being missing,
    /// why (a sentence naming the link).
    static func shown(_ root: XMLNode, source: Source, reading: (URL, String?) -> Void = { _, _ in }) throws -> ShownStructure {
        let sheets = CSSStyleSheet.sheets(of: root) { href in
            let file = String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            guard !file.contains(":") else { return nil }  // no network
            let url = SourceFile.url(file, from: source)
            do throws(LinkedFile.Refusal) {
                let data = try SourceFile.linked(file, from: source, maxBytes: CSSStyleSheet.maxInput)
                reading(url, nil)
                return CSSStyleSheet(parsing: String(decoding: data, as: UTF8.self))
            } catch {
                reading(url, error.kind == .missing ? nil : "the stylesheet \"\(UserText.escapingControls(href))\" is not read: it \(error.reason)")
                return nil
            }
        }
        let mode: HeadingDetector.Mode
        if let selector = source.chapters.selector {
            let selectors = CSSSelector.parseList(selector)
            guard !selectors.isEmpty else {
                throw BookBuilder.keyError(source, "chapters.selector", CSSSelector.unreadable(selector))
            }
            mode = .selector(selectors)
        } else {
            mode = .shownLevel(source.chapters.level)
        }
        return HeadingDetector.find(in: [HeadingDetector.Document(root: root, styles: CSSStyles(root: root, sheets: sheets))], mode: mode)
    }

    /// The page's Dublin Core `<meta name="dc.title">` / `DC.creator`, else its `<title>` (without a
    /// site name after ` | `; Project Gutenberg's "The Project Gutenberg eBook of TITLE, by AUTHOR"
    /// gives both), `<meta name="author">`, and `lang`.
    static func metadata(_ root: XMLNode) -> BookMetadata {
        let head = root.first { $0.name == "head" }
        func meta(_ names: Set<String>) -> String? {
            head?.first { $0.name == "meta" && names.contains($0["name"]?.lowercased() ?? "") }?["content"].map(collapse).flatMap { $0.isEmpty ? nil : $0 }
        }
        var title = head?.first { $0.name == "title" }?.textContent.components(separatedBy: " | ").first.map(collapse)
        var author = meta(["author"])
        if let t = title, let named = GutenbergMetadata.ebookTitle(t) {
            title = named.title
            author = author ?? named.author
        }
        return BookMetadata(title: meta(["dc.title"]) ?? (title?.isEmpty == false ? title : nil), author: meta(["dc.creator"]) ?? author,
                            language: root.language)
    }

    private static func collapse(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
}
