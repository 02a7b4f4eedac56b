import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Plays read as plays (issue 24, item 5): acts as parts (or chapters when they hold no scenes),
/// speaker labels and stage directions blocks of their own, never inside the speech, in plain
/// text and HTML alike; a novel's italics stay paragraphs.
struct PlayReadingTests {
    static func kinds(_ book: Book) -> [BlockKind] { book.chapters.flatMap(\.blocks).map(\.kind) }

    @Test func aPlainTextPlayHasActsSpeakersAndStageDirections() throws {
        var text = "THE PERSONS OF THE PLAY\n\nHAMLET, Prince of Denmark.\nHORATIO, his friend.\n\n\n"
        text += "ACT I.\n\nSCENE I. Elsinore. A platform before the castle.\n\n_Enter HORATIO._\n\n"
        for i in 1...12 {
            text += "HAMLET.\n\n[_To HORATIO._] Speak, I am bound to hear, said he for the \(i). time. [_Aside._] So be it.\n\n"
            text += "HORATIO. So art thou to revenge, when thou shalt hear it, as I said for the \(i). time.\n\n"
        }
        text += "SCENE II. A room of state in the castle.\n\nHAMLET.\n\nA little more than kin, and less than kind.\n\n"
        text += "ACT II.\n\nSCENE I. A room in Polonius's house.\n\nHORATIO.\n\nMy lord, I came to see your father's funeral.\n"
        let book = try PlainTextReader().read(text: text, source: textSource())
        // The cast list first, read before the first scene, no chapter of its own (PlayCastListTests).
        #expect(book.chapters.map(\.title) == ["SCENE I. Elsinore. A platform before the castle.",
                                               "SCENE II. A room of state in the castle.", "SCENE I. A room in Polonius's house."])
        #expect(book.chapters.map(\.part) == ["ACT I.", "ACT I.", "ACT II."])
        #expect(book.chapters[0].blocks.prefix(3).map(\.kind) == [.heading, .listItem, .listItem])
        let blocks = Array(book.chapters[0].blocks.dropFirst(3))
        // The act, the scene's number and its title are spoken as headings, then the scene.
        #expect(blocks.prefix(7).map(\.kind) == [.heading, .heading, .heading, .stageDirection, .speaker, .stageDirection, .paragraph])
        #expect(blocks.prefix(9).map(\.text).suffix(6) == ["Enter HORATIO.", "HAMLET.", "To HORATIO.",
                                                           "Speak, I am bound to hear, said he for the 1. time.", "Aside.", "So be it."])
        // A name at a speech's start is a label of its own too.
        #expect(blocks[9].kind == .speaker && blocks[9].text == "HORATIO.")
        #expect(blocks[10].text.hasPrefix("So art thou to revenge"))
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.kind == .paragraph && $0.text.contains("[") }, "no direction inside a speech")
    }

    @Test func stageDirectionsCanBeSkippedAndAreListed() throws {
        // (A label right under the act's heading would be taken for its title: the scene is set first.)
        var text = "ACT I.\n\n[A room.]\n\n"
        for i in 1...12 {
            text += "ROPER.\n\n[To FARNCOMBE.] Hul-lo, I'm in luck, the \(i). time!\n\nFARNCOMBE.\n\nHow are you, Roper, the \(i). time?\n\n"
        }
        var source = textSource()
        source.rules.stageDirections = .skip
        let book = try PlainTextReader().read(text: text, source: source)
        #expect(!Self.kinds(book).contains(.stageDirection))
        #expect(book.skipped.filter { $0.reason == .stageDirection }.count == 13)
        #expect(Self.kinds(book).filter { $0 == .speaker }.count == 24)
    }

    @Test func aLabelOrADirectionRightUnderAnActHeadingIsNotItsTitle() throws {
        var speeches = ""
        for i in 1...12 {
            speeches += "ROPER.\n\nHul-lo, I'm in luck, the \(i). time!\n\nFARNCOMBE. How are you, Roper, the \(i). time?\n\n"
        }
        for opening in ["ROPER.", "FARNCOMBE. Well?", "_Enter ROPER._"] {
            let text = "ACT I.\n\n\(opening)\n\n\(speeches)ACT II.\n\n\(opening)\n\n\(speeches)"
            let items = analysed(text)
            let headings = items.compactMap { item -> [String]? in if case .heading(let h) = item { h.lines } else { nil } }
            #expect(headings == [["ACT I."], ["ACT II."]], "\(opening)")
            let book = try PlainTextReader().read(text: text, source: textSource())
            #expect(book.chapters.map(\.title) == ["ACT I.", "ACT II."])
            #expect(book.chapters[0].blocks[1].kind == (opening.hasPrefix("_") ? .stageDirection : .speaker), "\(opening)")
        }
        // A title under an act's heading is still one.
        let titled = analysed("ACT I.\n\nThe Palace\n\n" + speeches)
        #expect(summary(titled).first == "H chapter: ACT I. | The Palace")
    }

    /// A plain text's speakers named in italics at their speeches' starts (`_Mag._ Bene!`, `_M. Cic._ …`)
    /// are speakers' labels, as HTML's bold names are; the speech is read after the label.
    @Test func aPlainTextPlaysItalicLabelsAreSpeakersLabels() throws {
        var text = "A ROMAN SCHOOL\n\n\n"
        for i in 1...12 {
            text += "_Mag._ Quid est nomen tuum, puer? Hoc rogo \(i). tempore.\n\n"
            text += "_M. Cic._ Marcus Tullius Cicero sum, magister, et \(i). tempore respondeo.\n\n"
        }
        let book = try PlainTextReader().read(text: text, source: textSource())
        let blocks = book.chapters.flatMap(\.blocks)
        #expect(blocks.filter { $0.kind == .speaker }.map(\.text).prefix(2) == ["Mag.", "M. Cic."], "\(blocks.prefix(4).map(\.text))")
        #expect(blocks.filter { $0.kind == .speaker }.count == 24)
        #expect(blocks.contains { $0.kind == .paragraph && $0.text == "Quid est nomen tuum, puer? Hoc rogo 1. tempore." })
    }

    @Test func aNovelsItalicParagraphsAndCapitalisedWordsStayProse() throws {
        var text = "CHAPTER I.\n\n_A letter, written in italics, as novels print them._\n\n"
        for i in 1...30 { text += "MR. SMITH. He said so, on the \(i). day, and went out.\n\n" }
        let book = try PlainTextReader().read(text: text, source: textSource())
        // Thirty lines starting with one name are not a play: a play has several speakers coming back.
        #expect(!Self.kinds(book).contains(.speaker))
        #expect(!Self.kinds(book).contains(.stageDirection))
    }

    @Test func anHTMLPlaysMarkupIsKeptAndInlineDirectionsSplitTheSpeech() throws {
        let html = """
            <html><body><h3 class="act">THE FIRST ACT</h3>
            <p class="scenedesc">The scene is a drawing-room, prettily but somewhat showily decorated, with lilac on the walls.</p>
            <p class="speaker">Roper.</p>
            <p><span class="stagedir">To Farncombe.</span> Hul-lo! I’m in luck! <span class="stagedir">Shaking hands.</span> How d’ye do?</p>
            <p epub:type="z3998:persona">Farncombe.</p><p>How are you, Roper?</p>
            <p><span epub:type="z3998:stage-direction">Exit.</span></p>
            </body></html>
            """
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("play.htm", bytes: Array(html.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html))
        #expect(book.chapters.map(\.title) == ["THE FIRST ACT"])
        #expect(book.chapters[0].blocks.map(\.kind) == [.heading, .stageDirection, .speaker, .stageDirection, .paragraph,
                                                        .stageDirection, .paragraph, .speaker, .paragraph, .stageDirection])
        #expect(book.chapters[0].blocks.map(\.text)[3...6] == ["To Farncombe.", "Hul-lo! I’m in luck!", "Shaking hands.", "How d’ye do?"])
    }
}

