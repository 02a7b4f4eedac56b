import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// What a narrator reads before the first chapter, and what a transcriber's codes stand for
/// (issue 24, item 4): a dedication and an epigraph are read, only a real title page is skipped;
/// errata after the end are skipped with their reason; accent codes are heard as letters.
struct FrontMatterReadingTests {
    static func read(_ text: String) throws -> Book { try PlainTextReader().read(text: text, source: textSource()) }
    static let body = "CHAPTER I.\n\nIt was a dark and stormy night, and the rain fell in torrents upon the town below.\n"

    @Test func aDedicationAndAnEpigraphAreReadTheTitlePageIsNot() throws {
        let book = try Self.read("""
            THE STORM

            BY ANN ODE

            LONDON: SMITH, ELDER & CO. 1891

            TO MY MOTHER

            "The sea is calm to-night. The tide is full, the moon lies fair upon the straits."

            --Matthew Arnold.

            \(Self.body)
            """)
        let read = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(read.prefix(3) == ["TO MY MOTHER", "\"The sea is calm to-night. The tide is full, the moon lies fair upon the straits.\"",
                                   "--Matthew Arnold."])
        #expect(book.skipped.filter { $0.reason == .titlePage }.map(\.text) == ["THE STORM", "BY ANN ODE", "LONDON: SMITH, ELDER & CO. 1891"])
    }

    @Test func versesWithTheirAttributionAreAnEpigraphAndADedicationTitleKeepsItsText() throws {
        let book = try Self.read("THE STORM\n\nDEDICATION\n\nFor those at sea.\n\nRoll on, thou deep and dark blue Ocean, roll!\n\n—Byron.\n\n" + Self.body)
        #expect(book.chapters.flatMap(\.blocks).map(\.text).prefix(4) == ["DEDICATION", "For those at sea.",
                                                                           "Roll on, thou deep and dark blue Ocean, roll!", "—Byron."])
        #expect(book.skipped.map(\.text) == ["THE STORM"])
    }

    /// A poem before the first chapter under a title that is read (`TO THE …`) is read, stanzas and
    /// all, not its title alone with its verses skipped as a title page; the title page is not.
    @Test func aPoemUnderAReadTitleIsReadWithItsStanzas() throws {
        let book = try Self.read("""
            THE STORM

            BY ANN ODE

            LONDON: SMITH, ELDER & CO. 1891

                  TO THE DOUBTFUL READER

                  If tales of wind and tales of rain,
                     Of ships that sank and men that fled,
                  Can please you as they pleased me then,
                     Then read on, friend, and go to bed.

                  --And if they cannot, close the book;
                     The sea will keep what once it took.

            \(Self.body)
            """)
        let read = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(read.first == "TO THE DOUBTFUL READER")
        #expect(read.contains { $0.hasPrefix("If tales of wind") } && read.contains { $0.hasPrefix("--And if they cannot") })
        #expect(book.skipped.filter { $0.reason == .titlePage }.map(\.text) == ["THE STORM", "BY ANN ODE", "LONDON: SMITH, ELDER & CO. 1891"])
    }

    @Test func errataAfterTheEndAreSkippedWithTheirReason() throws {
        let book = try Self.read(Self.body + "\nTHE END.\n\n\nERRATA\n\nPage 12, for \"colour\" read \"color\".\n\nPage 40, line 3: a comma for a period.\n")
        #expect(book.skipped.map(\.reason).contains(.errata))
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.text.contains("colour") })
    }

    @Test func aGlossaryAfterTheLastChapterIsBackMatterOneBeforeItIsRead() throws {
        let glossary = "GLOSSARY\n\nBairn, a child.\n\nKen, to know.\n\nLoch, a lake.\n"
        let after = try Self.read(Self.body + "\n\n" + glossary)
        #expect(after.skipped.contains { $0.reason == .glossary && $0.text.contains("Bairn") })
        #expect(!after.chapters.flatMap(\.blocks).contains { $0.text.contains("Bairn") })
        let before = try Self.read("CHAPTER I.\n\nThe first chapter's text, long enough to be read as running text here.\n\n" + glossary
            + "\nCHAPTER II.\n\nThe second chapter's text, which follows the glossary, is read as well, all of it.\n")
        #expect(before.chapters.flatMap(\.blocks).contains { $0.text.contains("Bairn") }, "a glossary inside the book is read")
    }

    @Test(arguments: [("r['e]sum['e]", "résumé"), ("na[:i]ve", "naïve"), ("fa[,c]ade", "façade"), ("ma[~n]ana", "mañana"),
                      ("c[oe]ur", "cœur"), ("[`a]", "à"), ("Mus[e']e", "Musée")])
    func accentCodesAreHeardAsTheirLetters(written: String, heard: String) throws {
        let book = try Self.read("CHAPTER I.\n\nShe sent her \(written) to the office, as one does when the rain falls.\n")
        let block = try #require(book.chapters.first?.blocks.last)
        #expect(block.text.contains(written), "the text keeps its codes")
        let word = try #require(block.pronunciations.first { $0.spoken == heard }, "\(block.pronunciations)")
        #expect((block.text as NSString).substring(with: NSRange(location: word.offset, length: word.length)) == written)
        #expect(!block.pronunciations.contains { $0.spoken == " " && $0.offset < word.end && word.offset < $0.end }, "no letter silenced")
    }
}
