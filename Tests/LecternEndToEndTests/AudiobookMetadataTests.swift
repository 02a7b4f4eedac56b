import Foundation
import Testing
import LecternTesting

/// A book's details (narrator, description, genre, date, series, publisher, language, copyright,
/// ISBN) as mutagen, ffprobe and eyeD3 read them from the MP3; the tag's padding taking a tag
/// editor's change in place; and the narrated EPUB's identifier, cover and accessibility
/// metadata as epubcheck and ElementTree see them — for a manifest that states everything and for
/// an EPUB 3 whose own metadata fills the gaps.
@Suite(.serialized) struct AudiobookMetadataTests {
    struct Rendered: @unchecked Sendable {
        // @unchecked Sendable: immutable; the workspace lives as long as the tests.
        let ws: Workspace
        let mp3: URL
        let epub: URL
        let cover: URL
    }

    static let manifestKeys = """
        title: Die Straße
        author: Ann Author
        narrator: Nils Näher
        description: "Two short chapters — and a storm."
        genre: Fiction
        date: 1865-11-26
        series: The Tales
        series_index: 2
        publisher: Public Press
        language: en-GB
        copyright: Public domain
        isbn: 978-0-14-143951-8
        """

    /// The text job with every key, a cover, and the narrated EPUB, rendered once for the suite.
    static let rendered = Result<Rendered, any Error> {
        let ws = try Workspace("metadata")
        try ws.write("book.txt", "Chapter One\n\nIt was a bright cold day in April.\n\nChapter Two\n\nThen the storm came.\n")
        let cover = try CoverTests.picture(ws, "cover.jpg", codec: "mjpeg")
        let manifest = try ws.write("book.yml", manifestKeys + """

            cover: cover.jpg
            sources: [book.txt]
            voice: { name: en-us, wpm: 450 }
            audio: { bitrate: 56, quality: 9 }
            timings: [json, epub]
            """)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        guard run.status == 0 else { throw TestFailure("lectern run failed: \(run.stderr)") }
        let out = ws.url.appendingPathComponent("out/book")
        return Rendered(ws: ws, mp3: out.appendingPathComponent("book.mp3"), epub: out.appendingPathComponent("book.epub"), cover: cover)
    }

