import Foundation
import LecternCore
import LecternText

/// One narrated paragraph, as the timing sidecar has it: its text and the UTF-16 ranges of its
/// sentences and of each sentence's words.
public struct NarratedParagraph: Sendable, Equatable {
    public var text: String
    /// The sentences' ranges in `text`, in UTF-16 code units.
    public var sentences: [Range<Int>]
    /// For each sentence, its words' ranges in `text`, in UTF-16 code units.
    public var words: [[Range<Int>]]

    public init(text: String, sentences: [Range<Int>], words: [[Range<Int>]]) {
        self.text = text
        self.sentences = sentences
        self.words = words
    }
}

/// Marks an EPUB's own XHTML for a narrated EPUB 3 with media overlays: every narrated
/// paragraph, sentence and word gets an element with an `id` that a SMIL `<text>` can point at,
/// while the documents keep their structure, styling and text.
///
/// The EPUB is read again exactly as ``EPUBReader`` reads it (same rules, spine order, chapter
/// starts, footnotes), recording where every character of every kept block came from. The
/// paragraphs are matched to those blocks in order by equal text. A paragraph is marked by the
/// element that holds exactly its text (keeping that element's `id`, or giving it one), or else
/// by a `span` around it; its sentences by `span`s inside it, and their words by `span`s inside
/// those. A range that starts or ends inside an inline element (`<i>`, `<em>`, `<a>` …)
/// splits that element in two along the boundary — the second part a copy without the `id` —
/// so that the `span` wraps whole siblings.
///
/// Not marked (nil in the placements): a range whose text no text node holds; a range that
/// would need a `span` where XHTML allows none (around block content, or in a list or table
/// between its items), or the splitting of an element whose meaning or rendering a split would
/// change (`q`, `ruby`, `bdo`, an element carrying `ssml:ph` …).
///
/// New ids are `lw-p1`, `lw-s1`, `lw-w1` … (paragraph, sentence, word), never one the document
/// already uses.
public struct EPUBTextMarker: Sendable {
    public let source: Source

    /// - parameters:
    ///     - source: The EPUB source, with the reading rules it is narrated with.
    public init(source: Source) {
        self.source = source
    }

    /// Marks the paragraphs in the EPUB's content documents.
    ///
    /// - parameters:
    ///     - paragraphs: The narrated paragraphs of this source, in reading order (a block
    ///       without words, which is not narrated, simply has none).
    ///     - stylesheet: A stylesheet's path inside the EPUB (e.g. "lectern/overlay.css"), linked
    ///       from the head of every marked document; nil links none.
    /// - returns: The marked documents and, for each paragraph, where its marks are.
    /// - throws: ``DocumentError`` when the EPUB cannot be read (as ``EPUBReader`` would), or a
    ///   marked document cannot be written.
    public func mark(_ paragraphs: [NarratedParagraph], stylesheet: String? = nil) throws -> MarkedEPUB {
        try DeepStack.run { try markHere(paragraphs, stylesheet: stylesheet) }  // the marker recurses once per level
    }

    private func markHere(_ paragraphs: [NarratedParagraph], stylesheet: String?) throws -> MarkedEPUB {
        guard let trace = try EPUBReader().read(source, tracing: true).trace else { return MarkedEPUB(documents: [:], placements: []) }
        var markers: [String: XHTMLMarker] = [:]
        var placements: [ParagraphPlacement?] = []
        for (paragraph, found) in zip(paragraphs, Self.align(paragraphs.map(\.text), trace.blocks.map(\.text))) {
            guard let found, let document = trace.documents[trace.blocks[found].document] else {
                placements.append(nil)
                continue
            }
            let block = trace.blocks[found]
            let marker = markers[block.document] ?? XHTMLMarker(tree: document.tree)
            markers[block.document] = marker
            placements.append(marker.mark(block, as: paragraph).map {
                ParagraphPlacement(document: block.document, id: $0.id, sentences: $0.sentences)
            })
        }
        var documents: [String: Data] = [:]
        for (path, marker) in markers where marker.changed {
            if let stylesheet { marker.link(stylesheet: Self.relativeHref(from: path, to: stylesheet)) }
            let original = trace.documents[path]!.data
            do {
                documents[path] = try marker.tree.xmlData(declaration: Self.declaration(of: original))
            } catch {
                throw DocumentError(document: source.url.path, message: "\(path) could not be written after marking it: \(error)")
            }
        }
        return MarkedEPUB(documents: documents, placements: placements)
    }

    /// For each paragraph, the index of its block: each paragraph is matched to the next block
    /// with the same text, so a block without a paragraph (punctuation only) is passed over and
    /// a paragraph without a block gets nil. A match that would pass over blocks that have words
    /// is refused when the next paragraph comes before it (a stray paragraph, such as a title
    /// that is spoken first and also ends the book, must not throw the rest out of step).
    /// Linear in the number of paragraphs and blocks (up to a logarithm).
    static func align(_ paragraphs: [String], _ blocks: [String]) -> [Int?] {
        var positions: [String: [Int]] = [:]
        for (i, text) in blocks.enumerated() { positions[text, default: []].append(i) }
        // spoken[i]: how many of the blocks before the i-th have words.
        var spoken = [0]
        for text in blocks { spoken.append(spoken.last! + (WordTokenizer.count(in: text) > 0 ? 1 : 0)) }
        /// The first block at or after `start` with the text.
        func find(_ text: String, from start: Int) -> Int? {
            guard let list = positions[text] else { return nil }
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid] < start { lo = mid + 1 } else { hi = mid }
            }
            return lo < list.count ? list[lo] : nil
        }
        var result = [Int?](repeating: nil, count: paragraphs.count)
        var next = 0
        for (p, text) in paragraphs.enumerated() {
            guard let found = find(text, from: next) else { continue }
            if spoken[found] > spoken[next], p + 1 < paragraphs.count, let following = find(paragraphs[p + 1], from: next),
               following < found {
                continue
            }
            result[p] = found
            next = found + 1
        }
        return result
    }

    /// The href of `target` from the document at `path` (both paths inside the EPUB), with each
    /// segment percent-encoded.
    static func relativeHref(from path: String, to target: String) -> String {
        let from = path.split(separator: "/").dropLast().map(String.init)
        let to = target.split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let segments = Array(repeating: "..", count: from.count - common)
            + to[common...].map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))) ?? $0 }
        let href = segments.joined(separator: "/")
        // A first segment with a colon would read as a URL scheme.
        return segments.first?.contains(":") == true ? "./" + href : href
    }

    /// The XML declaration to write in front of a marked document: the original one when it
    /// declares UTF-8 (or no encoding), the original with UTF-8 as its encoding otherwise, and
    /// none when the original has none.
    static func declaration(of data: Data) -> String? {
        var bytes = data.prefix(512)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return #"<?xml version="1.0" encoding="UTF-8"?>"# }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstRange(of: Array("?>".utf8)),
              let original = String(data: Data(bytes[bytes.startIndex..<end.upperBound]), encoding: .utf8) else { return nil }
        let pattern = #"encoding\s*=\s*(["'])([^"']*)\1"#
        guard let match = original.range(of: pattern, options: .regularExpression) else { return original }
        let declared = original[match].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first.map(String.init) ?? ""
        if declared.lowercased() == "utf-8" || declared.lowercased() == "utf8" { return original }
        return original.replacingCharacters(in: match, with: #"encoding="UTF-8""#)
    }
}
