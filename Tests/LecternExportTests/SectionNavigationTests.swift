import Foundation
import Testing
@testable import LecternExport

/// A chapter's sections (a diary's entries, its letters) are listed a level under the chapter in
/// a narrated EPUB's navigation, and marked in the sidecar (issue 39, item 2).
@Suite struct SectionNavigationTests {
    @Test func aChaptersSectionsAreNestedUnderIt() {
        let nav = EPUBPackageDocument.navigation(
            title: "Diary", language: "en",
            chapters: [("CHAPTER I", "text/chapter-001.xhtml", nil), ("CHAPTER II", "text/chapter-002.xhtml", nil)],
            sections: [[(title: "Dr. Seward's Diary.", href: "text/chapter-001.xhtml#p5"),
                        (title: "Letter, Mina to Lucy.", href: "text/chapter-001.xhtml#p9")], []])
        let list = nav[nav.range(of: "<ol>\n")!.upperBound...]
        #expect(list.hasPrefix("""
            <li><a href="text/chapter-001.xhtml">CHAPTER I</a>
            <ol>
            <li><a href="text/chapter-001.xhtml#p5">Dr. Seward&#39;s Diary.</a></li>
            <li><a href="text/chapter-001.xhtml#p9">Letter, Mina to Lucy.</a></li>
            </ol>
            </li>
            <li><a href="text/chapter-002.xhtml">CHAPTER II</a></li>
            </ol>
            """))
    }

    @Test func theSidecarMarksASectionsHeading() throws {
        let json = #"{"kind":"heading","text":"Dr. Seward's Diary.","voice":"en","start":0,"end":10,"sentences":[],"section":true}"#
        let paragraph = try JSONDecoder().decode(ParagraphTiming.self, from: Data(json.utf8))
        #expect(paragraph.section == true)
        var plain = paragraph
        plain.section = nil
        #expect(!String(decoding: try JSONEncoder().encode(plain), as: UTF8.self).contains("section"))
    }
}
