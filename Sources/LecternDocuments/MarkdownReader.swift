import Foundation
import LecternCore
internal import CCmark

/// Reads CommonMark with libcmark: headings at the chapter level (or above) start chapters,
/// deeper headings, paragraphs, list items and block quotes become blocks.
///
/// Code blocks, raw HTML, images and GitBook template tags (`{% … %}`) are not read aloud;
/// each is listed as skipped with its reason.
public struct MarkdownReader: Sendable {
    public init() {}

    public func read(_ source: Source) throws -> Book {
        let data = try SourceFile.contents(source)
        let decoded = try TextDecoding.decode(data, encoding: source.rules.encoding, document: source.url.path)
        var book = try read(text: decoded.text, source: source)
        if let warning = decoded.warning { book.warnings.append(warning) }
        return book
    }

    /// Reads already-decoded Markdown.
    public func read(text: String, source: Source) throws -> Book {
        let skips = try BookBuilder.skips(source)
        var builder = try BookBuilder(source: source, skips: skips)
        let utf8 = Array(text.utf8)
        guard let document = utf8.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parse_document($0, buffer.count, CMARK_OPT_DEFAULT) }
            } ?? cmark_parse_document("", 0, CMARK_OPT_DEFAULT)
        }) else {
            throw DocumentError(document: source.url.path, message: "libcmark could not parse the document")
        }
        defer { cmark_node_free(document) }
        var walker = Walker(builder: builder, chapterLevel: source.chapters.level)
        walker.blocks(under: document, kind: .paragraph)
        builder = walker.builder
        return try builder.finish()
    }

    /// Walks cmark's tree of blocks, feeding the builder.
    private struct Walker {
        var builder: BookBuilder
        let chapterLevel: Int

        mutating func blocks(under parent: OpaquePointer, kind: BlockKind) {
            var node = cmark_node_first_child(parent)
            while let current = node {
                block(current, kind: kind)
                node = cmark_node_next(current)
            }
        }

        mutating func block(_ node: OpaquePointer, kind: BlockKind) {
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HEADING:
                let level = Int(cmark_node_get_heading_level(node))
                let (text, skips) = inlineText(node)
                if level <= chapterLevel {
                    builder.startChapter(title: PlainTextReader.clean(text))
                } else {
                    builder.add(text, kind: .heading)
                }
                for s in skips { builder.skip(s.text, reason: s.reason) }
            case CMARK_NODE_PARAGRAPH:
                let (text, skips) = inlineText(node)
                for s in skips { builder.skip(s.text, reason: s.reason) }
                builder.add(text, kind: kind)
            case CMARK_NODE_BLOCK_QUOTE:
                blocks(under: node, kind: .quote)
            case CMARK_NODE_LIST:
                var item = cmark_node_first_child(node)
                while let current = item {
                    blocks(under: current, kind: kind == .quote ? .quote : .listItem)
                    item = cmark_node_next(current)
                }
            case CMARK_NODE_ITEM:
                blocks(under: node, kind: .listItem)
            case CMARK_NODE_CODE_BLOCK:
                builder.skip(literal(node), reason: .codeBlock)
            case CMARK_NODE_HTML_BLOCK:
                builder.skip(literal(node), reason: .rawHTML)
            default:
                break  // thematic breaks carry no text
            }
        }

        /// The spoken text of a block's inlines, and what was left out of it: images, inline HTML
        /// and template tags (the caller lists those once it knows the chapter they belong to).
        func inlineText(_ node: OpaquePointer) -> (String, [(text: String, reason: SkipReason)]) {
            var out = ""
            var skips: [(text: String, reason: SkipReason)] = []
            appendInlines(of: node, to: &out, skips: &skips)
            let tags = try! NSRegularExpression(pattern: #"\{%.*?%\}"#)
            let ns = out as NSString
            for match in tags.matches(in: out, range: NSRange(location: 0, length: ns.length)) {
                skips.append((ns.substring(with: match.range), .templateTag))
            }
            return (tags.stringByReplacingMatches(in: out, range: NSRange(location: 0, length: ns.length), withTemplate: " "), skips)
        }

        private func appendInlines(of parent: OpaquePointer, to out: inout String, skips: inout [(text: String, reason: SkipReason)]) {
            var node = cmark_node_first_child(parent)
            while let current = node {
                switch cmark_node_get_type(current) {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                    out += literal(current)
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    out += " "
                case CMARK_NODE_HTML_INLINE:
                    skips.append((literal(current), .inlineHTML))
                case CMARK_NODE_IMAGE:
                    var alt = ""
                    appendInlines(of: current, to: &alt, skips: &skips)
                    skips.append((alt.isEmpty ? "(image without description)" : alt, .image))
                default:
                    appendInlines(of: current, to: &out, skips: &skips)  // emphasis, strong, links: their text
                }
                node = cmark_node_next(current)
            }
        }

        private func literal(_ node: OpaquePointer) -> String {
            cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
        }
    }
}
