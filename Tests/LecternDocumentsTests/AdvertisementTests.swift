import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A publisher's advertisements after THE END are skipped with their reason, with or without prices
/// (issue 24, item 4); an afterword, a postscript or notes after THE END are read.
struct AdvertisementTests {
    static let story = """
        CHAPTER I.

        It was a dark and stormy night, and the rain fell in torrents upon the town below.

        CHAPTER II.

        The morning came at last, and with it the end of the storm and of this story.

        THE END.



        """

    /// The summary lines after `THE END.`.
    static func afterTheEnd(_ text: String) -> [String] {
        let s = summary(analysed(text))
        guard let end = s.firstIndex(of: "P: THE END.") else { return s }
        return Array(s[(end + 1)...])
    }

    @Test func aCatalogueWithoutPricesIsSkippedHeadingsAndAll() {
        let ads = """
            BY THE SAME AUTHOR.

            THE SILENT HOUSE. A Novel. Crown 8vo, cloth.

            "A story of singular power."--_Times._

            "Nothing so good has appeared this season."--_Spectator._

            UNIFORM WITH THIS VOLUME.

            THE LOST HEIR. With Illustrations. 2 Vols.

            A WINTER TALE.
            """
        let after = Self.afterTheEnd(Self.story + ads)
        #expect(after.count == 7)
        #expect(after.allSatisfy { $0.hasPrefix("S advertisements: ") }, "\(after)")
    }

    @Test(arguments: ["NEW NOVELS.", "SMITH & SONS’ NEW BOOKS.", "Works by Ann Ode.", "OPINIONS OF THE PRESS.", "NOW READY.", "Also by the same Author:"])
    func aCatalogueHeadingIsEvidenceEnough(heading: String) {
        let after = Self.afterTheEnd(Self.story + "\(heading)\n\nThe Silent House, a novel of the moors, in one volume.\n")
        #expect(after.count == 2 && after.allSatisfy { $0.hasPrefix("S advertisements: ") }, "\(after)")
    }

    @Test func listingsWithoutAHeadingAreSkipped() {
        let ads = """
            THE SILENT HOUSE. By Ann Ode.

            "A story of singular power."--_Athenaeum._

            A WINTER TALE. Fcap. 8vo, with 12 full-page Illustrations.

            The Lost Heir. New Edition.
            """
        let after = Self.afterTheEnd(Self.story + ads)
        #expect(after.count == 4 && after.allSatisfy { $0.hasPrefix("S advertisements: ") }, "\(after)")
    }

    @Test func anAfterwordIsReadAndTheCatalogueAfterItSkipped() {
        let afterword = """
            POSTSCRIPT.

            Since this story was written the old house has been pulled down, and a cloth mill stands where it stood.

            "The old order changeth, yielding place to new."--Tennyson.

            """
        let after = Self.afterTheEnd(Self.story + afterword + "\nNEW NOVELS.\n\nTHE SILENT HOUSE. Crown 8vo.\n")
        #expect(after.count == 5 && !after.prefix(3).contains { $0.hasPrefix("S ") }, "\(after)")
        #expect(after.suffix(2) == ["S advertisements: NEW NOVELS.", "S advertisements: THE SILENT HOUSE. Crown 8vo."])
        let alone = Self.afterTheEnd(Self.story + afterword)
        #expect(alone.count == 3 && !alone.contains { $0.hasPrefix("S ") }, "an afterword alone is read: \(alone)")
    }

    @Test func notesAfterTheEndAreRead() {
        let notes = """
            NOTES.

            Page 12. The inn stood on the Dover road; it was pulled down in 1840.

            Page 40. The first edition of the ballad, in two volumes, is now rare.
            """
        let after = Self.afterTheEnd(Self.story + notes)
        #expect(!after.contains { $0.hasPrefix("S advertisements") }, "\(after)")
    }

    @Test func errataAfterTheEndAreStillErrata() {
        let after = Self.afterTheEnd(Self.story + "ERRATA.\n\nPage 12, for \"colour\" read \"color\".\n")
        #expect(after.allSatisfy { $0.hasPrefix("S errata") }, "\(after)")
    }

    @Test func anAdvertisementPageAfterTheEndIsSkippedInHTML() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let page = try dir.write("page.html", bytes: Array("""
            <html lang="en"><head><title>T</title></head><body>
            <h2>CHAPTER I.</h2><p>It was a dark and stormy night, and the rain fell in torrents upon the town below.</p>
            <h2>CHAPTER II.</h2><p>The morning came at last, and with it the end of the storm and of this story.</p>
            <p class="center">THE END.</p>
            <hr class="chap"/>
            <h3>BY THE SAME AUTHOR.</h3>
            <p>THE SILENT HOUSE. A Novel. Crown 8vo, cloth.</p>
            <p>“A story of singular power.”—<i>Times.</i></p>
            <p>THE LOST HEIR. With Illustrations. 2 Vols.</p>
            </body></html>
            """.utf8))
        let book = try HTMLReader().read(Source(url: page, displayPath: "page.html", format: .html, rules: ReadingRules()))
        let read = book.chapters.flatMap(\.blocks).map(\.text)
        #expect(read.last == "THE END.", "\(read)")
        #expect(book.skipped.filter { $0.reason == .advertisements }.count == 4, "\(book.skipped.map { "\($0.reason): \($0.text)" })")
    }

    /// `THE END` set as a heading, then a publisher's catalogue whose series are headings of their
    /// own over their prices and titles (`<h2>THE BLUE BONNET SERIES</h2>`): the catalogue is
    /// skipped, headings and all; no series is a chapter.
    @Test func aCatalogueOfHeadedSeriesAfterAHeadedTheEndIsSkippedInHTML() throws {
        let series = ["THE BLUE BONNET SERIES", "THE HADLEY HALL SERIES", "RAILROAD SERIES"].map { name in
            "<h2>\(name)</h2><table><tr><td><i>Each large 12mo, cloth decorative, illustrated, per volume</i></td><td><i>$2.00</i></td></tr></table>"
                + "<p>A TEXAS BLUE BONNET. By Caroline E. Jacobs.</p><p>BLUE BONNET IN BOSTON. By Lela Horn Richards.</p>"
        }.joined()
        let book = try HTMLPage.body("""
            <h2>CHAPTER I.</h2><p>It was a dark and stormy night, and the rain fell in torrents upon the town below.</p>
            <h2>CHAPTER II.</h2><p>The morning came at last, and with it the end of the storm and of this story.</p>
            <h2>THE END.</h2><hr/><h2>Selections from</h2><h2>L.C. Page &amp; Company's</h2><h2>Books for Girls</h2>
            """ + series)
        #expect(book.chapters.map(\.title) == ["CHAPTER I.", "CHAPTER II."], "\(book.chapters.map(\.title))")
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.text.contains("BLUE BONNET") || $0.text.contains("SERIES") })
        #expect(book.skipped.contains { $0.reason == .advertisements && $0.text.contains("RAILROAD SERIES") })
    }
}
