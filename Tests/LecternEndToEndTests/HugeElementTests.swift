import Foundation
import Testing
import LecternTesting

/// Issue #22: a `<style>` or `<script>` past libxml2's 10,000,000-character text limit used to end
/// an HTML file there, silently — the run succeeded without the words after it. Now, in an HTML
/// file and in an EPUB, every word after it is timed; and a 50 M element is read in bounded memory.
/// (`HugeElementReadingTests` covers `<pre>` and `<p>` and every size at the reader's level.)
@Suite(.serialized) struct HugeElementTests {
    static let after = "Every word after the huge element is timed to the end."
    /// Words of the heading ("Huge") and of the paragraph after the element.
    static let words = 1 + 11

    /// Writes `name` with `count` characters of pseudo-random lower-case words inside `<element>`,
    /// as HTML or as the one chapter of an EPUB (python3 writes it: fast, and its zip deflated).
    static func write(_ ws: Workspace, _ name: String, element: String, count: Int, epub: Bool) throws -> URL {
        let url = ws.url.appendingPathComponent(name)
        let script = """
            import random, sys, zipfile
            element, count, epub, after, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5]
            rnd = random.Random(22)
            letters = bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(1 << 20))
            chunk = b" ".join(letters[i:i + 40] for i in range(0, len(letters), 40))
            filler = (chunk * (count // len(chunk) + 1))[:count].decode()
            body = f"<h1>Huge</h1><{element}>{filler}</{element}><p>{after}</p>"
            if not epub:
                open(out, "w").write(f"<html><head><title>Huge</title></head><body>{body}</body></html>")
                sys.exit(0)
            with zipfile.ZipFile(out, "w") as z:
                z.writestr("mimetype", "application/epub+zip")
                z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
                z.writestr("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>Huge</dc:title><dc:language>en</dc:language></metadata><manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="ch1"/></spine></package>', compress_type=zipfile.ZIP_DEFLATED)
                z.writestr("OEBPS/ch1.xhtml", f'<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Huge</title></head><body>{body}</body></html>', compress_type=zipfile.ZIP_DEFLATED)
            """
        let made = try Tool.run("python3", ["-c", script, element, "\(count)", epub ? "1" : "0", after, url.path])
        try #require(made.status == 0, "\(made.stderr)")
        return url
    }


    /// Each format and each element once (every pair is read at the reader's level).
    @Test(arguments: [("html", "style"), ("epub", "script")])
    func everyWordAfterAStyleOrScriptOfMoreThanTenMillionCharactersIsTimed(format: String, element: String) throws {
        let ws = try Workspace("huge-\(element)")
        let source = try Self.write(ws, "huge.\(format)", element: element, count: 10_100_000, epub: format == "epub")
        let job = try RenderedJob.run(ws, try DeepHTMLTests.manifest(ws, "huge", source: source.lastPathComponent))
        let sidecar = try Sidecar.load(job.mp3.deletingPathExtension().appendingPathExtension("timings.json"))
        let timed = sidecar.chapters.flatMap(\.paragraphs).flatMap { p in p.words.map { p.text(of: $0) } }
        #expect(timed.count == Self.words, "\(format) <\(element)>: \(timed.suffix(12))")
        #expect(timed.suffix(11).joined(separator: " ") == Self.after)
    }

    @Test(arguments: ["html", "epub"])
    func aFiftyMillionCharacterScriptIsReadPastInBoundedMemory(format: String) throws {
        let ws = try Workspace("huge-50m")
        let source = try Self.write(ws, "huge.\(format)", element: "script", count: 50_000_000, epub: format == "epub")
        let manifest = try DeepHTMLTests.manifest(ws, "huge", source: source.lastPathComponent)
        let timing = ws.url.appendingPathComponent("time.txt")
        let check = try Tool.run("/usr/bin/time", ["-f", "%M", "-o", timing.path, Tool.lectern, "check", "--json", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["words"] as? Int == Self.words, "\(format): \(report["words"] ?? "none") words")
        let kib = Int(try String(contentsOf: timing, encoding: .utf8).split(separator: "\n").last ?? "") ?? .max
        // The file is 50 MB; libxml2 copies it, and holds the text node once while it grows
        // (doubling); Lectern walks past the script without copying its text (measured: 183 MB).
        #expect(kib < 400_000, "\(format): lectern check peaked at \(kib) KiB")
    }
}
