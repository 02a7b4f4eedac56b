import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// Every file a document links lies in the job's folder: links outside it (absolute, `..`, through
/// a symbolic link) and links to what is not a regular file (a device, a FIFO) are never read, are
/// refused with the same words whether or not the target exists, and never block.
@Suite(.timeLimit(.minutes(1))) struct LinkedFileTests {
    /// A job folder `job/` beside an `outside/` folder holding what a hostile page would read:
    /// a stylesheet that would hide the running head, a lexicon that would respell "Macon", a FIFO.
    struct Layout {
        let dir: TempDir
        var job: URL { dir.url.appendingPathComponent("job") }
        var outside: URL { dir.url.appendingPathComponent("outside") }
        static let css = ".rh { display: oeb-page-head }"
        static let pls = """
            <lexicon version="1.0" alphabet="ipa" xml:lang="en" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon">
              <lexeme><grapheme>Macon</grapheme><phoneme>ˈmeɪkən</phoneme></lexeme>
            </lexicon>
            """

        init() throws {
            dir = try TempDir()
            let fm = FileManager.default
            try fm.createDirectory(at: dir.url.appendingPathComponent("job"), withIntermediateDirectories: true)
            try fm.createDirectory(at: dir.url.appendingPathComponent("outside"), withIntermediateDirectories: true)
            for folder in [job, outside] {
                try Data(Self.css.utf8).write(to: folder.appendingPathComponent("sheet.css"))
                try Data(Self.pls.utf8).write(to: folder.appendingPathComponent("names.pls"))
                #expect(mkfifo(folder.appendingPathComponent("fifo").path, 0o600) == 0)
            }
            for name in ["sheet.css", "names.pls", "none.css", "none.pls"] {
                try fm.createSymbolicLink(atPath: job.appendingPathComponent("escape-" + name).path,
                                          withDestinationPath: outside.appendingPathComponent(name).path)
            }
            try fm.createSymbolicLink(atPath: job.appendingPathComponent("up").path, withDestinationPath: "..")
        }

        /// Reads a page in the job folder that links `href` as a stylesheet and as a lexicon.
        func read(stylesheet: String? = nil, lexicon: String? = nil) throws -> Book {
            var links = ""
            if let stylesheet { links += #"<link rel="stylesheet" href="\#(stylesheet)">"# }
            if let lexicon { links += #"<link rel="pronunciation" href="\#(lexicon)">"# }
            let page = job.appendingPathComponent("page.html")
            try Data("""
                <html lang="en"><head><title>Links</title>\(links)</head><body>\
                <div class="rh">Running Head</div><p>From Macon we went on for many miles and many days.</p></body></html>
                """.utf8).write(to: page)
            var source = Source(url: page, displayPath: "page.html", format: .html)
            source.root = job
            return try HTMLReader().read(source)
        }
    }

    /// Each escape as (the href of an existing target, the href of a missing one).
    static func escapes(_ layout: Layout, _ ext: String) -> [(String, String)] {
        let name = ext == "css" ? "sheet.css" : "names.pls", none = "none.\(ext)"
        return [(layout.outside.appendingPathComponent(name).path, layout.outside.appendingPathComponent(none).path),
                ("../outside/\(name)", "../outside/\(none)"),
                ("%2E%2E/outside/\(name)", "%2E%2E/outside/\(none)"),
                ("escape-\(name)", "escape-\(none)"),
                ("up/outside/\(name)", "up/outside/\(none)"),
                ("/etc/passwd", "/etc/lectern-\(UUID().uuidString)")]
    }

    static func words(_ book: Book) -> [String] { book.chapters.flatMap(\.blocks).map(\.text) }

    @Test func aStylesheetOutsideTheFolderIsNotReadAndItsRefusalSaysNothingOfItsExistence() throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        // Inside the folder, the sheet is read: the running head is left out.
        let control = try layout.read(stylesheet: "sheet.css")
        #expect(!Self.words(control).contains("Running Head"))
        #expect(control.warnings.isEmpty, "\(control.warnings)")
        for (existing, missing) in Self.escapes(layout, "css") {
            let found = try layout.read(stylesheet: existing), absent = try layout.read(stylesheet: missing)
            #expect(Self.words(found).contains("Running Head"), "\(existing) was read")
            let shown = found.warnings.map { $0.replacingOccurrences(of: existing, with: "HREF") }
            #expect(shown == absent.warnings.map { $0.replacingOccurrences(of: missing, with: "HREF") }, "\(existing) vs \(missing)")
            #expect(shown == ["page.html: the stylesheet \"HREF\" is not read: it \(LinkedFile.outsideReason)"], "\(shown)")
        }
    }

    @Test func aLexiconOutsideTheFolderIsNotReadAndItsRefusalSaysNothingOfItsExistence() throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        let control = try layout.read(lexicon: "names.pls")
        #expect(control.chapters.flatMap(\.blocks).contains { !$0.pronunciations.isEmpty })
        for (existing, missing) in Self.escapes(layout, "pls") {
            // /etc/passwd is no lexicon: reading it would be an error naming it.
            let found = try layout.read(lexicon: existing), absent = try layout.read(lexicon: missing)
            #expect(found.chapters.flatMap(\.blocks).allSatisfy { $0.pronunciations.isEmpty }, "\(existing) was read")
            #expect(found.pronunciationNotes.map(\.reason) == absent.pronunciationNotes.map(\.reason), "\(existing) vs \(missing)")
            #expect(found.pronunciationNotes.map(\.reason) == ["the linked pronunciation lexicon \(LinkedFile.outsideReason)"])
            #expect(found.pronunciationNotes.map(\.text) == [existing])
        }
        // A missing lexicon inside the folder is told as missing.
        #expect(try layout.read(lexicon: "gone.pls").pronunciationNotes.map(\.reason) == ["the linked pronunciation lexicon does not exist"])
    }

    @Test(arguments: ["/dev/stdin", "/dev/zero", "/dev/urandom", "../outside/fifo", "fifo", "up/job/fifo", "."])
    func aDeviceOrFIFOIsNeverOpenedForReading(_ href: String) throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        let inside = !href.hasPrefix("/") && !href.hasPrefix("../")
        let reason = inside ? LinkedFile.notRegularReason : LinkedFile.outsideReason
        let sheet = try layout.read(stylesheet: href)
        #expect(sheet.warnings == ["page.html: the stylesheet \"\(href)\" is not read: it \(reason)"])
        let lexicon = try layout.read(lexicon: href)
        #expect(lexicon.pronunciationNotes.map(\.reason) == ["the linked pronunciation lexicon \(reason)"])
    }

    @Test func aSourceOrAManifestsFileThatIsNoRegularFileIsRefusedWithoutBlocking() throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        for path in ["/dev/zero", layout.job.appendingPathComponent("fifo").path, layout.job.path] {
            let url = URL(fileURLWithPath: path)
            for format in Source.Format.allCases {
                let error = try #require(throws: DocumentError.self) { try DocumentReader().read([Source(url: url, format: format)]) }
                #expect(error.message == "cannot read the file: it \(LinkedFile.notRegularReason)", "\(path) as \(format)")
            }
            let lexicon = try #require(throws: DocumentError.self) { try LexiconFile.load(url) }
            #expect(lexicon.message == "cannot read the lexicon: it \(LinkedFile.notRegularReason)")
        }
    }

    /// An EPUB's links stay inside its zip: a link out of it is the same refusal whether or not the
    /// file it names exists on the reading host, and a device is never opened.
    @Test func anEPUBsLinksStayInsideItsZip() throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        func outcome(_ href: String) throws -> String {
            let epub = layout.job.appendingPathComponent("book-\(UUID().uuidString).epub")
            try writeEPUB(epub, documents: [("OEBPS/one.xhtml", """
                <?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title>\
                <link rel="stylesheet" href="\(href)"/><link rel="pronunciation" href="\(href)"/></head>\
                <body><div class="rh">Running Head</div><p>From Macon we went on for many miles and many days.</p></body></html>
                """)], nav: [("One", "one.xhtml")])
            do {
                let book = try EPUBReader().read(epubSource(epub)).book
                #expect(book.chapters.flatMap(\.blocks).allSatisfy { $0.pronunciations.isEmpty }, "\(href) was read")
                #expect(Self.words(book).contains("Running Head"), "\(href) was read")
                return book.pronunciationNotes.map(\.reason).joined(separator: "; ")
            } catch let error as DocumentError {
                return error.message.replacingOccurrences(of: href, with: "HREF")
            }
        }
        let none = "/etc/lectern-\(UUID().uuidString)"
        #expect(try outcome("/etc/passwd") == outcome(none))
        #expect(try outcome("../../../../etc/passwd") == outcome("../../../.." + none))
        #expect(try outcome("../../../../etc/passwd").contains("points outside the book"))
        #expect(try outcome(layout.outside.appendingPathComponent("names.pls").path) == outcome(layout.outside.appendingPathComponent("none.pls").path))
        #expect(try !outcome("/dev/zero").isEmpty)
    }

    @Test func aLinkIsResolvedThroughEveryLinkAndDotDotBeforeItIsJudged() throws {
        let layout = try Layout()
        defer { layout.dir.remove() }
        let job = LinkedFile(roots: [layout.job], maxBytes: 100)
        #expect(try job.read(layout.job.appendingPathComponent("sheet.css")) == Data(Layout.css.utf8))
        #expect(try job.read(layout.job.appendingPathComponent("up/job/sheet.css")) == Data(Layout.css.utf8))
        for path in ["escape-sheet.css", "escape-none.css", "up/outside/sheet.css", "../outside/none.css", "up/up/up/etc/passwd"] {
            #expect(throws: LinkedFile.Refusal(kind: .outside, reason: LinkedFile.outsideReason), "\(path)") {
                try job.read(layout.job.appendingPathComponent(path))
            }
        }
        #expect(throws: LinkedFile.Refusal.self) { try LinkedFile(roots: [layout.job], maxBytes: 10).read(layout.job.appendingPathComponent("names.pls")) }
        let loop = layout.job.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        #expect(throws: LinkedFile.Refusal(kind: .missing, reason: "does not exist")) { try job.read(loop) }
    }
}
