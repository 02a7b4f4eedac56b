import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A play's synopsis with no title of its own — its acts and scenes, a line or two under each,
/// before the play — is front matter read before the first scene, never chapters (issue 39, item
/// 3, ``PlaySynopsis``): the series of acts and scenes starting again from the first shows it.
struct PlaySynopsisTests {
    static func speeches(_ scene: String) -> String {
        (1...8).map { i in
            "OGRE.\n\nHa, old witch, it is done at last, in \(scene), for the \(i). time!\n\n"
                + "WITCH.\n\nThe charm is brewing in my caldron, in \(scene), for the \(i). time.\n\n"
        }.joined()
    }

    static let synopsis = """
        ACT I.

        SCENE I. In the Witch's Orchard. The Ogre drags the captive Prince to his tower.

        SCENE II. In front of the Orchard. King and Queen bewail their loss.


        ACT II.

        SCENE I. In the Tower Room. The Princess spins the golden thread.



        """

    static var play: String {
        "ACT I.\n\nSCENE I. The Witch bends over her fire.\n\n" + speeches("the orchard")
            + "\n\nSCENE II. Enter King and Queen weeping.\n\n" + speeches("the road")
            + "\n\n\nACT II.\n\nSCENE I. The Tower Room.\n\n" + speeches("the tower")
    }

    @Test func aSynopsisBeforeThePlayIsNoChapters() throws {
        let book = try PlainTextReader().read(text: Self.synopsis + Self.play, source: textSource())
        let titles = book.chapters.map(\.title)
        #expect(titles == ["SCENE I. The Witch bends over her fire.", "SCENE II. Enter King and Queen weeping.", "SCENE I. The Tower Room."],
                "\(titles)")
        // The synopsis is read before the first scene.
        let first = book.chapters.first?.blocks.map(\.text) ?? []
        #expect(first.contains { $0.contains("In the Tower Room. The Princess spins") }, "\(first.prefix(10))")
    }

    /// The same play in HTML: the synopsis under `<h3>` acts, each scene a paragraph whose long
    /// setting follows its numeral (longer than other headings may be).
    @Test func anHTMLPlaysSynopsisAndItsLongSceneLines() throws {
        func scene(_ n: String, _ setting: String, _ place: String) -> String {
            "<p class=\"scene\"><span class=\"sc\">Scene \(n).</span> <i>\(setting)</i></p>"
                + Self.speeches(place).split(separator: "\n", omittingEmptySubsequences: true).map { "<p>\($0)</p>" }.joined()
        }
        let long = "Enter King and Queen weeping. They pace up and down, wringing hands, and showing great signs of grief. "
            + "Godmother enters from opposite side. King speaks."
        let html = """
            <html><body><h1>THE RESCUE OF THE PRINCESS</h1>
            <h3>ACT I.</h3><p>Scene I. In the Witch's Orchard. The Ogre drags the captive Prince to his tower.</p>
            <p>Scene II. In front of the Orchard. King and Queen bewail their loss.</p>
            <h3>ACT II.</h3><p>Scene I. In the Tower Room. The Princess spins the golden thread.</p>
            <h2>ACT I.</h2>
            \(scene("I", "Witch bends over fire in middle of orchard, brewing a charm in her caldron.", "the orchard"))
            \(scene("II", long, "the road"))
            <h2>ACT II.</h2>
            \(scene("I", "Room in the tower.", "the tower"))
            </body></html>
            """
        let book = try HTMLPage.read(html, name: "play.htm")
        let titles = book.chapters.map(\.title)
        #expect(titles.count == 3 && titles.allSatisfy { $0.hasPrefix("Scene ") }, "\(titles)")
        #expect(HeadingCandidate.of("Scene II. " + long)?.isPlayDivision == true)
        #expect(HeadingCandidate.of("It was a long day. " + long) == nil)
    }

    @Test func aPlayWithoutASynopsisKeepsItsScenes() throws {
        let book = try PlainTextReader().read(text: Self.play, source: textSource())
        #expect(book.chapters.count == 3)
    }
}
