import Foundation
import LecternCore

/// The content documents of an EPUB's reading order parsed once, before they are read, with
/// what they show (``HeadingDetector``): their own stylesheets resolved inside the EPUB, the
/// table of contents' entries, and the source's `chapters:` rule.
struct EPUBShownStructure {
    /// The parsed documents by path (a malformed one is absent: the reading reports it).
    var trees: [String: XMLTree] = [:]
    var shown = ShownStructure()

    /// - throws: ``ManifestError`` naming `chapters.selector` when no selector in it is supported.
    /// - parameter trees: documents already parsed (their nodes are the ones the walker reads).
    init(archive: EPUBArchive, order: [String], trees parsed: [String: XMLTree] = [:], source: Source, fileStarts: Set<String>,
         anchorStarts: [String: Set<String>]) throws {
        self.trees = parsed
        let mode: HeadingDetector.Mode
        if let selector = source.chapters.selector {
            let selectors = CSSSelector.parseList(selector)
            guard !selectors.isEmpty else {
                throw BookBuilder.keyError(source, "chapters.selector", CSSSelector.unreadable(selector))
            }
            mode = .selector(selectors)
        } else if source.chapters.levelGiven {
            mode = .level(source.chapters.level)
        } else {
            mode = .toc
        }
        var sheets: [String: CSSStyleSheet] = [:]
        var documents: [HeadingDetector.Document] = []
        for path in order {
            guard let data = try? archive.data(path), let tree = trees[path] ?? (try? XMLTree.xml(data, name: path)),
                  let root = tree.root else { continue }
            trees[path] = tree
            let used = CSSStyleSheet.sheets(of: root) { href in
                let file = String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                guard let target = try? EPUBPackage.resolve(file, from: path, document: source.url.path), archive.contains(target) else { return nil }
                if sheets[target] == nil, let css = try? archive.data(target) {
                    sheets[target] = CSSStyleSheet(parsing: String(decoding: css.prefix(CSSStyleSheet.maxInput), as: UTF8.self))
                }
                return sheets[target]
            }
            documents.append(HeadingDetector.Document(root: root, styles: CSSStyles(root: root, sheets: used),
                                                      entryAtStart: fileStarts.contains(path) || documents.isEmpty,
                                                      entryAnchors: anchorStarts[path] ?? []))
        }
        shown = HeadingDetector.find(in: documents, mode: mode)
    }
}
