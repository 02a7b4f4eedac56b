import LecternCore
import Testing
@testable import LecternDocuments

/// An HTML list of the book's pictures (`Full-page Illustrations`), a table of links into the
/// chapters that hold them, names no chapters: a chapter without a picture stays a chapter.
struct IllustrationsListTests {
    @Test func aListOfPicturesIsNoContentsList() throws {
        let para = "<p>Once upon a time there was a crane who lived by a river, and every day she went out to look for food along the banks.</p>"
        let tales = ["The Lion and the Crane", "The Broken Pot", "The Magic Fiddle", "The Talkative Tortoise"]
        let pictured = [0, 2, 3]
        let list = "<h2>Full-page Illustrations</h2><table>"
            + pictured.map { "<tr><td><a href=\"#t\($0)\">\(tales[$0].uppercased())</a></td></tr>" }.joined() + "</table>"
        let body = tales.enumerated().map { "<h2 id=\"t\($0.offset)\">\($0.element)</h2>" + String(repeating: para, count: 3) }.joined()
        let book = try HTMLPage.body("<h1>Fairy Tales</h1>" + list + body)
        // (The list's title, with nothing read under it, goes with the first chapter's heading.)
        let titles = book.chapters.map(\.title)
        #expect(titles.count == 4 && zip(titles, tales).allSatisfy { $0.hasSuffix($1) }, "\(titles)")
    }
}
