import Foundation
import LecternCore

/// Reads an EPUB 2 or 3 the way a careful narrator would: the spine's reading order (never the
/// manifest's), chapters and their titles from the table of contents — split inside a file at
/// the entries' fragment anchors, so one XHTML file can hold several chapters — and each content
/// file through the same XHTML reading as ``HTMLReader``. Metadata (title, author, language,
/// cover) comes along to fill the manifest's gaps.
///
/// Spine items marked `linear="no"` are skipped or read last (``ReadingRules/nonLinear``); a
/// malformed content file is an error naming the EPUB and the entry, or (``ReadingRules/malformed``)
/// skipped with its text listed. A table-of-contents entry that points at nothing is listed too.
public struct EPUBReader: Sendable {
    public init() {}

    /// What an EPUB holds besides its text.
    public struct Result: Sendable {
        public var book: Book
    }

    public func read(_ source: Source) throws -> Result {
        try read(source, tracing: false).result
    }

    /// Reads the EPUB; with `tracing`, also keeps the parsed content documents and where the text
    /// of every kept block came from (``EPUBTextMarker`` marks the documents with it).
    func read(_ source: Source, tracing: Bool) throws -> (result: Result, trace: EPUBTrace?) {
        try DeepStack.run { try readHere(source, tracing: tracing) }
    }

