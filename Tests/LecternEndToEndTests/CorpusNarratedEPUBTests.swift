import Foundation
import Testing

/// Issue #22: every corpus EPUB narrates into an EPUB that epubcheck passes with no error and no
/// warning — EPUB 3 books with an NCX (whose `dtb:uid` must then be the package's new
/// identifier), the W3C sample with media overlays of its own (replaced by the narration's), and
/// the EPUB 2 book (whose narrated EPUB is generated). One section of each keeps it fast; the whole
/// of Moby-Dick (no NCX) is narrated and checked by ``CorpusCoverageTests``.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct CorpusNarratedEPUBTests {
    struct Book: Sendable, CustomTestStringConvertible {
        var file: String
        /// Markers that keep one section.
        var keys: [String]
        var hasNCX: Bool
        var testDescription: String { file }
    }

    static let books: [Book] = [
        Book(file: "epub/idpf-georgia-pls-ssml.epub", keys: [#"end_at: '^Climate and Soils\.$'"#], hasNCX: true),
        Book(file: "epub/idpf-childrens-literature.epub", keys: ["start_at: 'Rabbi and [Tt]he Diadem'", #"end_at: 'Friendship\.?$'"#], hasNCX: true),
        Book(file: "epub/w3c-mol-timing-synchronization_multiple_audio.epub", keys: [], hasNCX: false),
        Book(file: "epub/pg1661-adventures-of-sherlock-holmes-epub2.epub",
             keys: ["start_at: '^To Sherlock Holmes she is always the woman'", "end_at: '^One night'"], hasNCX: false),
    ]

    /// The package's unique identifier and every NCX's `dtb:uid`, read with Python's zipfile and ElementTree.
    static func identifiers(_ epub: URL) throws -> (package: String, ncx: [String]) {
        let script = """
            import sys, zipfile, xml.etree.ElementTree as ET
            z = zipfile.ZipFile(sys.argv[1])
            container = ET.fromstring(z.read("META-INF/container.xml"))
            opf_path = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile").get("full-path")
            opf = ET.fromstring(z.read(opf_path))
            uid = opf.get("unique-identifier")
            print(next(e.text for e in opf.iter("{http://purl.org/dc/elements/1.1/}identifier") if e.get("id") == uid))
            for name in z.namelist():
                if name.endswith(".ncx"):
                    ncx = ET.fromstring(z.read(name))
                    print(next(m.get("content") for m in ncx.iter("{http://www.daisy.org/z3986/2005/ncx/}meta") if m.get("name") == "dtb:uid"))
            """
        let out = try Tool.run("python3", ["-c", script, epub.path])
        try #require(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()))
    }

    @Test(arguments: books)
    func theNarratedEPUBPassesEPUBCheck(_ book: Book) throws {
        let ws = try Workspace("corpus-epub")
        let keys = book.keys.map { "\n    \($0)" }.joined()
        let manifest = try ws.write("book.yml", """
            title: Corpus
            sources:
              - path: \(Corpus.file(book.file).path)\(keys)
            voice: { name: en-us, wpm: 450 }
            audio: { bitrate: 56, quality: 9 }
            timings: [json, epub]
            """)
        let job = try RenderedJob.run(ws, manifest)
        #expect(!job.paragraphs.isEmpty, "nothing was narrated")
        let epub = job.mp3.deletingPathExtension().appendingPathExtension("epub")
        NarratedEPUBTests.expectValid(try EPUBInspection.epubcheck(epub))
        let ids = try Self.identifiers(epub)
        #expect(ids.package.hasPrefix("urn:uuid:"), "the narrated book's identifier: \(ids.package)")
        if book.hasNCX {
            #expect(ids.ncx == [ids.package], "the NCX's dtb:uid is the package's identifier: \(ids)")
        }
    }
}
