import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// A book given alone names itself: its metadata, header or title page, its file's name last.
@Suite struct BookNameTests {
    static let chapter = "CHAPTER I.\n\nIt is a truth universally acknowledged, that a single man in possession\nof a good fortune, must be in want of a wife.\n"

    static func named(_ file: String, _ text: String) throws -> BookMetadata {
        let dir = try TempDir()
        defer { dir.remove() }
        return BookName.of([try dir.write(file, bytes: Array(text.utf8))])
    }

    @Test func aGutenbergHeaderNamesTheBook() throws {
        let text = "The Project Gutenberg eBook of Pride and Prejudice\n\nTitle: Pride and Prejudice\n\nAuthor: Jane Austen\n\n"
            + "*** START OF THE PROJECT GUTENBERG EBOOK PRIDE AND PREJUDICE ***\n\n" + Self.chapter
        let m = try Self.named("pg1342.txt", text)
        #expect(m.title == "Pride and Prejudice" && m.author == "Jane Austen")
    }

    @Test func aPlainTitlePageNamesTheBook() throws {
        let m = try Self.named("book.txt", "PRIDE AND PREJUDICE\n\nBy Jane Austen\n\n\n" + Self.chapter)
        #expect(m.title == "Pride and Prejudice" && m.author == "Jane Austen")
    }

    @Test func aTitlePageOverSeveralLinesWithByAloneNamesTheBook() throws {
        let m = try Self.named("book.txt", "[Illustration: the publisher]\n\n   PRIDE.\n     and\n  PREJUDICE\n\n    by\n  Jane Austen,\n\n\n" + Self.chapter)
        #expect(m.title == "Pride and Prejudice" && m.author == "Jane Austen")
    }

    @Test(arguments: ["The Project Gutenberg eBook of Pride and Prejudice, by Jane Austen", "Pride and Prejudice, by Jane Austen"])
    func aGutenbergPageTitleGivesTitleAndAuthor(title: String) throws {
        let html = "<html><head><title>\n  \(title)\n</title></head>"
            + "<body><h2>CHAPTER I.</h2><p>It is a truth universally acknowledged.</p></body></html>"
        let m = try Self.named("pg1342-images.html", html)
        #expect(m.title == "Pride and Prejudice" && m.author == "Jane Austen")
    }

    @Test func dublinCoreMetaNamesAPage() throws {
        let html = #"<html><head><title>Home | A Site</title><meta name="DC.title" content="Emma"/><meta name="dc.creator" content="Jane Austen"/></head>"#
            + "<body><h2>CHAPTER I.</h2><p>Emma Woodhouse, handsome, clever, and rich.</p></body></html>"
        let m = try Self.named("page.html", html)
        #expect(m.title == "Emma" && m.author == "Jane Austen")
    }

    @Test func anEPUBsMetadataNamesIt() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        #expect(BookName.of([try HugeElementReadingTests.epub(dir, "p", 10)]).title == "Huge")
    }

    @Test func aBookThatNamesNothingIsNamedByItsFile() throws {
        let m = try Self.named("my_little-book.txt", Self.chapter)
        #expect(m.title == "my little book" && m.author == nil)
    }
}
