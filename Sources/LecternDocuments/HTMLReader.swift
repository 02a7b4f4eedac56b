import Foundation
import LecternCore

/// Reads an HTML or XHTML file: `.xhtml` with libxml2's XML parser (a malformed file is an error
/// naming its line), anything else with its HTML parser, which reads tag soup as browsers do.
/// Headings at or above the source's chapter level start chapters.
public struct HTMLReader: Sendable {
    public init() {}

    public func read(_ source: Source) throws -> Book {
        let data: Data
        do { data = try Data(contentsOf: source.url) } catch {
            throw DocumentError(document: source.url.path, message: "cannot read the file (\(error.localizedDescription))")
        }
        let tree: XMLTree
        if source.url.pathExtension.lowercased() == "xhtml" {
            do { tree = try XMLTree.xml(data, name: source.url.path) } catch let error as XMLTree.ParseError {
                throw DocumentError(document: source.url.path, message: "malformed XHTML, \(error)")
            }
        } else {
            guard let parsed = XMLTree.html(data, name: source.url.path) else {
                throw DocumentError(document: source.url.path, message: "the file is empty")
            }
            tree = parsed
        }
        guard let root = tree.root else { throw DocumentError(document: source.url.path, message: "no HTML content") }
        let skips = try source.skip.map { try NSRegularExpression(pattern: $0) }
        var walker = HTMLWalker(builder: try BookBuilder(source: source, skips: skips), rules: source.rules,
                                chapterLevel: source.chapters.level)
        let folder = source.url.deletingLastPathComponent()
        try walker.prepare(document: root, name: source.displayPath) { href in
            let url = URL(fileURLWithPath: href.removingPercentEncoding ?? href, relativeTo: folder).standardizedFileURL
            guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
            return try PLSLexicon.parse(data, name: url.path)
        }
        walker.walk(root.first { $0.name == "body" } ?? root, language: root.language)
        var book = try walker.builder.finish()
        book.metadata = book.metadata.filling(from: Self.metadata(root))
        if book.metadata.title == nil { book.metadata.title = walker.omitted.titlePageTitle }
        return book
    }

    /// The page's `<title>` (without a site name after ` | `), `<meta name="author">` and `lang`.
    static func metadata(_ root: XMLNode) -> BookMetadata {
        let head = root.first { $0.name == "head" }
        let title = head?.first { $0.name == "title" }?.textContent
            .components(separatedBy: " | ").first?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let author = head?.first { $0.name == "meta" && $0["name"]?.lowercased() == "author" }?["content"]
        return BookMetadata(title: title?.isEmpty == false ? title : nil, author: author, language: root.language)
    }
}
