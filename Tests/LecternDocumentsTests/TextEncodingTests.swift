import Foundation
import Testing
import LecternCore
import LecternDocuments

/// `encoding:` on plain text: UTF-8 when valid, UTF-16 with its byte-order mark, else
/// Windows-1252 with a warning naming the bytes; a named encoding through the system's converter.
@Suite struct TextEncodingTests {
    func source(_ url: URL, encoding: String = "auto") -> Source {
        var rules = ReadingRules()
        rules.encoding = encoding
        return Source(url: url, format: .text, chapters: ChapterRule(detection: .none), rules: rules)
    }

    func text(_ book: Book) -> String { book.chapters.flatMap(\.blocks).map(\.text).joined(separator: "\n") }

    @Test func oneStrayLatin1ByteInUTF8IsReadWithAWarningNamingItsOffset() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        // "Café — " is UTF-8 (é 2 bytes, — 3 bytes): 10 bytes, then a Latin-1 é (0xE9) at offset 10.
        let url = try dir.write("stray.txt", bytes: Array("Café — ".utf8) + [0xE9] + Array("t\u{E9} end.".utf8))
        let book = try PlainTextReader().read(source(url))
        #expect(text(book) == "Café — été end.", "the UTF-8 stays UTF-8; only the stray byte is Windows-1252")
        #expect(book.warnings.count == 1)
        #expect(book.warnings.first?.contains("byte offset 10") == true, "\(book.warnings)")
    }

    @Test func utf16WithAByteOrderMarkIsRead() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let text = "Œuvres — “quoted” 東京.\n\nSecond paragraph."
        for (name, encoding) in [("le.txt", String.Encoding.utf16LittleEndian), ("be.txt", .utf16BigEndian)] {
            let bom: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            let url = try dir.write(name, bytes: bom + Array(text.data(using: encoding)!))
            let book = try PlainTextReader().read(source(url))
            #expect(self.text(book) == "Œuvres — “quoted” 東京.\nSecond paragraph.", "\(name)")
            #expect(book.warnings.isEmpty)
            #expect(try self.text(PlainTextReader().read(source(url, encoding: "utf-16"))) == self.text(book))
        }
    }

    @Test func aNamedEncodingIsConvertedWithoutAWarning() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("latin1.txt", bytes: [0x52, 0xF4, 0x6C, 0x65, 0x20, 0x80]) // "Rôle " + 0x80
        let latin1 = try PlainTextReader().read(source(url, encoding: "iso-8859-1"))
        #expect(text(latin1) == "Rôle \u{80}")
        #expect(latin1.warnings.isEmpty)
        let windows = try PlainTextReader().read(source(url, encoding: "windows-1252"))
        #expect(text(windows) == "Rôle €")
        let guessed = try PlainTextReader().read(source(url))
        #expect(text(guessed) == "Rôle €", "auto falls back to Windows-1252")
        #expect(guessed.warnings.first?.contains("Windows-1252") == true)
    }

    @Test func anUnknownEncodingIsAnErrorNamingIt() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("x.txt", bytes: Array("x".utf8))
        let error = try #require(throws: DocumentError.self) { try PlainTextReader().read(source(url, encoding: "klingon-8")) }
        #expect(error.message.contains("klingon-8"))
    }

    @Test(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
    func theISO88591EssaysReadWithAutoAndWithTheirEncoding() throws {
        let url = Corpus.file("text/pg16351-critical-and-historical-essays.txt")
        let auto = try PlainTextReader().read(source(url))
        #expect(auto.warnings.count == 1)
        #expect(auto.warnings.first?.contains("Windows-1252") == true)
        let declared = try PlainTextReader().read(source(url, encoding: "iso-8859-1"))
        #expect(declared.warnings.isEmpty)
        for word in ["rôle", "Freischütz", "Händel", "sælig"] {
            #expect(text(declared).contains(word))
            #expect(text(auto).contains(word))
        }
        #expect(try #require(throws: DocumentError.self) { try PlainTextReader().read(source(url, encoding: "utf-8")) }
            .message.contains("invalid UTF-8"))
    }
}