    /// Every field as mutagen (`ID3` frames), eyeD3 (its tag API) and ffprobe (format tags, the
    /// names audiobookshelf reads) see it.
    @Test func mutagenFFprobeAndEyeD3ReadEveryFieldBack() throws {
        let mp3 = try Self.rendered.get().mp3
        let mutagen = try Self.json("""
            import json, sys
            from mutagen.id3 import ID3
            t = ID3(sys.argv[1])
            comm = t.getall("COMM")
            out = {k: str(t[k]) for k in ["TIT2", "TPE1", "TALB", "TCOM", "TCON", "TDRC", "TPUB", "TLAN", "TCOP"] if k in t}
            out["COMM"] = [[c.lang, c.desc, str(c)] for c in comm]
            out["TXXX"] = {f.desc: str(f) for f in t.getall("TXXX")}
            out["version"] = list(t.version)
            out["APIC"] = [p.mime for p in t.getall("APIC")]
            print(json.dumps(out))
            """, mp3)
        #expect(mutagen["TIT2"] as? String == "Die Straße")
        #expect(mutagen["TPE1"] as? String == "Ann Author")
        #expect(mutagen["TCOM"] as? String == "Nils Näher")
        #expect(mutagen["TCON"] as? String == "Fiction")
        #expect(mutagen["TDRC"] as? String == "1865-11-26")  // TYER and TDAT, as mutagen joins them
        #expect(mutagen["TPUB"] as? String == "Public Press")
        #expect(mutagen["TLAN"] as? String == "eng")
        #expect(mutagen["TCOP"] as? String == "Public domain")
        #expect(mutagen["COMM"] as? [[String]] == [["eng", "", "Two short chapters — and a storm."]])
        #expect(mutagen["TXXX"] as? [String: String] == ["SERIES": "The Tales", "SERIES-PART": "2", "ISBN": "9780141439518"])
        #expect(mutagen["version"] as? [Int] == [2, 3, 0])
        #expect(mutagen["APIC"] as? [String] == ["image/jpeg"])

        let eyed3 = try Self.json("""
            import json, sys, eyed3
            eyed3.log.setLevel("ERROR")
            t = eyed3.load(sys.argv[1]).tag
            frame = lambda fid: t.frame_set[fid][0].text if fid in t.frame_set else None
            print(json.dumps({
                "title": t.title, "artist": t.artist, "composer": t.composer, "genre": t.genre.name if t.genre else None,
                "date": str(t.recording_date), "publisher": t.publisher, "language": frame(b"TLAN"), "copyright": frame(b"TCOP"),
                "comments": [[c.lang.decode() if isinstance(c.lang, bytes) else c.lang, c.description, c.text] for c in t.comments],
                "user": {f.description: f.text for f in t.user_text_frames},
                "version": list(t.version),
            }))
            """, mp3)
        #expect(eyed3["title"] as? String == "Die Straße")
        #expect(eyed3["artist"] as? String == "Ann Author")
        #expect(eyed3["composer"] as? String == "Nils Näher")
        #expect(eyed3["genre"] as? String == "Fiction")
        #expect(eyed3["date"] as? String == "1865-11-26")
        #expect(eyed3["publisher"] as? String == "Public Press")
        #expect(eyed3["language"] as? String == "eng")
        #expect(eyed3["copyright"] as? String == "Public domain")
        #expect(eyed3["comments"] as? [[String]] == [["eng", "", "Two short chapters — and a storm."]])
        #expect(eyed3["user"] as? [String: String] == ["SERIES": "The Tales", "SERIES-PART": "2", "ISBN": "9780141439518"])
        #expect(eyed3["version"] as? [Int] == [2, 3, 0])

        let format = try #require(try Tool.probe(mp3, ["-show_format"])["format"] as? [String: Any])
        let tags = try #require(format["tags"] as? [String: String])
        let expected = ["title": "Die Straße", "artist": "Ann Author", "album": "Die Straße", "composer": "Nils Näher",
                        "genre": "Fiction", "date": "1865-11-26", "publisher": "Public Press", "language": "eng",
                        "copyright": "Public domain", "comment": "Two short chapters — and a storm.",
                        "SERIES": "The Tales", "SERIES-PART": "2", "ISBN": "9780141439518"]
        for (key, value) in expected { #expect(tags[key] == value, "ffprobe's \(key): \(tags)") }
    }

    /// mutagen changes the narrator and adds a frame: the tag's padding takes it, so the file keeps
    /// its size and the first MPEG frame its byte offset, and the audio decodes to the same samples.
    @Test func editingTheTagWithMutagenLeavesTheAudioWhereItWas() throws {
        let rendered = try Self.rendered.get()
        let copy = rendered.ws.url.appendingPathComponent("edited.mp3")
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: rendered.mp3, to: copy)
        let before = try Data(contentsOf: copy)
        let offset = try Self.firstFrameOffset(before)
        let edit = try Tool.run("/usr/bin/python3", ["-c", """
            import sys
            from mutagen.id3 import ID3, TXXX, TCOM
            t = ID3(sys.argv[1])
            t.add(TXXX(encoding=3, desc="NOTE", text=["edited by a tag editor"]))
            t.setall("TCOM", [TCOM(encoding=3, text=["Another Reader"])])
            t.save(v2_version=3)
            """, copy.path])
        try #require(edit.status == 0, "\(edit.stderr)")
        let after = try Data(contentsOf: copy)
        #expect(after.count == before.count, "the file was rewritten: \(before.count) → \(after.count) bytes")
        #expect(try Self.firstFrameOffset(after) == offset)
        #expect(after[offset...] == before[offset...], "the audio frames are untouched")
        let tags = try Tool.mutagenInspect(copy).stdout
        #expect(tags.contains("TXXX=NOTE=edited by a tag editor") && tags.contains("TCOM=Another Reader"), "\(tags)")
        #expect(try Tool.decode(copy) == Tool.decode(rendered.mp3))
    }

