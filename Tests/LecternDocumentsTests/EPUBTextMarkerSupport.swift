import Foundation
import Testing
import LecternCore
import LecternText
import ZIPFoundation
@testable import LecternDocuments

/// A small EPUB 3 written with ZIPFoundation: content documents (path inside the EPUB → XHTML)
/// in spine order, a nav document whose entries are (title, href relative to OEBPS/) — or, with
/// `navList`, whose `toc` nav holds that list as written (nested entries) — and the book's title.
func writeEPUB(_ url: URL, documents: [(path: String, xhtml: String)], nav: [(title: String, href: String)],
               navList: String? = nil, title: String = "Marks") throws {
    let container = """
        <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
        """
    let items = documents.enumerated().map { i, d in
        #"<item id="d\#(i)" href="\#(d.path.dropFirst("OEBPS/".count))" media-type="application/xhtml+xml"/>"#
    }.joined()
    let spine = documents.indices.map { #"<itemref idref="d\#($0)"/>"# }.joined()
    let opf = """
        <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>\(title)</dc:title>\
        <dc:language>en</dc:language></metadata><manifest>\
        <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\(items)</manifest>\
        <spine>\(spine)</spine></package>
        """
    let links = navList ?? nav.map { #"<li><a href="\#($0.href)">\#($0.title)</a></li>"# }.joined()
    let navDocument = """
        <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">\
        <head><title>Contents</title></head><body><nav epub:type="toc"><ol>\(links)</ol></nav></body></html>
        """
    let archive = try Archive(url: url, accessMode: .create)
    let entries = [("mimetype", "application/epub+zip"), ("META-INF/container.xml", container), ("OEBPS/content.opf", opf),
                   ("OEBPS/nav.xhtml", navDocument)] + documents.map { ($0.path, $0.xhtml) }
    for (path, text) in entries {
        let data = Data(text.utf8)
        try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                             compressionMethod: path == "mimetype" ? .none : .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

/// Reads `source` with and without tracing: the books must be the same, every kept block traced
/// in order, and every traced unit's origin must hold that very UTF-16 unit. Returns the book.
@discardableResult
func expectFaithfulTrace(_ source: Source, sourceLocation: SourceLocation = #_sourceLocation) throws -> Book {
    let plain = try EPUBReader().read(source).book
    let (result, trace) = try EPUBReader().read(source, tracing: true)
    let traced = try #require(trace, sourceLocation: sourceLocation)
    #expect(result.book == plain, "tracing changes nothing in the book", sourceLocation: sourceLocation)
    #expect(traced.blocks.map(\.text) == plain.chapters.flatMap(\.blocks).map(\.text), sourceLocation: sourceLocation)
    var wrong = 0, untraced = 0, covered = 0
    var texts: [XMLNodePointer: [UInt16]] = [:]
    for block in traced.blocks {
        let units = Array(block.text.utf16)
        guard block.origins.count == units.count else { untraced += 1; continue }
        for (i, origin) in block.origins.enumerated() {
            guard let origin else { continue }
            let text = texts[origin.node] ?? Array((XMLNode(origin.node, owner: traced.documents[block.document]!.tree).text ?? "").utf16)
            texts[origin.node] = text
            if origin.offset >= text.count || text[origin.offset] != units[i] { wrong += 1 } else { covered += 1 }
        }
    }
    #expect(untraced == 0 && wrong == 0, "\(untraced) blocks untraced, \(wrong) units traced wrongly", sourceLocation: sourceLocation)
    #expect(covered > 0, sourceLocation: sourceLocation)
    return plain
}

extension NarratedParagraph {
    /// The paragraph as the timing sidecar has it (``UtteranceTimer``): `WordTokenizer`'s words,
    /// grouped into `SentenceSplitter`'s sentences (the last sentence takes the words left, a
    /// sentence stretches to cover its words, one without words is dropped); nil without words.
    static func narrated(_ text: String) -> NarratedParagraph? {
        let words = WordTokenizer.tokens(in: text).map { $0.start..<$0.end }
        guard !words.isEmpty else { return nil }
        let ranges = SentenceSplitter.sentences(in: text)
        var sentences: [Range<Int>] = [], grouped: [[Range<Int>]] = []
        var w = 0
        for (n, range) in ranges.enumerated() {
            var members: [Range<Int>] = []
            while w < words.count, n == ranges.count - 1 || words[w].lowerBound < range.upperBound {
                members.append(words[w])
                w += 1
            }
            guard let first = members.first, let last = members.last else { continue }
            sentences.append(min(range.lowerBound, first.lowerBound)..<max(range.upperBound, last.upperBound))
            grouped.append(members)
        }
        return NarratedParagraph(text: text, sentences: sentences, words: grouped)
    }

}

/// What Python's ElementTree (a parser we did not write) finds in a marked document compared
/// with the original.
struct MarkCheck: Decodable {
    /// The whole text (every text node, tags stripped) is the same.
    var sameText: Bool
    /// Every character has the same enclosing elements (names and attributes, ids aside),
    /// apart from the marker's own `span`s.
    var sameStyle: Bool
    /// Where text or styling first differ, for the failure message.
    var difference: String?
    /// Ids on more than one element.
    var duplicates: [String]
    /// Every id in the marked document.
    var ids: [String]
    /// Ids of the original that are missing from the marked document.
    var lost: [String]
    /// For each requested id: the element's text as is (`raw`), without the text of footnote
    /// references and page numbers (`kept`), and that with its whitespace collapsed (`narrated`).
    var texts: [String: [String: String]]
}

enum ElementTree {
    static let script = #"""
        import html.entities, json, sys, xml.etree.ElementTree as ET
        OPS = "{http://www.idpf.org/2007/ops}type"
        ENTITIES = {name: chr(code) for name, code in html.entities.name2codepoint.items()}
        def parse(path):
            parser = ET.XMLParser()
            parser.entity.update(ENTITIES)
            return ET.parse(path, parser).getroot()
        def local(tag):
            return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
        def added(el):
            return local(el.tag) == "span" and set(el.attrib) == {"id"} and el.attrib["id"].startswith("lw-")
        def identity(el):
            keep = [(k, v) for k, v in el.attrib.items() if k not in ("id", "name", "{http://www.w3.org/XML/1998/namespace}id")]
            return (el.tag, tuple(sorted(keep)))
        def runs(root):
            out = []
            def add(text, style):
                if not text: return
                if out and out[-1][1] == style: out[-1][0] += text
                else: out.append([text, style])
            def walk(el, style):
                own = style if added(el) else style + (identity(el),)
                add(el.text, own)
                for child in el:
                    walk(child, own)
                    add(child.tail, own)
            walk(root, ())
            return out
        def skipped(el):
            kinds = (el.get(OPS, "") + " " + el.get("role", "")).split()
            return any(k in ("noteref", "pagebreak", "doc-noteref", "doc-pagebreak") for k in kinds)
        def kept(el):
            parts = []
            def walk(e):
                if skipped(e): return
                parts.append(e.text or "")
                for child in e:
                    walk(child)
                    parts.append(child.tail or "")
            walk(el)
            return "".join(parts)
        def ids(root):
            found = []
            for el in root.iter():
                for key in ("id", "{http://www.w3.org/XML/1998/namespace}id"):
                    if key in el.attrib: found.append(el.attrib[key])
            return found
        request = json.load(open(sys.argv[1]))
        answer = {}
        for doc in request:
            original, marked = parse(doc["original"]), parse(doc["marked"])
            a, b = runs(original), runs(marked)
            text_a, text_b = "".join(t for t, _ in a), "".join(t for t, _ in b)
            difference = None
            if a != b:
                for i, (x, y) in enumerate(zip(a, b)):
                    if x != y:
                        difference = "run %d: %r %r != %r %r" % (i, x[0][:80], x[1][-2:], y[0][:80], y[1][-2:])
                        break
                else:
                    difference = "%d runs != %d runs" % (len(a), len(b))
            all_ids = ids(marked)
            seen, duplicates = set(), set()
            for i in all_ids:
                (duplicates if i in seen else seen).add(i)
            by_id = {}
            for el in marked.iter():
                if "id" in el.attrib: by_id.setdefault(el.attrib["id"], el)
            texts = {}
            for i in doc["ids"]:
                el = by_id.get(i)
                if el is not None:
                    text = kept(el)
                    texts[i] = {"raw": "".join(el.itertext()), "kept": text, "narrated": " ".join(text.split())}
            answer[doc["path"]] = {"sameText": text_a == text_b, "sameStyle": a == b, "difference": difference,
                                   "duplicates": sorted(duplicates), "ids": all_ids,
                                   "lost": sorted(set(ids(original)) - set(all_ids)), "texts": texts}
        json.dump(answer, open(sys.argv[2], "w"))
        """#

    /// Checks every marked document against its original in the EPUB, asking for the text of
    /// `ids` (by document).
    static func check(_ marked: MarkedEPUB, epub: URL, ids: [String: [String]], in folder: URL) throws -> [String: MarkCheck] {
        let archive = try EPUBArchive(url: epub)
        var request: [[String: Any]] = []
        for (n, (path, data)) in marked.documents.sorted(by: { $0.key < $1.key }).enumerated() {
            let original = folder.appendingPathComponent("original-\(n).xhtml"), new = folder.appendingPathComponent("marked-\(n).xhtml")
            try archive.data(path).write(to: original)
            try data.write(to: new)
            request.append(["path": path, "original": original.path, "marked": new.path, "ids": ids[path] ?? []])
        }
        let requestURL = folder.appendingPathComponent("request.json"), answerURL = folder.appendingPathComponent("answer.json")
        try JSONSerialization.data(withJSONObject: request).write(to: requestURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, requestURL.path, answerURL.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ElementTree failed: \(String(decoding: stderr, as: UTF8.self))")
        return try JSONDecoder().decode([String: MarkCheck].self, from: Data(contentsOf: answerURL))
    }
}

/// The marked ids of each placed paragraph, sentence and word, with the text each must hold.
struct MarkExpectations {
    /// (id, expected text) for paragraphs and sentences (compared as narrated) and words (as
    /// kept, or `raw` when `exactWords`).
    var blocks: [String: [(id: String, text: String)]] = [:]
    var words: [String: [(id: String, text: String)]] = [:]
    /// Sentences and words that got no id.
    var unmarkedSentences = 0, unmarkedWords: [String] = []

    init(_ paragraphs: [NarratedParagraph], _ placements: [ParagraphPlacement?], wordsEvery stride: Int = 1) {
        var n = 0
        for (paragraph, placement) in zip(paragraphs, placements) {
            guard let placement else { continue }
            let units = Array(paragraph.text.utf16)
            let text = { (range: Range<Int>) in String(decoding: units[range], as: UTF16.self) }
            blocks[placement.document, default: []].append((placement.id, paragraph.text))
            for (k, sentence) in placement.sentences.enumerated() {
                if let id = sentence.id {
                    blocks[placement.document, default: []].append((id, text(paragraph.sentences[k])))
                } else {
                    unmarkedSentences += 1
                }
                for (w, word) in sentence.words.enumerated() {
                    let spelled = text(paragraph.words[k][w])
                    guard let word else { unmarkedWords.append(spelled); continue }
                    n += 1
                    if n % stride == 0 { words[placement.document, default: []].append((word, spelled)) }
                }
            }
        }
    }

    var ids: [String: [String]] {
        var result: [String: [String]] = [:]
        for (document, list) in blocks { result[document, default: []] += list.map(\.id) }
        for (document, list) in words { result[document, default: []] += list.map(\.id) }
        return result
    }

    /// Records an issue for every marked element whose text is not its paragraph's, sentence's
    /// or word's, and for every document whose text or styling changed or whose ids clash.
    /// With `exactWords`, a word's element must hold nothing else, not even a footnote reference.
    func verify(_ checks: [String: MarkCheck], exactWords: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        for (document, check) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(check.sameText, "\(document): the text changed", sourceLocation: sourceLocation)
            #expect(check.sameStyle, "\(document): styling changed at \(check.difference ?? "?")", sourceLocation: sourceLocation)
            #expect(check.duplicates.isEmpty, "\(document): duplicate ids \(check.duplicates.prefix(10))", sourceLocation: sourceLocation)
            #expect(check.lost.isEmpty, "\(document): ids lost \(check.lost.prefix(10))", sourceLocation: sourceLocation)
            var wrong: [String] = []
            for (id, text) in blocks[document] ?? [] where check.texts[id]?["narrated"] != text {
                wrong.append("#\(id) \(check.texts[id]?["narrated"]?.debugDescription ?? "missing") ≠ \(text.debugDescription)")
            }
            let key = exactWords ? "raw" : "kept"
            for (id, text) in words[document] ?? [] where check.texts[id]?[key] != text {
                wrong.append("#\(id) \(check.texts[id]?[key]?.debugDescription ?? "missing") ≠ \(text.debugDescription)")
            }
            #expect(wrong.isEmpty, "\(document): \(wrong.count) marks hold other text: \(wrong.prefix(8))", sourceLocation: sourceLocation)
        }
    }
}