    /// Reads on the calling thread (``read(_:tracing:)`` calls it on a ``DeepStack`` thread).
    private func readHere(_ source: Source, tracing: Bool) throws -> (result: Result, trace: EPUBTrace?) {
        let trace = tracing ? EPUBTrace() : nil
        let archive = try EPUBArchive(url: source.url)
        let package = try EPUBPackage.read(archive)
        let document = source.url.path
        let skips = try BookBuilder.skips(source)
        let fromTOC = source.chapters.selector == nil && !source.chapters.levelGiven  // else headings start chapters
        // Chapters from the table of contents; everything else decided by the structure pass every
        // format shares (``StructurePass``), over the spine's documents as one stream, which the
        // markers cut first (``StreamCut``).
        let structured = fromTOC && source.chapters.detection != .none
        var walker = HTMLWalker(builder: try BookBuilder(source: structured ? source.withoutMarkers : source, skips: skips),
                                rules: source.rules, chapterLevel: nil)
        if tracing { walker.trace = [] }
        if structured { walker.stream = BlockStream() }

        // Where each chapter starts: a whole file, or an element id inside one.
        var fileStarts: [String: String] = [:]
        var anchorStarts: [String: [String: String]] = [:]
        for entry in package.toc where fromTOC {
            if let fragment = entry.fragment, !fragment.isEmpty {
                if anchorStarts[entry.path]?[fragment] == nil { anchorStarts[entry.path, default: [:]][fragment] = entry.title }
            } else if fileStarts[entry.path] == nil {
                fileStarts[entry.path] = entry.title
            }
        }
        var order = package.spine.filter(\.linear)
        let nonLinear = package.spine.filter { !$0.linear }
        if source.rules.nonLinear == .append { order += nonLinear }
        let language = package.metadata.language
        // Front and back matter the package points at, and running heads and feet found by
        // their repetition across the spine's documents (parsed once, here).
        let landmarks = EPUBLandmarks.read(archive, package)
        var trees: [String: XMLTree] = [:]
        for item in order where trees[item.item.path] == nil { trees[item.item.path] = try? XMLTree.xml(try archive.data(item.item.path), name: item.item.path) }
        // A collection's poems listed under their book's entry are sections of its chapter.
        for k in EPUBNestedPoems.sections(fromTOC ? package.toc : [], trees: trees) {
            if let fragment = package.toc[k].fragment { anchorStarts[package.toc[k].path]?[fragment] = nil }
        }
        let bodies = order.compactMap { trees[$0.item.path]?.root.map { root in root.first { $0.name == "body" } ?? root } }
        walker.omitted.nodes = RunningFurniture.detect(bodies, title: package.metadata.title)
        let bodyIndex = order.firstIndex { $0.item.path == landmarks.bodyPath }
            ?? order.firstIndex { trees[$0.item.path]?.root?.first(where: { $0.semantics.contains("bodymatter") }) != nil }

        // PLS lexicons, read once each, apply to the documents that link to them.
        var lexicons: [String: Lexicon] = [:]
        func lexicon(_ href: String, from path: String) throws -> Lexicon? {
            let target = try EPUBPackage.resolve(href, from: path, document: source.url.path)
            if let known = lexicons[target] { return known }
            guard archive.contains(target) else { return nil }
            let lexicon = try PLSLexicon.parse(try archive.data(target), name: "\(source.displayPath): \(target)")
            lexicons[target] = lexicon
            return lexicon
        }

        // The same trees as the furniture's: both name the nodes they find.
        let shown = try EPUBShownStructure(archive: archive, order: order.map(\.item.path), trees: trees, source: source,
                                           fileStarts: Set(fileStarts.keys), anchorStarts: anchorStarts.mapValues { Set($0.keys) })
        walker.shown = shown.shown
        var opened = false
        /// No text read yet but a dedication's or an epigraph's (``OpeningMatter``).
        var onlyOpening = true
        for (index, spineItem) in order.enumerated() {
            let path = spineItem.item.path
            let data = try archive.data(path)
            let tree: XMLTree
            do { tree = try shown.trees[path] ?? XMLTree.xml(data, name: path) } catch let error as XMLTree.ParseError {
                guard source.rules.malformed == .skip else {
                    throw DocumentError(document: document, message: "\(path) is malformed XHTML, \(error) (set `malformed: skip` on the source to skip such files)")
                }
                let text: String
                do { text = try XMLTree.html(data, name: path)?.root?.textContent ?? "" } catch let error as XMLTree.ParseError {
                    throw DocumentError(document: document, message: "\(path) cannot be read, \(error)")  // not even its text to list
                }
                walker.skip(text, reason: "malformed XHTML in \(path), \(error)")
                continue
            }
            guard let root = tree.root else { continue }
            walker.omitted.afterBody = bodyIndex.flatMap { index == $0 ? nil : index > $0 }
            if let kind = landmarks.kind(ofDocument: path) {
                let body = root.first { $0.name == "body" } ?? root
                if kind == .titlePage { walker.omitted.noteTitlePage(body) }
                if let reason = kind.skipReason(source.rules.matter, afterBody: walker.omitted.afterBody ?? opened) {
                    walker.skip(BookMatter.listedText(body), reason: reason)
                    continue
                }
            }
            for (id, kind) in landmarks.fragments(in: path) {
                if let reason = kind.skipReason(source.rules.matter, afterBody: walker.omitted.afterBody ?? opened) {
                    walker.omitted.omitSection(id: id, in: root, reason: reason)
                }
            }
            let opening = onlyOpening && walker.stream != nil && walker.omitted.afterBody != true
                && OpeningMatter.isOpening(root.first(where: { $0.name == "body" }) ?? root)
            if opening {
                // A dedication or an epigraph before any text: no chapter of its own (nor the title
                // page's, all of it left out); its text is the book's opening, joined to the first chapter.
                walker.endChapter()
                walker.stream?.withdrawEmptyChapters()
            } else if let title = fileStarts[path] {
                walker.endChapter()
                walker.startSilentChapter(title)
                opened = true
            } else if !opened {
                // Text before any table-of-contents entry: a chapter named by the file's title.
                let title = root.first { $0.name == "title" }?.textContent ?? (path as NSString).lastPathComponent
                walker.startSilentChapter(title)
                opened = true
            }
            walker.chapterStarts = anchorStarts[path] ?? [:]
            try walker.prepare(document: root, name: "\(source.displayPath): \(path)") { try lexicon($0, from: path) }
            walker.walk(root.first { $0.name == "body" } ?? root, language: root.language ?? language)
            if onlyOpening, !opening, walker.stream?.hasText ?? true { onlyOpening = false }
            if let trace, var traced = walker.trace {
                // The walk ends its chapter, so every block it added was read now, nearly always
                // from this document; a footnote kept from an earlier one is that one's. A file
                // the spine lists twice is traced once: the second reading's blocks keep no origins.
                let again = trace.documents[path] != nil
                if !again { trace.documents[path] = EPUBTrace.Document(tree: tree, data: data) }
                for i in traced.indices {
                    guard let node = traced[i].origins.lazy.compactMap({ $0 }).first?.node else { continue }
                    let owner = tree.owns(node) ? (again ? nil : path) : trace.documents.first { $0.value.tree.owns(node) }?.key
                    if let owner { traced[i].document = owner } else { traced[i].origins = [] }
                }
                trace.blocks += traced
                walker.trace = []
            }
            for (id, title) in anchorStarts[path] ?? [:] where !walker.consumedStarts.contains(id) {
                walker.skip(title, reason: "the table of contents points at \(path)#\(id), which does not exist")
            }
        }
        if source.rules.nonLinear == .skip {
            for spineItem in nonLinear {
                let data = try archive.data(spineItem.item.path)
                let body = (try? XMLTree.xml(data, name: spineItem.item.path))?.root?.first { $0.name == "body" }
                    ?? (try? XMLTree.html(data, name: spineItem.item.path))??.root
                // Images' alt text is listed too, as it is for an image in a file that is read.
                let alt = body?.all { $0.name == "img" }.compactMap { $0["alt"] } ?? []
                let text = ([body?.textContent ?? ""] + alt).joined(separator: " ")
                walker.skip(text, reason: "spine item \(spineItem.item.path) is marked linear=\"no\" (nonlinear: skip)")
            }
        }
        if let stream = walker.stream {
            let items = StructurePass.items(try StreamCut.apply(stream, source: source), illustrations: source.rules.illustrations == .read ? .read : .skip,
                                            defaultLevel: source.chapters.level)
            StructureReading.read(items, footnotes: source.rules.footnotes, stageDirections: source.rules.stageDirections,
                                  into: &walker.builder)
        }
        var book = try walker.builder.finish()
        if fromTOC { Self.nameParts(&book, toc: package.toc) }
        if let trace, walker.stream != nil { trace.blocks = TracedBlock.kept(book.chapters.flatMap(\.blocks).map(\.text), from: trace.blocks) }
        var metadata = package.metadata
        if metadata.title == nil { metadata.title = walker.omitted.titlePageTitle }
        if let coverPath = package.coverPath {
            // Known by its bytes, whatever the manifest's media type says; one that cannot be
            // embedded is left out with a warning (the book itself is fine).
            do {
                if let size = archive.size(coverPath), size > CoverImage.maxBytes { throw CoverImage.tooLarge(size) }
                let data = try archive.data(coverPath)
                metadata.cover = BookMetadata.Cover(mimeType: try CoverImage(data: data).mimeType, data: Array(data))
            } catch let rejection as CoverImage.Rejection {
                book.warnings.append("\(document): the cover \(coverPath) is left out: \(rejection.reason)")
            }
        }
        book.metadata = metadata
        return (Result(book: book), trace)
    }

    /// Chapters whose table-of-contents entries are nested in a volume's, a part's or an act's
    /// belong to that part (``EPUBPackage/NavEntry/part``): the entries are matched to the
    /// chapters by title, in order; a chapter the text already placed in a part keeps it.
    static func nameParts(_ book: inout Book, toc: [EPUBPackage.NavEntry]) {
        guard toc.contains(where: { $0.part != nil }) else { return }
        var next = toc.startIndex
        for i in book.chapters.indices {
            guard let match = toc[next...].firstIndex(where: { PlainTextReader.clean($0.title) == book.chapters[i].title }) else { continue }
            next = match + 1
            if book.chapters[i].part == nil { book.chapters[i].part = toc[match].part.map(PlainTextReader.clean) }
        }
    }
}
