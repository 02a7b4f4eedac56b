import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Chapters are the book's own series (issue 39, item 2): in a novel told in diary entries and
/// letters, the numbered chapters are the chapters and the entries' italic headings are sections
/// inside them, whether or not an entry's heading repeats a title the contents list gives a
/// chapter; a contents list that names the entries makes them the chapters; a heading with no
/// text before the next one opens that one.
struct SectionHeadingTests {
    static let prose = "The morning was grey, and the wind came in cold from the sea over the harbour.\n"
        + "I wrote all that I had seen in my book, and then I went down to breakfast at eight."

    /// A diary novel as Project Gutenberg sets it: a contents list whose entries repeat the
    /// diarists' names, numbered chapters titled on the next line, entries headed in italics.
    static let diaryText = """
        CONTENTS

        CHAPTER I

        Jonathan Harker's Journal                    1

        CHAPTER II

        Dr. Seward's Diary                          14

        CHAPTER III

        Dr. Seward's Diary                          26

        CHAPTER IV

        Dr. Seward's Diary                          38



        CHAPTER I

        JONATHAN HARKER'S JOURNAL


        \(prose)

        \(prose)

        _Dr. Seward's Diary._

        \(prose)

        _Letter, Mina Murray to Lucy Westenra._

        \(prose)



        CHAPTER II

        DR. SEWARD'S DIARY


        \(prose)

        _Mina Murray's Journal._

        \(prose)



        CHAPTER III

        DR. SEWARD'S DIARY


        \(prose)

        _Dr. Seward's Diary._

        \(prose)



        CHAPTER IV

        DR. SEWARD'S DIARY


        \(prose)

        """

    /// The chapters as "title: section, section …".
    static func outline(_ book: Book) -> [String] {
        book.chapters.map { chapter in
            let sections = chapter.blocks.indices.filter { chapter.opensSection(at: $0) }.map { chapter.blocks[$0].text }
            return chapter.title + (sections.isEmpty ? "" : ": " + sections.joined(separator: ", "))
        }
    }

