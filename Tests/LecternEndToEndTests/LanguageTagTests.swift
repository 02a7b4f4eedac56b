import Foundation
import Testing
import LecternTesting

/// Ordinary BCP 47 tags (`de-DE`, `zh-CN`) find the installed voice for their language, tags
/// that name no language (`und`, empty) switch nothing, in HTML and as an EPUB's `dc:language`;
/// an unknown voice mapped in `languages:` is reported at its own key and line.
struct LanguageTagTests {
    /// The words of every sentence of a paragraph of the sidecar.
    static func words(_ paragraph: [String: Any]) -> [[String: Any]] {
        (paragraph["sentences"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
    }

    static func paragraph(_ job: RenderedJob, startingWith prefix: String) throws -> [String: Any] {
        try #require(job.paragraphs.first { ($0["text"] as? String ?? "").hasPrefix(prefix) }, "no paragraph \(prefix): \(job.paragraphs)")
    }

    @Test func regionalAndEmptyTagsInHTMLSpeakWithTheVoiceForTheirLanguageOrTheBooks() throws {
        let ws = try Workspace("language-tags")
        try ws.write("tags.html", """
            <!DOCTYPE html>
            <html lang="en-GB"><head><title>Tags</title></head><body>
            <p>The opening paragraph is plain English.</p>
            <p lang="de-DE">Guten Morgen, wie geht es Ihnen heute?</p>
            <p lang="und">An undetermined paragraph is read by the book's voice.</p>
            <p lang="">An empty tag is read by the book's voice too.</p>
            <p>He said <span lang="zh-CN">你好</span> and then <span lang="de-AT">Servus</span> and <span lang="und">nothing</span> and <span lang="">more</span> aloud.</p>
            </body></html>
            """)
        let manifest = try ws.write("tags.yml", """
            title: Tags
            sources: [tags.html]
            voice: { name: en-gb, rate: 0.9 }
            """)
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!check.stderr.contains("unknown voice") && !check.stdout.contains("warning"), "\(check.stdout)\(check.stderr)")
        let job = try RenderedJob.run(ws, manifest)

        let german = try Self.paragraph(job, startingWith: "Guten Morgen")
        #expect(german["voice"] as? String == "de", "de-DE is read with the German voice: \(german)")
        #expect(german["language"] as? String == "de-DE")
        for prefix in ["An undetermined", "An empty tag"] {
            let p = try Self.paragraph(job, startingWith: prefix)
            #expect(p["voice"] as? String == "en-gb" && p["language"] == nil, "\(p)")
        }
        let mixed = try Self.paragraph(job, startingWith: "He said")
        let spans = mixed["spans"] as? [[String: Any]] ?? []
        #expect(spans.map { $0["voice"] as? String ?? "" } == ["zh", "de"], "zh-CN and de-AT switch, und and empty do not: \(spans)")
        #expect(spans.map { $0["language"] as? String ?? "" } == ["zh-CN", "de-AT"])
        // Every word is timed: the English ones as an independent count finds them, and the Chinese.
        let text = mixed["text"] as? String ?? ""
        let units = Array(text.utf16)
        let timed = Self.words(mixed).map { w -> String in
            let o = w["offset"] as? Int ?? 0, l = w["length"] as? Int ?? 0
            return String(decoding: units[o..<(o + l)], as: UTF16.self)
        }
        #expect(timed.filter { $0 != "你好" && $0 != "你" && $0 != "好" } == independentWords(text).filter { $0 != "你好" }, "\(timed)")
        #expect(timed.contains { $0.contains("你") }, "\(timed)")
        for prefix in ["The opening", "Guten Morgen", "An undetermined", "An empty tag"] {
            let p = try Self.paragraph(job, startingWith: prefix)
            #expect(Self.words(p).count == independentWords(p["text"] as? String ?? "").count, "\(prefix)")
        }
    }

    @Test(arguments: [("de-DE", "de"), ("zh-CN", "zh"), ("und", "en"), ("", "en")])
    func anEPUBsOnlyLanguageChoosesTheVoiceForItOrLeavesTheBooks(tag: String, voice: String) throws {
        let ws = try Workspace("language-epub")
        let epub = ws.url.appendingPathComponent("book.epub")
        let script = """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[2], 'w')
            z.writestr(zipfile.ZipInfo('mimetype'), 'application/epub+zip')
            z.writestr('META-INF/container.xml', '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
            z.writestr('OEBPS/c1.xhtml', '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body><h1>Eins</h1><p>Guten Morgen, wie geht es Ihnen heute?</p></body></html>')
            z.writestr('OEBPS/nav.xhtml', '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Eins</a></li></ol></nav></body></html>')
            z.writestr('OEBPS/content.opf', '<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">t</dc:identifier><dc:title>Tags</dc:title><dc:language>' + sys.argv[1] + '</dc:language><meta property="dcterms:modified">2020-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>')
            z.close()
            """
        let made = try Tool.run("/usr/bin/python3", ["-c", script, tag, epub.path])
        try #require(made.status == 0, "\(made.stderr)")
        // No voice named: the book's language chooses it (the defaults' `en` otherwise). Declared
        // languages only: detection would hear the German and choose `de` whatever the tag says.
        let manifest = try ws.write("book.yml", "title: Tags\nsources: [book.epub]\nvoice: { rate: 0.9 }\nlanguage_switching: true\n")
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(check.status == 0, "\(tag): \(check.stderr)")
        let job = try RenderedJob.run(ws, manifest)
        let p = try Self.paragraph(job, startingWith: "Guten Morgen")
        #expect(p["voice"] as? String == voice, "\(tag): \(p)")
        #expect(Self.words(p).count == independentWords(p["text"] as? String ?? "").count, "\(tag)")
    }

    @Test func aLanguageNoVoiceSpeaksIsReadWithTheVoiceAroundItAndAWarning() throws {
        let ws = try Workspace("language-none")
        try ws.write("klingon.html", """
            <!DOCTYPE html>
            <html lang="en"><head><title>T</title></head><body>
            <p>The captain said <span lang="tlh">Qapla batlh</span> and sat down.</p></body></html>
            """)
        let manifest = try ws.write("klingon.yml", "title: T\nsources: [klingon.html]\nvoice: { name: en-gb, rate: 0.9 }\n")
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect((check.stdout + check.stderr).contains("warning: no installed voice speaks \"tlh\" (klingon.html"), "\(check.stdout)\(check.stderr)")
        let job = try RenderedJob.run(ws, manifest)
        let p = try Self.paragraph(job, startingWith: "The captain")
        #expect(p["voice"] as? String == "en-gb" && p["spans"] == nil, "\(p)")
        #expect(Self.words(p).count == independentWords(p["text"] as? String ?? "").count)
    }

    @Test func anUnknownMappedVoiceIsReportedAtItsLanguageKeyOnItsLine() throws {
        let ws = try Workspace("language-map")
        try ws.write("french.html", """
            <!DOCTYPE html>
            <html lang="en"><head><title>T</title></head><body>
            <p>He said <span lang="fr-CA">bonjour mon ami</span> and left.</p></body></html>
            """)
        let yaml = """
            title: T
            sources: [french.html]
            voice: { name: en-gb, rate: 0.9 }
            languages:
              de: de
              fr: nosuchvoice
            """
        let manifest = try ws.write("french.yml", yaml)
        let expected = "\(manifest.path):6: languages.fr: unknown voice \"nosuchvoice\""
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(check.status != 0 && check.stderr.contains(expected), "\(check.stderr)")
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        #expect(run.status != 0 && run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stderr.contains("voice.name"))
    }
}
