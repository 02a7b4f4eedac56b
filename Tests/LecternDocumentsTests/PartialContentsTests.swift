import LecternCore
import Testing
@testable import LecternDocuments

/// A contents list that names only some of the book's chapters — a title page's list of the
/// `SUBJECTS` a pamphlet treats, with no word of its introduction or appendix — still names
/// chapters, and the page's headings stay chapters where they would in a plain text: the last
/// subject headed in other words (`… REFLEXIONS` for `… Reflections`), and a heading whose words name
/// it (`APPENDIX.`), though the list does not — not sections of the last subject.
struct PartialContentsTests {
    static let prose = "<p>Some writers have so confounded the mill with the river as to leave little or no distinction between them, whereas they are different.</p>"

    @Test func unlistedAndRewordedHeadingsStayChapters() throws {
        let subjects = ["Of the Origin of the Mill", "Of the Miller and his Sons", "Thoughts on the present State of the River",
                        "Of the present Ability of the Valley, with some miscellaneous Reflections"]
        let list = "<div><a id=\"Contents\"></a><h2>SUBJECTS</h2></div><ol>"
            + subjects.enumerated().map { "<li><a href=\"#s\($0.offset)\">\($0.element)</a></li>" }.joined() + "</ol>"
        // (The page heads the last subject `… REFLEXIONS`: a spelling the list does not share.)
        let headings = ["INTRODUCTION.", "OF THE ORIGIN OF THE MILL.", "OF THE MILLER AND HIS SONS.", "THOUGHTS ON THE PRESENT STATE OF THE RIVER.",
                        "OF THE PRESENT ABILITY OF THE VALLEY, WITH SOME MISCELLANEOUS REFLEXIONS.", "APPENDIX."]
        let body = headings.enumerated().map { "<h2 id=\"s\($0.offset - 1)\"><a href=\"#Contents\">\($0.element)</a></h2>" + Self.prose }.joined()
        let book = try HTMLPage.body("<h1>COMMON TALK;</h1><p>addressed to the inhabitants of the valley, on the following interesting</p>"
                                     + list + body)
        #expect(book.chapters.map(\.title) == headings)
    }
}
