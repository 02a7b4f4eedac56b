import LecternCore
import Testing
@testable import LecternDocuments

/// The editor's notes at the back of a collection (`NOTES AND REFERENCES`), one for each tale under
/// the tale's number and title (`I. THE LION AND THE CRANE.`), are notes, not the book's chapters:
/// the tales, under their own titles, are; the notes' numbers are section headings in the notes.
struct BackNotesTests {
    static let prose = "Once upon a time there was a crane who lived by a river, and every day she went out\nto look for food along the banks, and every evening she came home again.\n"

    static func tale(_ title: String) -> String {
        "\n\n\n\n" + title + "\n\n\n" + Array(repeating: prose, count: 4).joined(separator: "\n")
    }

    static let titles = ["The Lion and the Crane", "The Broken Pot", "The Magic Fiddle", "The Talkative Tortoise"]

    static var text: String {
        let contents = "CONTENTS\n\n" + ["I.      THE LION AND THE CRANE        1", "II.     THE BROKEN POT                5",
                                          "III.    THE MAGIC FIDDLE              9", "IV.     THE TALKATIVE TORTOISE       13",
                                          "        NOTES AND REFERENCES         20"].joined(separator: "\n\n")
        let notes = ["I. THE LION AND THE CRANE.", "II. THE BROKEN POT.", "III. THE MAGIC FIDDLE.", "IV. THE TALKATIVE TORTOISE."].map {
            "\n\n" + $0 + "\n\n_Source._--Fausboll, _Five Jatakas_, Copenhagen, 1861, pp. 35-8, text and translation\nof the tale, with the parallels that I have found.\n"
        }.joined()
        return "PREFACE\n\n" + prose + "\n" + contents + titles.map(tale).joined()
            + "\n\n\n\nNotes and References\n\n\n" + prose + notes
    }

    @Test func numberedNotesAtTheBackAreNoChapters() throws {
        let book = try PlainTextReader().read(text: Self.text, source: textSource())
        let chapters = book.chapters.map(\.title)
        #expect(chapters == ["PREFACE"] + Self.titles + ["Notes and References"], "\(chapters)")
        // Each note's number and title heads a section of the notes.
        let notes = try #require(book.chapters.last)
        #expect(notes.blocks.filter { $0.kind == .heading }.map(\.text).contains("II. THE BROKEN POT."), "\(notes.pairs)")
    }

    @Test func theSameNotesInHTMLAreNoChaptersEither() throws {
        let para = "<p>" + Self.prose.replacingOccurrences(of: "\n", with: " ") + "</p>"
        let tales = Self.titles.map { "<h2>\($0)</h2>" + String(repeating: para, count: 4) }.joined()
        let notes = ["I. THE LION AND THE CRANE.", "II. THE BROKEN POT.", "III. THE MAGIC FIDDLE.", "IV. THE TALKATIVE TORTOISE."].map {
            "<h3>\($0)</h3><p><i>Source.</i>—Fausboll, <i>Five Jatakas</i>, Copenhagen, 1861, pp. 35-8, text and translation of the tale.</p>"
        }.joined()
        let book = try HTMLPage.body("<h1>Fairy Tales</h1><h2>Preface</h2>" + para + tales + "<h2>Notes and References</h2>" + para + notes)
        let chapters = book.chapters.map(\.title)
        #expect(chapters == ["Preface"] + Self.titles + ["Notes and References"], "\(chapters)")
    }
}