/// The corpus's play as text and as its HTML page: the same four acts, the same speeches.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct PlayCorpusTests {
    @Test func mindThePaintGirlIsReadAsAPlayInBothFormats() throws {
        var source = Source(url: Corpus.file("text/pg21849-mind-the-paint-girl.txt"), format: .text)
        source.rules.encoding = "iso-8859-1"
        let text = try PlainTextReader().read(source)
        let html = try HTMLReader().read(Source(url: Corpus.file("html/pg21849-mind-the-paint-girl.htm"), format: .html))
        let acts = ["THE FIRST ACT", "THE SECOND ACT", "THE THIRD ACT", "THE FOURTH ACT"]
        // The cast list first, read before the first act (no chapter of its own): the names list
        // items, the scene's note after them.
        #expect(text.chapters.map(\.title) == acts)
        #expect(html.chapters.map(\.title) == acts)
        for book in [text, html] {
            // (After the note on the play's first nights, read as the front matter's running text.)
            let first = book.chapters[0].blocks
            let persons = try #require(first.firstIndex { $0.kind == .heading }, "\(first.prefix(3).map(\.text))")
            #expect(first[persons].text.uppercased() == "THE PERSONS OF THE PLAY")
            #expect(first[..<persons].allSatisfy { $0.text.hasPrefix("This play was produced in London") }, "\(first[..<persons].map(\.text))")
            let cast = Array(first[(persons + 1)...].prefix { $0.kind != .heading })
            #expect(cast.filter { $0.kind == .listItem }.count >= 28, "\(cast.map(\.text))")
            #expect(cast.last?.text.hasPrefix("The action of the piece takes place in London") == true && cast.last?.kind == .paragraph)
            #expect(!cast.contains { $0.kind == .speaker })
        }
        for book in [text, html] {
            let blocks = book.chapters.flatMap(\.blocks)
            let speakers = blocks.filter { $0.kind == .speaker }.count
            let directions = blocks.filter { $0.kind == .stageDirection }.count
            #expect(speakers > 1000 && directions > 1000, "\(speakers) speakers, \(directions) stage directions")
            #expect(!blocks.contains { $0.kind == .paragraph && $0.text.contains("[") }, "a bracketed direction inside a speech")
        }
        let count = { (book: Book, kind: BlockKind) in book.chapters.flatMap(\.blocks).filter { $0.kind == kind }.count }
        // The two transcriptions label the same speeches (within 2 %).
        #expect(abs(count(text, .speaker) - count(html, .speaker)) * 50 <= count(text, .speaker))
        #expect(text.skipped.contains { $0.reason == .errata && $0.text.hasPrefix("ERRATA") })
        #expect(text.chapters.last?.blocks.contains { $0.text.contains("text has comma for period") } == false)
    }
}
