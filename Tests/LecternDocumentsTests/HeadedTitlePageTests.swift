import LecternCore
import Testing
@testable import LecternDocuments

/// A title page set wholly in headings (`<h2>JOSEPH JACOBS</h2>`, `<h4>ILLUSTRATED BY</h4>`, a
/// dedication, a half-title) is the title page, skipped as a plain text's is: the first chapter is
/// the heading over the first text (`Preface`). A marked heading over a list of the pictures
/// (`Full-page Illustrations`) is skipped with that list, no chapter.
struct HeadedTitlePageTests {
    static let prose = "<p>From the extreme West of the Indo-European world, we go this year to the extreme East, from the soft rain to the sun.</p>"

    @Test func aTitlePageInHeadingsIsNoChapter() throws {
        let tales = ["The Lion and the Crane", "The Broken Pot", "The Magic Fiddle"]
        let front = "<h2>INDIAN</h2><h1>Fairy Tales</h1><h4><i>SELECTED AND EDITED BY</i></h4><h2>JOSEPH JACOBS</h2>"
            + "<h2>EDITOR OF \"FOLK LORE\"</h2><h4><i>ILLUSTRATED BY</i></h4><h3>JOHN D. BATTEN</h3><h3>LONDON</h3><h3>1892</h3><hr/>"
            + "<h4><i>TO</i></h4><h2><i>MY DEAR LITTLE PHIL</i></h2><hr/><h3>INDIAN<br/>FAIRY TALES</h3><hr/>"
        let contents = "<h2>Contents</h2><table>"
            + tales.enumerated().map { "<tr><td><a href=\"#t\($0.offset)\">\($0.element.uppercased())</a></td><td>\($0.offset * 4 + 1)</td></tr>" }.joined()
            + "</table>"
        let pictures = "<h2>Full-page Illustrations</h2><table>"
            + [0, 2].map { "<tr><td><a href=\"#t\($0)\">\(tales[$0].uppercased())</a></td><td>\($0 * 4 + 2)</td></tr>" }.joined() + "</table>"
            + "<p>[Plates and initials are from blocks supplied by the engravers of Covent Garden.]</p>"
        let body = tales.enumerated().map { "<h2 id=\"t\($0.offset)\">\($0.element)</h2>" + Self.prose }.joined()
        let book = try HTMLPage.body(front + "<h2>Preface</h2>" + Self.prose + contents + pictures + body)
        #expect(book.chapters.map(\.title) == ["Preface"] + tales)
        let skipped = book.skipped.map(\.reason)
        #expect(skipped.filter { $0 == SkipReason.titlePage }.count >= 8, "\(book.skipped.map { ($0.reason, $0.text) })")
        #expect(skipped.filter { $0 == SkipReason.illustrationsList }.count == 2, "\(skipped)")
    }
}
