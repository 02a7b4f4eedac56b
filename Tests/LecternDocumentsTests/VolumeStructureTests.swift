import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A volume as a listener hears it in every format (issue 39, item 2): an introduction's sections
/// stay its sections though a contents list names them at one level with the chapters; the book's
/// title again over its first chapter is the title page's; a work printed after the book under its
/// own title and author is a chapter of its own; a heading word over a list of links (`SUBJECTS`) is
/// the list's title; a lone `<h1>` title over `<h2>` pieces is no chapter level.
@Suite struct VolumeStructureTests {
    static let prose = "It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked by a violent gust of wind."
    static let paragraph = "<p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals, when it was checked by a violent gust of wind.</p>"

    static func titles(_ text: String) throws -> [String] { try FrontMatterChapterTests.titles(text) }

    @Test func anIntroductionsSectionsListedWithTheChaptersStayItsSections() throws {
        let entries: [(id: String, title: String)] = [
            ("intro", "INTRODUCTION"), ("s1", "YOUTH — 1469-94"), ("s2", "OFFICE — 1494-1512"), ("s3", "THE MAN AND HIS WORKS"),
            ("ded", "DEDICATION"), ("book", "THE BOOK"), ("c1", "CHAPTER I — OF THINGS"), ("c2", "CHAPTER II — OF MORE THINGS"),
            ("c3", "CHAPTER III — OF THE LAST THINGS"),
        ]
        var html = "<h1>THE BOOK</h1><h2>by A. Writer</h2><h2>CONTENTS</h2><ul>"
        html += entries.map { "<li><a href=\"#\($0.id)\">\($0.title)</a></li>" }.joined()
        html += "</ul>"
        for entry in entries {
            html += "<h2 id=\"\(entry.id)\">\(entry.title)</h2>"
            if entry.id != "book" { html += Self.paragraph + Self.paragraph }
        }
        let book = try HTMLPage.body(html)
        #expect(book.chapters.map(\.title) == ["INTRODUCTION", "DEDICATION", "CHAPTER I — OF THINGS", "CHAPTER II — OF MORE THINGS",
                                               "CHAPTER III — OF THE LAST THINGS"])
        let intro = try #require(book.chapters.first)
        #expect(intro.blocks.filter { $0.kind == .heading }.map(\.text).contains("THE MAN AND HIS WORKS"))
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.text == "THE BOOK" })
    }

    @Test func aTitleOverItsAuthorsNameAfterTheChaptersIsAWorkOfItsOwn() throws {
        let text = """
            THE BOOK

            by A. Writer



            CHAPTER I

            \(Self.prose)



            CHAPTER II

            \(Self.prose)



            DESCRIPTION OF THE METHODS ADOPTED BY THE DUKE WHEN
            MEETING HIS CAPTAINS AT THE TOWN

            BY

            A. WRITER


            \(Self.prose)



            THE LIFE OF SOMEONE OF SOMEWHERE

            WRITTEN BY A. WRITER

            \(Self.prose)

            """
        #expect(try Self.titles(text) == ["CHAPTER I", "CHAPTER II", "DESCRIPTION OF THE METHODS ADOPTED BY THE DUKE WHEN MEETING HIS CAPTAINS AT THE TOWN",
                                          "THE LIFE OF SOMEONE OF SOMEWHERE"])
    }

    @Test func aHeadingWordOverAListOfLinksIsItsTitleAndTheBylineUnderTheTitleNoChapter() throws {
        let listed = [("a", "OF THE ORIGIN OF GOVERNMENT."), ("b", "OF MONARCHY."), ("c", "THOUGHTS ON THE PRESENT STATE.")]
        var html = "<h1>PLAIN WORDS</h1><h2>SUBJECTS</h2><ol>" + listed.map { "<li><a href=\"#\($0.0)\">\($0.1)</a></li>" }.joined() + "</ol>"
        html += "<h1>Plain Words</h1><h2>By A. Writer</h2><h2>INTRODUCTION.</h2>" + Self.paragraph
        for (id, title) in listed { html += "<h2 id=\"\(id)\">\(title)</h2>" + Self.paragraph + Self.paragraph }
        let book = try HTMLPage.body(html)
        #expect(book.chapters.map(\.title) == ["INTRODUCTION.", "OF THE ORIGIN OF GOVERNMENT.", "OF MONARCHY.", "THOUGHTS ON THE PRESENT STATE."])
    }

    @Test func aLoneTitleOverSectionsOfTheNextLevelIsNoChapterLevel() throws {
        var html = "<h1>THE LIFE OF A WRITER</h1><p>Edited, with notes</p>"
        for title in ["INTRODUCTORY NOTE", "Letter from a Friend", "Chief Events in his Life"] {
            html += "<h2>\(title)</h2><p class=\"center\">With notes of my life.</p>" + Self.paragraph + Self.paragraph
        }
        let book = try HTMLPage.body(html)
        #expect(book.chapters.map(\.title) == ["INTRODUCTORY NOTE", "Letter from a Friend", "Chief Events in his Life"])
    }

    /// An entry in the titles' column under a numbered one (`  XIV.  Of the Sorrow Songs` / `        The Afterthought`)
    /// is an entry of its own; only a line indented past the title goes on with it.
    @Test func aTitleInTheTitlesColumnUnderANumberedEntryIsAnEntryOfItsOwn() {
        let lines = ["        The Forethought", "    I.  Of Our Spiritual Strivings", "  XIV.  Of the Sorrow Songs", "        The Afterthought",
                     "   XV.  How Jack Sheppard was again", "           captured"]
        let entries = ListedChapters.entries(lines).map { "\($0.number ?? 0) \($0.title ?? "")" }
        #expect(entries == ["0 The Forethought", "1 Of Our Spiritual Strivings", "14 Of the Sorrow Songs", "0 The Afterthought",
                            "15 How Jack Sheppard was again captured"])
    }

    /// A contents table whose chapters' Roman numerals stand in a column of their own beside the links
    /// (`I.` | `Of Our Spiritual Strivings`) is a contents list, as one with page numbers is, though it
    /// names an entry it does not link.
    @Test func aTableOfLinksWithRomanNumeralsBesideThemIsAContentsList() throws {
        let entries = ["The Forethought", "Of Our Spiritual Strivings", "Of the Dawn of Freedom", "Of the Meaning of Progress",
                       "Of the Wings of Atalanta", "Of the Training of Black Men", "Of the Faith of the Fathers", "Of the Coming of John",
                       "The Afterthought"]
        let numerals = ["", "I.", "II.", "III.", "IV.", "V.", "VI.", "VII.", ""]
        let rows = zip(entries, numerals).enumerated().map { n, entry in
            "<tr><td>\(entry.1)&nbsp;&nbsp;</td><td><a href=\"#c\(n)\">\(entry.0)</a></td></tr>"
        }.joined() + "<tr><td></td><td>Selected Bibliography [missing]</td></tr>"
        let chapters = entries.enumerated().map { n, title in "<h3 id=\"c\(n)\">\(title)</h3>" + Self.paragraph + Self.paragraph }.joined()
        let book = try HTMLPage.body("<h1>THE SOULS</h1><table><tr><td>CHAPTER</td><td></td></tr>\(rows)</table>\(chapters)")
        #expect(book.skipped.contains { $0.text.contains("The Forethought") && $0.text.contains("The Afterthought") }, "\(book.skipped.map(\.text))")
        #expect(book.chapters.map(\.title) == entries)
        // The book's title over the list is the title page's, not the list's.
        #expect(book.skipped.contains { $0.text == "THE SOULS" && $0.reason == .titlePage }, "\(book.skipped.map(\.reason))")
    }
}
