import Foundation
import Testing
import LecternCore
@testable import LecternDocuments

/// The documents' own pronunciation hints: `ssml:ph` attributes and linked PLS lexicons.
struct PronunciationReadingTests {
    static func hints(_ block: Block) -> [String: String] {
        var result: [String: String] = [:]
        for p in block.pronunciations { result[String(decoding: Array(block.text.utf16)[p.offset..<p.end], as: UTF16.self)] = p.spoken }
        return result
    }

    @Test(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
    func georgiaHonoursItsPLSLexiconAndSSMLPhonemes() throws {
        let url = Corpus.file("epub/idpf-georgia-pls-ssml.epub")
        let book = try EPUBReader().read(epubSource(url)).book
        let blocks = book.chapters.flatMap(\.blocks)
        let all = blocks.reduce(into: [String: String]()) { $0.merge(Self.hints($1)) { a, _ in a } }
        // From the PLS lexicon (IPA converted): Macon ˈmeɪkən, Savannah səˈvænə.
        #expect(all["Macon"] == "[[m'eIk@n]]")
        #expect(all["Savannah"] == "[[s@v'an@]]")
        // From ssml:ph attributes: "N." said as north, "30°" as thirty degrees.
        #expect(all["N."] == "[[nO@T]]")
        #expect(all["30°"] == "[[T'3:ti dIgr'i:z]]")
        #expect(book.pronunciationNotes.isEmpty, "\(book.pronunciationNotes)")
        // Hints never overlap and lie inside their block.
        for block in blocks {
            for (a, b) in zip(block.pronunciations, block.pronunciations.dropFirst()) { #expect(a.end <= b.offset) }
            #expect(block.pronunciations.allSatisfy { $0.offset >= 0 && $0.end <= block.text.utf16.count })
        }
        // `pronunciation: false` reads the same text without them.
        let off = try EPUBReader().read(epubSource(url, rules: ReadingRules(pronunciation: false))).book
        #expect(off.chapters.flatMap(\.blocks).allSatisfy { $0.pronunciations.isEmpty })
        #expect(off.chapters.flatMap(\.blocks).map(\.text) == blocks.map(\.text))
    }

    @Test func aPLSLexiconReportsWhatEspeakCannotSay() throws {
        let pls = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" alphabet="ipa" xml:lang="en" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon">
              <lexeme><grapheme>tomato</grapheme><grapheme>Tomato</grapheme><phoneme>təˈmɑːtoʊ</phoneme></lexeme>
              <lexeme><grapheme>Rouen</grapheme><phoneme>ʀuɑ̃</phoneme></lexeme>
              <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
              <lexeme><grapheme>Lectern</grapheme><phoneme alphabet="x-sampa">"lEkt@n</phoneme></lexeme>
              <lexeme><grapheme>eSpeak</grapheme><phoneme alphabet="x-espeak">'i:spi:k</phoneme></lexeme>
            </lexicon>
            """
        let lexicon = try PLSLexicon.parse(Data(pls.utf8), name: "test.pls")
        #expect(lexicon.language == "en")
        #expect(lexicon.entries.map(\.spoken) == ["[[t@m'A:toU]]", "[[t@m'A:toU]]", "World Wide Web Consortium", "[['i:spi:k]]"])
        #expect(lexicon.notes.map(\.text) == ["Rouen", "Lectern"])
        #expect(lexicon.notes.first?.reason.contains("no espeak-ng equivalent for ʀ") == true, "\(lexicon.notes)")
        #expect(lexicon.notes.last?.reason.contains("alphabet \"x-sampa\" is not supported") == true, "\(lexicon.notes)")

        let error = try #require(throws: DocumentError.self) { try PLSLexicon.parse(Data("<lexicon><lexeme>".utf8), name: "broken.pls") }
        #expect(error.description.hasPrefix("broken.pls: the pronunciation lexicon is malformed XML"))
    }

    @Test func anHTMLPageLinksItsLexiconAndMarksPhonemesInline() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        _ = try dir.write("names.pls", bytes: Array("""
            <lexicon version="1.0" alphabet="ipa" xml:lang="en" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon">
              <lexeme><grapheme>Macon</grapheme><phoneme>ˈmeɪkən</phoneme></lexeme>
            </lexicon>
            """.utf8))
        let page = try dir.write("page.html", bytes: Array("""
            <html lang="en" xmlns:ssml="http://www.w3.org/2001/10/synthesis"><head>
            <link rel="pronunciation" type="application/pls+xml" href="names.pls"/>
            <link rel="pronunciation" href="missing.pls"/></head>
            <body><p>From Macon go <span ssml:ph="nɔrθ">N.</span> for <span ssml:ph="ʀ">R.</span> miles.</p></body></html>
            """.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "page.html", format: .html))
        let block = try #require(book.chapters.first?.blocks.first)
        #expect(Self.hints(block) == ["Macon": "[[m'eIk@n]]", "N.": "[[nO@T]]"])
        #expect(book.pronunciationNotes.map(\.text) == ["missing.pls", "R."], "\(book.pronunciationNotes)")
    }
}
