import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// A play's cast list (issue 24, item 5) is front matter a narrator reads: before the first act,
/// at the start of its chapter, never a chapter of its own (issue 39, ``PlayFrontMatter``), its
/// names list items (never speaker labels), the note that sets the scene read after them; what
/// follows it before the first act is front matter as ever.
struct PlayCastListTests {
    /// Twelve exchanges between HAMLET and HORATIO: enough for a play.
    static let speeches = (1...12).map { i in
        "HAMLET.\n\nSpeak, I am bound to hear, for the \(i). time.\n\nHORATIO.\n\nSo art thou to revenge, for the \(i). time.\n\n"
    }.joined()

    @Test func aCastListIsListItemsReadBeforeTheFirstAct() throws {
        let text = "HAMLET\n\nA TRAGEDY\n\nBy William Shakespeare\n\n\n\nDRAMATIS PERSONÆ\n\n"
            + "  HAMLET, Prince of Denmark.\n  HORATIO, friend to Hamlet, and a\n    fellow student.\n  GHOST of Hamlet's Father.\n"
            + "  Lords, Ladies, Officers, Soldiers, and other Attendants.\n\n"
            + "SCENE: Elsinore.\n\nPrinted for the Author, 1603.\n\n\nACT I.\n\n" + Self.speeches
        let items = analysed(text)
        let list = summary(items).prefix(12)
        #expect(Array(list) == [
            "S title page: HAMLET", "S title page: A TRAGEDY", "S title page: By William Shakespeare",
            "H chapter: DRAMATIS PERSONÆ",
            "P: HAMLET, Prince of Denmark.", "P: HORATIO, friend to Hamlet, and a fellow student.", "P: GHOST of Hamlet's Father.",
            "P: Lords, Ladies, Officers, Soldiers, and other Attendants.",
            "P: SCENE: Elsinore.", "S title page: Printed for the Author, 1603.", "H chapter: ACT I.", "P: HAMLET.",
        ])
        let kinds = items.compactMap { item -> BlockKind? in if case .paragraph(let p) = item { p.kind } else { nil } }
        #expect(Array(kinds.prefix(6)) == [.listItem, .listItem, .listItem, .listItem, .paragraph, .speaker])

        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(book.chapters.map(\.title) == ["ACT I."])
        #expect(book.chapters[0].part == nil)
        #expect(Array(book.chapters[0].blocks.prefix(7).map(\.kind)) == [.heading, .listItem, .listItem, .listItem, .listItem, .paragraph, .heading])
        #expect(book.chapters[0].blocks.map(\.text)[6] == "ACT I.")
        #expect(book.chapters[0].blocks.filter { $0.kind == .speaker }.count == 24)
    }

    @Test func aCastListsNamesAreNeverSpeakerLabels() throws {
        // Names alone on their lines, as a play's speakers are labelled.
        let text = "THE PERSONS OF THE PLAY\n\nHAMLET.\n\nHORATIO.\n\n\nACT I.\n\n" + Self.speeches
        let items = analysed(text)
        #expect(Array(summary(items).prefix(4)) == ["H chapter: THE PERSONS OF THE PLAY", "P: HAMLET.", "P: HORATIO.", "H chapter: ACT I."])
        let kinds = items.compactMap { item -> BlockKind? in if case .paragraph(let p) = item { p.kind } else { nil } }
        #expect(Array(kinds.prefix(3)) == [.listItem, .listItem, .speaker])
    }

    @Test func aCastListsBracesAreSilent() throws {
        let text = "_The Persons of the Play_\n\n  LILY PARRADELL }\n  FLO CONNIFY    } (_Of the Pandora_)\n\n\nACT I.\n\n" + Self.speeches
        let items = analysed(text)
        guard case .paragraph(let flo) = items[2] else { Issue.record("\(summary(items))"); return }
        #expect(flo.kind == .listItem && flo.text == "FLO CONNIFY } (Of the Pandora)")
        #expect(spoken(flo).split(separator: " ") == ["FLO", "CONNIFY", "(Of", "the", "Pandora)"])
    }

    @Test func proseAfterACharactersLineIsNoCastList() throws {
        // A heading-like line before running text, not a list of names.
        let text = "CHARACTERS\n\nthe people in this book are not real, and any likeness is chance,\nas the author has said before.\n\n\n"
            + "CHAPTER I.\n\nIt was a dark night, and the rain fell in torrents on the roofs of the town.\n"
        let items = analysed(text)
        #expect(!items.contains { if case .paragraph(let p) = $0 { p.kind == .listItem } else { false } })
        #expect(summary(items).first == "S title page: CHARACTERS")
    }

    @Test func anHTMLCastListInATableIsReadAsOne() throws {
        var speeches = ""
        for i in 1...12 {
            speeches += "<p class=\"speaker\">Roper.</p><p>Hul-lo, the \(i). time!</p><p class=\"speaker\">Farncombe.</p><p>How are you, the \(i). time?</p>"
        }
        let html = """
            <html><body><h1>THE “MIND THE PAINT” GIRL</h1><p>By Arthur Pinero</p>
            <h4>THE PERSONS OF THE PLAY</h4>
            <table summary="cast"><tr><td colspan="2">Viscount Farncombe</td></tr>
            <tr><td>Lionel Roper</td><td>(<i>A City man</i>)</td></tr>
            <tr><td colspan="2">Mrs. Upjohn (Lily’s mother)</td></tr></table>
            <p><i>The action of the piece takes place in London.</i></p>
            <h3>THE FIRST ACT</h3><p class="scenedesc">The scene is a drawing-room, prettily but somewhat showily decorated.</p>
            \(speeches)
            <h3>THE SECOND ACT</h3><p class="scenedesc">The foyer of the Pandora Theatre, brightly lit and full of people.</p>
            \(speeches)
            </body></html>
            """
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("play.htm", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html))
        #expect(book.chapters.map(\.title) == ["THE FIRST ACT", "THE SECOND ACT"])
        #expect(book.chapters[0].blocks.map(\.text).dropFirst(6).first == "THE FIRST ACT")
        let cast = book.chapters[0].blocks.prefix(6)
        // A row's cells are blocks of their own, as in any layout table.
        #expect(cast.map(\.kind) == [.heading, .listItem, .listItem, .listItem, .listItem, .paragraph], "\(cast.map(\.text))")
        #expect(cast.map(\.text).dropFirst().first == "Viscount Farncombe")
        #expect(!cast.contains { $0.kind == .speaker })
    }

    /// Labels in mixed case (`Algernon. Did you hear…`) are not found as a play's: the cast list,
    /// a list of names under its title, is still no chapter of its own.
    @Test func aCastListIsNoChapterWhereTheLabelsAreNotFound() throws {
        var text = "THE PERSONS IN THE PLAY\n\nJohn Worthing, J.P.\nAlgernon Moncrieff\nLane, Manservant\n\n\n"
        for act in ["FIRST ACT", "SECOND ACT"] {
            text += "\(act)\n\nMorning-room in Algernon's flat.\n\n"
            for i in 1...6 { text += "Algernon. Did you hear what I was playing, Lane, the \(i). time?\n\nLane. I didn't think it polite to listen, sir.\n\n" }
        }
        let book = try PlainTextReader().read(text: text, source: textSource())
        let titles = book.chapters.map(\.title)
        #expect(titles.count == 2 && titles[0].hasPrefix("FIRST ACT") && titles[1].hasPrefix("SECOND ACT"), "\(titles)")
        #expect(book.chapters[0].blocks.first?.text == "THE PERSONS IN THE PLAY")
        #expect(book.chapters[0].blocks.filter { $0.kind == .listItem }.count == 3)
    }

    /// A transcriber's list naming the cast list before an introduction: the entry is no cast list's
    /// title (the last title with names under it is), so the introduction is not taken for front
    /// matter standing after a cast list, and it is read.
    @Test func anIntroductionBetweenAContentsEntryAndTheCastListIsRead() throws {
        let essay = (1...4).map { n in
            "The designer of this production, in its part \(n), worked through the winter\n"
                + "on the scenes and the dresses, and what he made of the old ballad opera\n"
                + "is told here for the reader who never saw it played in the town.\n\n"
        }.joined()
        let text = "THE BEGGAR'S OPERA\n\nCast of Characters\n\nNote on the Dresses\n\n\n"
            + "A Note by a Friend of the Designer.\n\n" + essay + "\nDRAMATIS PERSONÆ\n\n  HAMLET, Prince of Denmark.\n  HORATIO, his friend.\n\n\nACT I.\n\n"
            + Self.speeches
        let items = analysed(text)
        #expect(!items.contains { $0.skipped?.text.contains("designer of this production") == true }, "\(summary(items).prefix(12))")
        #expect(summary(items).contains("H chapter: DRAMATIS PERSONÆ"))
        let kinds = items.compactMap { item -> BlockKind? in if case .paragraph(let p) = item { p.kind } else { nil } }
        #expect(kinds.filter { $0 == .listItem }.count == 2)
    }
}
