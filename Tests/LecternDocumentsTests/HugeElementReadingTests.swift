import Foundation
import Testing
import ZIPFoundation
import LecternCore
@testable import LecternDocuments

/// Issue #22: libxml2's size limits drop no text. Element content of 9.9 M, 10.1 M and 50 M
/// characters (libxml2's text-node limit is 10,000,000) in `<style>`, `<script>`, `<pre>` and `<p>`
/// (see ``cases``),
/// in an HTML file (the HTML parser, which used to stop there silently) and in an EPUB (the XML
/// parser): the paragraph after it is read, and a `<pre>` or `<p>` is read whole. Reader-level,
/// so the big cases stay fast; `HugeElementTests` narrates the unspoken ones end to end.
struct HugeElementReadingTests {
    static let before = "The opening words come first."
    static let after = "Every word after the huge element is read to its very end."

    /// 50,000,000 characters of lower-case words (pseudo-random, so deflate keeps an EPUB's
    /// compression ratio low), made once; shorter fillers are its prefixes.
    static let words: [UInt8] = {
        var bytes = [UInt8](repeating: 0x20, count: 50_000_000)
        var state: UInt32 = 2_463_534_242
        bytes.withUnsafeMutableBufferPointer { b in
            var i = 0
            while i < b.count {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                let end = min(b.count, i + 30 + Int(state % 40))
                while i < end {
                    state ^= state << 13; state ^= state >> 17; state ^= state << 5
                    b[i] = 0x61 + UInt8(state % 26)
                    i += 1
                }
                i += 1
            }
        }
        return bytes
    }()

    static func filler(_ count: Int) -> String {
        String(decoding: words[..<count], as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    static func body(_ element: String, _ count: Int) -> String {
        "<h1>Huge</h1><p>\(before)</p><\(element)>\(filler(count))</\(element)><p>\(after)</p>"
    }

    static func epub(_ dir: TempDir, _ element: String, _ count: Int) throws -> URL {
        let url = dir.url.appendingPathComponent("huge.epub")
        let archive = try Archive(url: url, accessMode: .create)
        func add(_ path: String, _ text: String, compressed: Bool = true) throws {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compressed ? .deflate : .none) {
                data.subdata(in: Int($0)..<Int($0) + $1)
            }
        }
        try add("mimetype", "application/epub+zip", compressed: false)
        try add("META-INF/container.xml", """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """)
        try add("OEBPS/content.opf", """
            <?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>Huge</dc:title>\
            <dc:language>en</dc:language></metadata><manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>\
            </manifest><spine><itemref idref="ch1"/></spine></package>
            """)
        try add("OEBPS/ch1.xhtml", """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Huge</title></head>\
            <body>\(body(element, count))</body></html>
            """)
        return url
    }

    /// Every element just over libxml2's 10,000,000-character limit in both formats, the skipped
    /// ones also just under it, and five times the limit for a skipped one (the end-to-end
    /// `HugeElementTests` render more than the limit of each skipped element in each format).
    /// A read element is not tried just under the limit or at five times it: under the limit it
    /// takes the path every paragraph takes, and with `XML_PARSE_HUGE` a text node of 50 M takes
    /// the one of 10.1 M (reading costs about 3 µs a character in a debug build: those five
    /// cases were two thirds of this suite's time).
    static let cases: [(String, String, Int)] = ["html", "epub"].flatMap { format in
        ["style", "script"].flatMap { element in [9_900_000, 10_100_000].map { (format, element, $0) } }
            + ["pre", "p"].map { (format, $0, 10_100_000) }
    } + [("epub", "style", 50_000_000)]

    @Test(arguments: cases)
    func theTextAfterAHugeElementIsRead(format: String, element: String, count: Int) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let book: Book
        if format == "html" {
            let url = dir.url.appendingPathComponent("huge.html")
            try Data("<html><head><title>Huge</title></head><body>\(Self.body(element, count))</body></html>".utf8).write(to: url)
            book = try HTMLReader().read(Source(url: url, format: .html))
        } else {
            book = try EPUBReader().read(Source(url: try Self.epub(dir, element, count), format: .epub)).book
        }
        let blocks = book.chapters.flatMap(\.blocks)
        #expect(blocks.first { $0.text == Self.before } != nil, "\(format) <\(element)> of \(count)")
        #expect(blocks.last?.text == Self.after, "\(format) <\(element)> of \(count): the book ends with \(blocks.last.map { String($0.text.prefix(80)) } ?? "nothing")")
        if element == "p" || element == "pre" {
            let expected = Self.filler(count).utf8.count
            let read = blocks.map { $0.text.utf8.count }.max() ?? 0
            #expect(read == expected, "\(format) <\(element)>: \(read) of \(expected) characters read")
        }
    }
}