    /// The generated EPUB: epubcheck finds nothing; the identifier is its own (a urn:uuid), the
    /// ISBN is its `dc:source`, the accessibility metadata is there, and the cover is the manifest's.
    @Test func theGeneratedEPUBHasItsOwnIdentifierTheCoverAndAccessibilityMetadata() throws {
        let rendered = try Self.rendered.get()
        NarratedEPUBTests.expectValid(try EPUBInspection.epubcheck(rendered.epub))
        let opf = try Self.package(rendered.epub)
        let identifier = try #require(opf["identifier"] as? String)
        #expect(identifier.range(of: #"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil,
                "\(identifier)")
        #expect(opf["sources"] as? [String] == ["urn:isbn:9780141439518"])
        Self.expectAccessibility(opf, visual: true)
        let dc = try #require(opf["dc"] as? [String: String])
        #expect(dc["description"] == "Two short chapters — and a storm." && dc["subject"] == "Fiction" && dc["date"] == "1865-11-26"
                && dc["publisher"] == "Public Press" && dc["rights"] == "Public domain" && dc["language"] == "en-GB", "\(dc)")
        let metas = opf["metas"] as? [[String]] ?? []
        #expect(metas.contains(["belongs-to-collection", "The Tales"]) && metas.contains(["group-position", "2"]), "\(metas)")
        #expect(metas.contains(["media:narrator", "Nils Näher"]))
        let covers = try #require(opf["covers"] as? [String])
        #expect(covers.count == 1)
        let folder = try Workspace("epub-cover")
        let extracted = try EPUBInspection.extract(rendered.epub, covers, into: folder.url)
        #expect(try Data(contentsOf: extracted[covers[0]]!) == Data(contentsOf: rendered.cover))
    }

    /// An EPUB 3 with its own publisher, date, description (calibre's escaped HTML), subject,
    /// rights, ISBN and series fills the MP3's tag; the narrated EPUB keeps the book but gets an
    /// identifier of its own (the book's and its ISBN become `dc:source`), accessibility metadata, and the
    /// manifest's cover in place of the book's.
    @Test func anEPUBsOwnMetadataFillsTheTagAndTheMarkedEPUBGetsItsOwnIdentifier() throws {
        let ws = try Workspace("epub-metadata")
        let own = try CoverTests.picture(ws, "own.png", codec: "png")
        let cover = try CoverTests.picture(ws, "cover.jpg", codec: "mjpeg")
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="en">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="uid">urn:uuid:11111111-2222-4333-8444-555555555555</dc:identifier>
            <dc:identifier id="isbn">urn:isbn:978-0-14-143951-8</dc:identifier>
            <dc:title>The Quiet Harbour</dc:title><dc:creator>Ada Writer</dc:creator><dc:language>en</dc:language>
            <dc:publisher>Harbour House</dc:publisher><dc:date>1913-04-02</dc:date><dc:subject>Sea stories</dc:subject>
            <dc:rights>Public domain in the USA.</dc:rights>
            <dc:description>&lt;p&gt;Boats &amp;amp; a &lt;b&gt;storm&lt;/b&gt;.&lt;/p&gt;</dc:description>
            <meta property="belongs-to-collection" id="c1">Harbour Tales</meta>
            <meta refines="#c1" property="collection-type">series</meta><meta refines="#c1" property="group-position">3</meta>
            <meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>
            </metadata>
            <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/>
            <item id="own-cover" href="own.png" media-type="image/png" properties="cover-image"/>
            </manifest>
            <spine><itemref idref="ch1"/></spine>
            </package>
            """
        let nav = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
            <head><title>Contents</title></head><body><nav epub:type="toc" id="toc"><h1>Contents</h1>
            <ol><li><a href="ch1.xhtml">The Storm</a></li></ol></nav></body></html>
            """
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en" xml:lang="en"><head><title>The Storm</title></head>
            <body><h1>The Storm</h1><p>The boats came in before the storm.</p></body></html>
            """
        let epub = try HostileEPUBTests.epub(ws, "harbour.epub", [("META-INF/container.xml", HostileEPUBTests.container), ("OEBPS/content.opf", opf),
                                                                 ("OEBPS/nav.xhtml", nav), ("OEBPS/ch1.xhtml", chapter)])
        try HostileEPUBTests.add(own, to: epub, as: "OEBPS/own.png")
        let manifest = try ws.write("harbour.yml", """
            sources: [harbour.epub]
            cover: cover.jpg
            genre: Adventure
            voice: { wpm: 450 }
            audio: { bitrate: 56, quality: 9 }
            timings: [json, epub]
            """)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let out = ws.url.appendingPathComponent("out/harbour")

        let format = try #require(try Tool.probe(out.appendingPathComponent("harbour.mp3"), ["-show_format"])["format"] as? [String: Any])
        let tags = try #require(format["tags"] as? [String: String])
        let expected = ["title": "The Quiet Harbour", "artist": "Ada Writer", "publisher": "Harbour House", "date": "1913-04-02",
                        "genre": "Adventure",  // the manifest's, over the EPUB's subject
                        "copyright": "Public domain in the USA.", "comment": "Boats & a storm.", "language": "eng",
                        "SERIES": "Harbour Tales", "SERIES-PART": "3", "ISBN": "9780141439518", "composer": "eSpeak NG (Lectern)"]
        for (key, value) in expected { #expect(tags[key] == value, "ffprobe's \(key): \(tags)") }

        let narrated = out.appendingPathComponent("harbour.epub")
        NarratedEPUBTests.expectValid(try EPUBInspection.epubcheck(narrated))
        let package = try Self.package(narrated)
        let identifier = try #require(package["identifier"] as? String)
        #expect(identifier.hasPrefix("urn:uuid:") && identifier != "urn:uuid:11111111-2222-4333-8444-555555555555")
        #expect(package["sources"] as? [String] == ["urn:uuid:11111111-2222-4333-8444-555555555555", "urn:isbn:9780141439518"])
        Self.expectAccessibility(package, visual: true)
        let covers = try #require(package["covers"] as? [String])
        #expect(covers.count == 1 && covers.first?.hasSuffix(".jpg") == true, "\(covers)")
        let folder = try Workspace("epub-cover")
        let extracted = try EPUBInspection.extract(narrated, covers, into: folder.url)
        #expect(try Data(contentsOf: extracted[covers[0]]!) == Data(contentsOf: cover))
    }

    // MARK: - Reading the files

    static func json(_ script: String, _ file: URL) throws -> [String: Any] {
        let out = try Tool.run("/usr/bin/python3", ["-c", script, file.path])
        guard out.status == 0 else { throw TestFailure("python3 failed: \(out.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The package document as ElementTree reads it: the unique identifier, `dc:source`s, the
    /// other Dublin Core elements, every `meta` as (property, text), and the cover images' paths.
    static func package(_ epub: URL) throws -> [String: Any] {
        try json("""
            import sys, json, zipfile, posixpath
            import xml.etree.ElementTree as ET
            OPF = '{http://www.idpf.org/2007/opf}'
            DC = '{http://purl.org/dc/elements/1.1/}'
            z = zipfile.ZipFile(sys.argv[1])
            path = ET.fromstring(z.read('META-INF/container.xml')).find('.//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile').get('full-path')
            root = ET.fromstring(z.read(path))
            metadata = root.find(OPF + 'metadata')
            uid = root.get('unique-identifier')
            ident = [e.text for e in metadata.findall(DC + 'identifier') if e.get('id') == uid]
            dc = {e.tag[len(DC):]: e.text for e in metadata if e.tag.startswith(DC) and e.tag not in (DC + 'identifier', DC + 'source')}
            covers = [posixpath.normpath(posixpath.join(posixpath.dirname(path), i.get('href'))) for i in root.find(OPF + 'manifest')
                      if 'cover-image' in (i.get('properties') or '').split()]
            print(json.dumps(dict(identifier=ident[0] if ident else None, sources=[e.text for e in metadata.findall(DC + 'source')], dc=dc,
                                  metas=[[m.get('property') or '', (m.text or '').strip()] for m in metadata.findall(OPF + 'meta')], covers=covers)))
            """, epub)
    }

    static func expectAccessibility(_ package: [String: Any], visual: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let metas = package["metas"] as? [[String]] ?? []
        let values = { (property: String) in Set(metas.filter { $0[0] == property }.map { $0[1] }) }
        #expect(values("schema:accessMode") == Set(["textual", "auditory"] + (visual ? ["visual"] : [])), sourceLocation: sourceLocation)
        #expect(values("schema:accessModeSufficient") == ["textual", "auditory", "textual,auditory"], sourceLocation: sourceLocation)
        #expect(values("schema:accessibilityFeature").isSuperset(of: ["synchronizedAudioText", "readingOrder", "tableOfContents", "structuralNavigation"]),
                sourceLocation: sourceLocation)
        #expect(values("schema:accessibilityHazard") == ["none"], sourceLocation: sourceLocation)
        #expect(values("schema:accessibilitySummary").count == 1 && values("schema:accessibilitySummary").first!.contains("synchronized"),
                sourceLocation: sourceLocation)
    }

    /// The byte offset of the first MPEG audio frame: right after the ID3 tag (10 bytes and the
    /// synchsafe size), where a frame sync must be.
    static func firstFrameOffset(_ data: Data) throws -> Int {
        let bytes = [UInt8](data.prefix(10))
        try #require(bytes.count == 10 && bytes[0..<3].elementsEqual("ID3".utf8))
        let offset = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        try #require(data.count > offset + 1 && data[offset] == 0xFF && data[offset + 1] & 0xE0 == 0xE0, "no frame sync after the tag")
        return offset
    }
}
