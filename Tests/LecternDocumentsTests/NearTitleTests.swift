import LecternCore
import Testing
@testable import LecternDocuments

/// A contents list's next entry is the chapter whose title line gives it in other words — the page's
/// `A Lac of Rupees for a Bit of Advice` for the list's `A LAC OF RUPEES FOR A PIECE OF ADVICE` — when
/// nothing further on names it exactly: that story is a chapter, not more of the one before it.
struct NearTitleTests {
    static let prose = "The Bodhisatta was at one time born in the region of Himavanta as a white\ncrane, and a lion there had a bone stuck in his throat one fine day.\n\n"

    @Test func theNextEntryInOtherWordsIsItsChapter() throws {
        let titles = ["The Lion and the Crane", "The Broken Pot", "A Lac of Rupees for a Bit of Advice", "The Magic Fiddle"]
        let listed = ["I.      THE LION AND THE CRANE                   1", "II.     THE BROKEN POT                           6",
                      "III.    A LAC OF RUPEES FOR A PIECE OF ADVICE   11", "IV.     THE MAGIC FIDDLE                        16"]
        let body = titles.map { "\n\n\n\($0)\n\n[Illustration]\n\n" + String(repeating: Self.prose, count: 3) }.joined()
        let text = "INDIAN TALES\n\n\n\nCONTENTS\n\n" + listed.joined(separator: "\n\n") + "\n\n\n" + body
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == titles)
    }

    @Test(arguments: [
        ("A LAC OF RUPEES FOR A PIECE OF ADVICE", "A Lac of Rupees for a Bit of Advice", true),
        ("SUN, MOON, AND WIND GO OUT TO DINNER", "How Sun, Moon, and Wind went out to Dinner", true),
        ("THE KING OF THE BIRDS", "The Queen of the Fishes", false),
        ("THE BROKEN POT", "The Broken Jar", false),
    ])
    func aTitleInOtherWords(listed: String, page: String, near: Bool) throws {
        let entry = try #require(ContentsEntry.parse(listed))
        #expect(entry.nearlyMatches(try #require(ContentsEntry.parse(page))) == near)
    }
}
