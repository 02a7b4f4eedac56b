import LecternCore
import Testing
@testable import LecternDocuments

/// A contents entry that adds a remark in brackets to the title its heading shows (`The Furry Day
/// Song (Supplement)` over `THE FURRY DAY SONG`) names that heading, as exactly as its title alone would.
struct ListedRemarkTests {
    @Test(arguments: [
        ("The Furry Day Song (Supplement)  52", "THE FURRY DAY SONG", true),
        ("Preface [to the Second Edition]", "PREFACE", true),
        ("The Mermaid of Zennor (a Cornish legend)", "The Mermaid of Zennor", true),
        ("The Furry Day Song (Supplement)", "THE FURRY DANCE", false),
        ("Notes (A)", "Notes (B)", false),
    ])
    func aRemarkInBracketsIsNotPartOfTheTitle(entry: String, heading: String, matches: Bool) throws {
        let listed = try #require(ContentsEntry.parse(entry))
        let headed = try #require(ContentsEntry.parse(heading))
        #expect(listed.matches(headed, exactly: true) == matches)
        #expect(headed.matches(listed, exactly: true) == matches)
    }
}
