import LecternCore
import Testing
@testable import LecternDocuments

/// A contents list that sums up each chapter in a paragraph of phrases under its title, ending in
/// the chapter's page (`… pedants and rhapsodists.   _Page 3_`), is one contents list, synopses and
/// all: no synopsis is read as running text, and no entry (`CHAP. II.` over its title and synopsis)
/// becomes a chapter.
struct ContentsSynopsisTests {
    static let prose = "This book has a purpose, which is as simple as it is plain; and an unpretentious\nscope. It does not aim to edify either the musical professor or the scholar.\n"
    static let titles = ["Introduction", "Recognition of Musical Elements", "The Modern Orchestra"]
    static let numerals = ["I", "II", "III"]
    static let synopsis = ["Purpose and scope of this book--Not written for professional\nmusicians, but for untaught lovers of the art--A warning against\npedants and rhapsodists.",
                           "The dual nature of music--Sense-perception, fancy, and\nimagination--Recognition of Design as Form in its primary\nstages--The crude materials of music.",
                           "Importance of the instrumental band--Some things that can be\nlearned by its study--The orchestral choirs--Disposition of\nthe players--Model bands compared."]

    @Test func aPlainTextListOfSynopsesIsSkipped() throws {
        let contents = (0..<3).map { k in
            "[Sidenote: CHAP. \(Self.numerals[k]).]\n\n_\(Self.titles[k])_\n\n" + Self.synopsis[k] + "                 _Page \(3 + 12 * k)_\n"
        }.joined(separator: "\n\n")
        let chapters = (0..<3).map { k in
            "\n\n\n\n\(Self.numerals[k])\n\n_\(Self.titles[k])_\n\n\n" + Array(repeating: Self.prose, count: 3).joined(separator: "\n")
        }.joined()
        let text = "HOW TO LISTEN\n\n\n\n\nCONTENTS\n\n\n" + contents + "\nINDEX                        _Page 51_\n" + chapters
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.count == 3, "\(book.chapters.map(\.title))")
        let read = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(!read.contains { $0.contains("Purpose and scope") || $0.contains("Sidenote") }, "\(read)")
    }

    @Test func anHTMLListOfSynopsesIsSkipped() throws {
        let contents = (0..<3).map { k in
            "<div class=\"sidenote\"><span class=\"smcap\">Chap. \(Self.numerals[k]).</span></div>"
                + "<p><b><i><a href=\"#c\(k)\">\(Self.titles[k])</a></i></b></p>"
                + "<p>\(Self.synopsis[k]) <a href=\"#Page_\(3 + 12 * k)\"><i>Page \(3 + 12 * k)</i></a></p><p>&#160;</p>"
        }.joined()
        let para = "<p>" + Self.prose.replacingOccurrences(of: "\n", with: " ") + "</p>"
        let chapters = (0..<3).map { k in
            "<h2 id=\"c\(k)\">\(Self.numerals[k])</h2><h2><i>\(Self.titles[k])</i></h2>" + String(repeating: para, count: 3)
        }.joined()
        let book = try HTMLPage.body("<h1>HOW TO LISTEN</h1><h2>CONTENTS</h2>" + contents + "<h2>How to Listen</h2>" + chapters)
        #expect(book.chapters.count == 3, "\(book.chapters.map(\.title))")
        let read = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(!read.contains { $0.contains("Purpose and scope") }, "\(read)")
    }
}
