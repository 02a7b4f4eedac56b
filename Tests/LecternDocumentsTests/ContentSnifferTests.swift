import Foundation
import Testing
import LecternCore
import ZIPFoundation
@testable import LecternDocuments

/// Only what can be read is read: a real file of each kind Lectern does not read, under every
/// name (`.txt`, `.md`, `.html`, `.epub`, none), is refused with words for what it holds; an
/// EPUB or HTML page under another name is read as what it is.
@Suite(.timeLimit(.minutes(1))) struct ContentSnifferTests {
    static let names = ["book.txt", "book.md", "book.html", "book.epub", "book"]

    /// Runs a tool, failing the test when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
    }

    static func zip(_ url: URL, _ entries: [(String, String)]) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: path == "mimetype" ? .none : .deflate) {
                data.subdata(in: Int($0)..<Int($0) + $1)
            }
        }
    }

    /// The files of every kind, made here: (what the refusal must say, the file).
    static func samples(_ dir: TempDir) throws -> [(String, URL)] {
        var random = SystemRandomNumberGenerator()
        let text = "It was a dark and stormy night; the rain fell in torrents.\n"
        let wav = dir.url.appendingPathComponent("speech.wav"), mp3 = dir.url.appendingPathComponent("speech.mp3")
        try run("/usr/bin/espeak-ng", ["-w", wav.path, "Hello there."])
        try run("/usr/bin/lame", ["--quiet", wav.path, mp3.path])
        let docx = dir.url.appendingPathComponent("doc.docx"), odt = dir.url.appendingPathComponent("doc.odt"), zip = dir.url.appendingPathComponent("a.zip")
        try Self.zip(docx, [("[Content_Types].xml", "<Types/>"), ("word/document.xml", "<w:document>\(text)</w:document>")])
        try Self.zip(odt, [("mimetype", "application/vnd.oasis.opendocument.text"), ("content.xml", "<office:document-content>\(text)</office:document-content>")])
        try Self.zip(zip, [("story.txt", text)])
        let pdf = "%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
            + "trailer << /Root 1 0 R >>\n%%EOF\n"
        var mobi = [UInt8](repeating: 0, count: 60) + Array("BOOKMOBI".utf8) + [UInt8](repeating: 0, count: 40)
        mobi.replaceSubrange(0..<10, with: Array("The_Story_".utf8))
        let samples: [(String, [UInt8])] = [
            ("a PDF document: not read yet", Array(pdf.utf8)),
            ("a PNG image", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]),
            ("a JPEG image", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]),
            ("a GIF image", Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x3B]),
            ("a WebP image", Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + [13, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0]),
            ("WAV audio", [UInt8](try Data(contentsOf: wav))),
            ("MP3 audio", [UInt8](try Data(contentsOf: mp3))),
            ("MP3 audio", [UInt8](try Data(contentsOf: mp3)).drop { $0 != 0xFF }.map { $0 }),  // frames without an ID3 tag
            ("Ogg audio", Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 20)),
            ("FLAC audio", Array("fLaC".utf8) + [0x80, 0, 0, 34] + [UInt8](repeating: 0, count: 34)),
            ("MP4 audio or video", [0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 2, 0] + Array("M4A mp42isom".utf8) + [0, 0, 0, 0]),
            ("an executable program (ELF)", [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/bin/ls")))),
            ("a Windows executable (PE)", Array("MZ".utf8) + [0x90, 0, 3, 0, 0, 0, 4, 0] + [UInt8](repeating: 0, count: 50) + Array("PE".utf8) + [0, 0]),
            ("a MOBI/AZW e-book: not read yet", mobi),
            ("a Word document (DOCX): not read yet", [UInt8](try Data(contentsOf: docx))),
            ("an OpenDocument text (ODT): not read yet", [UInt8](try Data(contentsOf: odt))),
            ("a ZIP archive (not an EPUB)", [UInt8](try Data(contentsOf: zip))),
            ("binary data", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("binary data", Array(text.utf8).flatMap { [$0, 0x01, 0x02] }),  // text spaced with control bytes
        ]
        return try samples.enumerated().map { i, sample in
            (sample.0, try dir.write("sample-\(i)", bytes: sample.1))
        }
    }

    @Test func whatIsNotTextInAFormatLecternReadsIsRefusedUnderEveryName() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        for (what, file) in try Self.samples(dir) {
            for name in Self.names {
                let url = dir.url.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: url)
                try FileManager.default.copyItem(at: file, to: url)
                let source = Source(url: url, displayPath: name, format: Source.format(forExtension: url.pathExtension))
                let error = try #require(throws: DocumentError.self, "\(what) as \(name)") { try DocumentReader().read([source]) }
                #expect(error.document == url.path)
                #expect(error.message.hasPrefix(what), "\(what) as \(name): \(error.message)")
                #expect(error.message.hasSuffix("Lectern reads plain text, Markdown, HTML and EPUB files"), "\(error.message)")
            }
        }
    }

    @Test func anEPUBOrAnHTMLPageUnderAnotherNameIsReadAsWhatItIs() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let epub = dir.url.appendingPathComponent("real.epub")
        try writeEPUB(epub, documents: [("OEBPS/one.xhtml", """
            <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>\
            <body><h1>The First Chapter</h1><p>The rain fell on the roofs of the town all night long.</p></body></html>
            """)], nav: [("The First Chapter", "one.xhtml")])
        let html = try dir.write("page", bytes: Array("""
            \u{FEFF}<!DOCTYPE html>
            <html><head><title>Page</title></head><body><h1>A Heading</h1><p>The <em>rain</em> fell all night long.</p></body></html>
            """.utf8))
        for name in Self.names {
            for (original, expected) in [(epub, "The rain fell on the roofs of the town all night long."), (html, "The rain fell all night long.")] {
                let url = dir.url.appendingPathComponent("as-" + name)
                try? FileManager.default.removeItem(at: url)
                try FileManager.default.copyItem(at: original, to: url)
                let source = Source(url: url, displayPath: name, format: Source.format(forExtension: url.pathExtension))
                if original == html, name.hasSuffix(".epub") {
                    let error = try #require(throws: DocumentError.self) { try DocumentReader().read([source]) }
                    #expect(error.message.hasPrefix("not an EPUB: the file holds text"), "\(error.message)")
                    continue
                }
                let texts = try DocumentReader().read([source]).chapters.flatMap(\.blocks).map(\.text)
                #expect(texts.contains(expected), "\(original.lastPathComponent) as \(name): \(texts)")
                #expect(!texts.joined().contains("<"), "markup narrated: \(texts)")
            }
        }
        // A `format:` given is obeyed: an HTML page read as text on purpose keeps its markup (but
        // for pairs of inline tags, which a plain text's reading takes for emphasis, as `_rain_`).
        var given = Source(url: html, displayPath: "page", format: .text)
        given.keyLines["format"] = 3
        #expect(try DocumentReader().read([given]).chapters.flatMap(\.blocks).map(\.text).joined().contains("<h1>A Heading</h1>"))
    }

    /// Every real book of the corpus is accepted, in the format its name gives (so it reads as before).
    @Test(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
    func everyCorpusFileIsAcceptedInTheFormatItsNameGives() throws {
        let files = try #require(FileManager.default.enumerator(at: Corpus.root, includingPropertiesForKeys: [.isRegularFileKey]))
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.count >= 40)
        for url in files {
            let format = Source.format(forExtension: url.pathExtension)
            #expect(try ContentSniffer.format(of: Source(url: url, format: format)) == format, "\(url.path)")
        }
    }

    @Test func textInEveryEncodingLecternReadsIsAccepted() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let text = "Ça coûte 5 €.\tIt was a dark and stormy night.\u{0C}\nThe End.\r\n"
        let files: [[UInt8]] = [
            Array(text.utf8), [0xEF, 0xBB, 0xBF] + Array(text.utf8),
            [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
            Array("Ma\u{EE}tre Corbeau, sur un arbre perch\u{E9}.\n".unicodeScalars.map { UInt8($0.value) }),  // Latin-1
            Array("MZ is the name of the inn. An ID3 tag. GIF89a was a format.\n".utf8),
        ]
        for (i, bytes) in files.enumerated() {
            let url = try dir.write("text-\(i).txt", bytes: bytes)
            let book = try DocumentReader().read([Source(url: url, format: .text)])
            #expect(!book.chapters.flatMap(\.blocks).isEmpty, "file \(i)")
        }
    }
}
