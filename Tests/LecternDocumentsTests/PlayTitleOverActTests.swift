import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A heading with no text of its own before a part's (an HTML play's title repeated as a heading
/// over its first act) is no chapter (issue 39, items 2 and 3): it is spoken where the act opens,
/// the cast list before it is read at the start of the first scene, and the scenes alone are the
/// chapters, as in the play's plain text.
struct PlayTitleOverActTests {
    static func scene(_ n: String, _ place: String) -> String {
        var html = "<h2>SCENE \(n).</h2><p><i>\(place)</i></p>"
        for i in 1...6 {
            html += "<p><b>Ruodi.</b> Make haste, the storm comes on, the \(i). time.</p>"
                + "<p><b>Kuoni.</b> The lake is rising fast, the \(i). time.</p>"
        }
        return html
    }

    @Test func aPlaysTitleOverItsFirstActIsNoChapter() throws {
        let html = """
            <html><body><h1>WILLIAM TELL.</h1><p>By Friedrich Schiller</p>
            <h2>DRAMATIS PERSONAE.</h2>
            <p>RUODI, a fisherman.</p><p>KUONI, a herdsman.</p><p>WERNI, a huntsman.</p>
            <h2>WILLIAM TELL.</h2>
            <h2>ACT I.</h2>
            \(Self.scene("I", "A rocky shore of the lake."))
            \(Self.scene("II", "The house of Stauffacher."))
            <h2>ACT II.</h2>
            \(Self.scene("I", "The mansion of the Baron."))
            \(Self.scene("II", "A meadow in the moonlight."))
            </body></html>
            """
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("play.htm", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html))
        // (A scene's place may join its title: the scenes alone are the chapters.)
        let titles = book.chapters.map(\.title)
        #expect(titles.count == 4 && titles.allSatisfy { $0.hasPrefix("SCENE ") }, "\(titles)")
        #expect(book.chapters.map(\.part) == ["ACT I.", "ACT I.", "ACT II.", "ACT II."])
        // The cast list, then the title and the act, are read at the first scene's start.
        let texts = book.chapters.first?.blocks.map(\.text) ?? []
        #expect(texts.first == "DRAMATIS PERSONAE.", "\(texts.prefix(8))")
        #expect(texts.contains("WILLIAM TELL."))
    }
}