    @Test func diaryHeadingsInsideNumberedChaptersAreSectionsInPlainText() throws {
        let book = try PlainTextReader().read(text: Self.diaryText, source: textSource())
        #expect(Self.outline(book) == [
            "CHAPTER I JONATHAN HARKER'S JOURNAL: Dr. Seward's Diary., Letter, Mina Murray to Lucy Westenra.",
            "CHAPTER II DR. SEWARD'S DIARY: Mina Murray's Journal.",
            "CHAPTER III DR. SEWARD'S DIARY: Dr. Seward's Diary.",
            "CHAPTER IV DR. SEWARD'S DIARY",
        ])
        // The chapter's own headings open it; no two-word chapter.
        #expect(book.chapters[1].blocks.prefix(2).map(\.kind) == [.heading, .heading])
        #expect(!book.chapters[1].opensSection(at: 1))
    }

    /// The same novel as a Gutenberg HTML page: `<h2>` chapters, a contents table, entries in
    /// `<p><i>…</i></p>`.
    @Test func diaryHeadingsInsideNumberedChaptersAreSectionsInHTML() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let p = "<p>" + Self.prose + "</p>\n"
        let rows = [("I", "Jonathan Harker’s Journal"), ("II", "Dr. Seward’s Diary"), ("III", "Dr. Seward’s Diary"), ("IV", "Dr. Seward’s Diary")]
        var html = "<html><head><title>Diary</title></head><body>\n<h2><a id=\"CONTENTS\"></a>CONTENTS</h2>\n<table>\n"
        for (n, title) in rows {
            html += "<tr><td><a href=\"#CHAPTER_\(n)\">CHAPTER \(n)</a></td></tr>\n<tr><td>\(title)</td><td>1</td></tr>\n"
        }
        html += "</table>\n"
        html += "<h2><a id=\"CHAPTER_I\"></a>CHAPTER I<br/><br/>JONATHAN HARKER’S JOURNAL</h2>\n" + p + p
            + "<p class=\"letra\"><i>Dr. Seward’s Diary.</i></p>\n" + p
        html += "<h2><a id=\"CHAPTER_II\"></a>CHAPTER II<br/><br/>DR. SEWARD’S DIARY</h2>\n" + p
            + "<p class=\"letra\"><i>Mina Murray’s Journal.</i></p>\n" + p
        html += "<h2><a id=\"CHAPTER_III\"></a>CHAPTER III<br/><br/>DR. SEWARD’S DIARY</h2>\n" + p
            + "<p class=\"letra\"><i>Dr. Seward’s Diary.</i></p>\n" + p
        html += "<h2><a id=\"CHAPTER_IV\"></a>CHAPTER IV<br/><br/>DR. SEWARD’S DIARY</h2>\n" + p + "</body></html>\n"
        let page = try dir.write("diary.html", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "diary.html", format: .html, rules: ReadingRules()))
        #expect(Self.outline(book) == [
            "CHAPTER I JONATHAN HARKER’S JOURNAL: Dr. Seward’s Diary.",
            "CHAPTER II DR. SEWARD’S DIARY: Mina Murray’s Journal.",
            "CHAPTER III DR. SEWARD’S DIARY: Dr. Seward’s Diary.",
            "CHAPTER IV DR. SEWARD’S DIARY",
        ])
    }

    /// When the book's contents list names the entries themselves, they are its chapters.
    @Test func entriesTheContentsListNamesAreChapters() throws {
        let text = """
            CONTENTS

            Jonathan Harker's Journal     1
            Mina Murray's Journal        14
            Dr. Seward's Diary           26
            Lucy Westenra's Diary        38



            _Jonathan Harker's Journal._

            \(Self.prose)

            \(Self.prose)

            _Mina Murray's Journal._

            \(Self.prose)

            _Dr. Seward's Diary._

            \(Self.prose)

            _Lucy Westenra's Diary._

            \(Self.prose)

            """
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(Self.outline(book) == ["Jonathan Harker's Journal.", "Mina Murray's Journal.", "Dr. Seward's Diary.", "Lucy Westenra's Diary."])
    }

    /// `CHAPTER XXV` set apart from its title, both tagged as headings: one chapter, both spoken.
    @Test func aHeadingWithNoTextOpensTheNextOne() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let p = "<p>" + Self.prose + "</p>\n"
        let html = "<html><body>\n<h2>CHAPTER XXIV</h2>\n" + p + p + "<h2>CHAPTER XXV</h2>\n<h2>DR. SEWARD’S DIARY</h2>\n" + p + p
            + "<h2>CHAPTER XXVI</h2>\n" + p + p + "</body></html>\n"
        let page = try dir.write("book.html", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "book.html", format: .html, rules: ReadingRules()))
        #expect(book.chapters.map(\.title) == ["CHAPTER XXIV", "CHAPTER XXV DR. SEWARD’S DIARY", "CHAPTER XXVI"])
        #expect(book.chapters[1].blocks.prefix(2).map(\.text) == ["CHAPTER XXV", "DR. SEWARD’S DIARY"])
    }

    /// In a play an italic line is a stage direction, never a section's heading.
    @Test func anItalicLineInAPlayStaysADirection() throws {
        var text = "ACT I.\n\n"
        for k in 0..<12 {
            text += "ROPER.\n\nWell, Farncombe, what news of the town today? \(k)\n\nFARNCOMBE.\n\nNone at all, sir, none that I know.\n\n"
        }
        text += "_Enter Mrs. Upjohn._\n\nROPER.\n\nAh, here she is at last, and late as ever.\n"
        let book = try PlainTextReader().read(text: text, source: textSource())
        let blocks = book.chapters.flatMap(\.blocks)
        #expect(blocks.contains { $0.kind == .stageDirection && $0.text == "Enter Mrs. Upjohn." })
        #expect(!book.chapters.contains { chapter in chapter.blocks.indices.contains { chapter.opensSection(at: $0) } })
    }
}
