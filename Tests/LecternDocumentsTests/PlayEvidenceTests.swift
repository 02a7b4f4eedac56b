import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// One model of a play in every format (issue 39, item 3): a speech starts at a speaker's label —
/// a name in capitals in a text, a bold or small-caps name opening an HTML paragraph, a Standard
/// Ebooks `z3998:persona` cell — and a persona named inside a stage direction is part of the
/// direction; a book is a play only when labels take turns through it.
struct PlayEvidenceTests {
    static func script(_ book: Book) -> [String] {
        book.chapters.flatMap(\.blocks).map { "\($0.kind): \($0.text)" }
    }

    static func readHTML(_ html: String, name: String = "play.html") throws -> Book {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write(name, bytes: Array(html.utf8))
        return try HTMLReader().read(Source(url: url, format: .html))
    }

    /// A Standard Ebooks scene: speeches in a table, directions naming personae inside them.
    static let tablePlay: String = {
        var rows = #"<tr><td/><td><i epub:type="z3998:stage-direction">Enter <b epub:type="z3998:persona">King</b> and <b epub:type="z3998:persona">Queen</b>.</i></td></tr>"#
        for i in 1...8 {
            rows += """
                <tr><td epub:type="z3998:persona">King</td><td>We shall, my lord, the \(i). time. <i epub:type="z3998:stage-direction">Exeunt \
                <b epub:type="z3998:persona">Rosencrantz</b> and <b epub:type="z3998:persona">Guildenstern</b>.</i></td></tr>
                <tr><td epub:type="z3998:persona">Queen</td><td>To be, or not to be, the \(i). time.</td></tr>
                """
        }
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
            <head><title>Hamlet</title></head><body epub:type="bodymatter z3998:fiction">
            <section id="act-3" epub:type="z3998:act"><h2 epub:type="title">Act III</h2>
            <section id="act-3-scene-1" epub:type="z3998:scene"><h3 epub:type="title">Scene I</h3>
            <p>A room in <b epub:type="z3998:persona">Polonius’</b> house.</p>
            <table><tbody>\(rows)</tbody></table></section></section></body></html>
            """
    }()

    @Test func aPersonaNamedInsideAStageDirectionIsPartOfTheDirection() throws {
        let script = Self.script(try Self.readHTML(Self.tablePlay, name: "hamlet.xhtml"))
        #expect(script.contains("stageDirection: Enter King and Queen."), "\(script.prefix(6))")
        #expect(script.contains("stageDirection: Exeunt Rosencrantz and Guildenstern."))
        #expect(!script.contains("speaker: Rosencrantz") && !script.contains("speaker: Guildenstern"))
        // A persona named in the scene's setting is a name in it, no label.
        #expect(script.contains("paragraph: A room in Polonius’ house."), "\(script.prefix(6))")
        // Each speech goes to the persona of its own row, never to one named in a direction.
        let speeches = Array(script.drop { !$0.hasPrefix("speaker") }.prefix(5))
        #expect(speeches == ["speaker: King", "paragraph: We shall, my lord, the 1. time.", "stageDirection: Exeunt Rosencrantz and Guildenstern.",
                             "speaker: Queen", "paragraph: To be, or not to be, the 1. time."])
    }

    /// Project Gutenberg's HTML play: `<b>Lane.</b>` opens each speech, directions in brackets.
    static let gutenbergPlay: String = {
        var body = """
            <h2>FIRST ACT</h2>
            <p>SCENE</p>
            <p>Morning-room in Algernon’s flat in Half-Moon Street.</p>
            <p>[Lane is arranging afternoon tea on the table, and after the music has ceased, Algernon enters.]</p>
            """
        for i in 1...12 {
            body += """
                <p><b>Algernon.</b>&nbsp; Did you hear what I was playing, Lane, the \(i). time?</p>
                <p><b>Lane.</b>&nbsp; Yes, sir.&nbsp; [Hands them on a salver.]&nbsp; Quite so, sir, the \(i). time.</p>
                <p><b>Algernon.</b>&nbsp; [Inspects them, takes two, and sits down on the sofa.]&nbsp; Oh! Lane, you said so.</p>
                """
        }
        return "<html><head><title>The Importance of Being Earnest</title></head><body>\(body)</body></html>"
    }()

    @Test func aGutenbergHTMLPlayHasSpeakersAndInlineDirections() throws {
        let script = Self.script(try Self.readHTML(Self.gutenbergPlay))
        #expect(script.filter { $0.hasPrefix("speaker") }.count == 36, "\(script.prefix(12))")
        let lane = try #require(script.firstIndex(of: "speaker: Lane."))
        #expect(Array(script[lane...].prefix(4)) == ["speaker: Lane.", "paragraph: Yes, sir.", "stageDirection: Hands them on a salver.",
                                                      "paragraph: Quite so, sir, the 1. time."])
        #expect(Array(script[(lane + 4)...].prefix(3)) == ["speaker: Algernon.", "stageDirection: Inspects them, takes two, and sits down on the sofa.",
                                                  "paragraph: Oh! Lane, you said so."])
        #expect(!script.contains { $0.hasPrefix("paragraph") && $0.contains("[") }, "no direction inside a speech")
    }

    @Test func aTextPlayWithLabelsAtSpeechStartsAndPersonaeInDirections() throws {
        var text = "ACT I.\n\n[A room. Enter ROPER and FARNCOMBE.]\n\n"
        for i in 1...12 {
            text += "ROPER. [To FARNCOMBE.] Hul-lo, I'm in luck, the \(i). time!\n\n"
            text += "MRS. UPJOHN. How are you, Roper, the \(i). time? [Exit FARNCOMBE.]\n\n"
        }
        let book = try PlainTextReader().read(text: text, source: textSource())
        let script = Self.script(book)
        #expect(Array(script.prefix(8).dropFirst()) == ["stageDirection: A room. Enter ROPER and FARNCOMBE.", "speaker: ROPER.",
                                                        "stageDirection: To FARNCOMBE.", "paragraph: Hul-lo, I'm in luck, the 1. time!",
                                                        "speaker: MRS. UPJOHN.", "paragraph: How are you, Roper, the 1. time?",
                                                        "stageDirection: Exit FARNCOMBE."], "\(script.prefix(8))")
        #expect(!script.contains("speaker: FARNCOMBE."))
    }

    @Test func aWineListWhoseLinesOpenWithCapitalsIsNoPlay() throws {
        var text = "CHAPTER I.\n\nTHE WINES OF CHABLIS\n\n"
        let makers = ["DOM. SEILLY", "DOM. LAROCHE", "CH. DE MALIGNY"]
        for (n, maker) in makers.enumerated() {
            for i in 1...24 {
                text += "\(maker). Chablis premier cru, vintage \(1900 + i), \(n + i) francs the bottle.\n\n"
            }
        }
        let book = try PlainTextReader().read(text: text, source: textSource())
        #expect(!book.chapters.flatMap(\.blocks).contains { $0.kind == .speaker })
        #expect(book.chapters.flatMap(\.blocks).contains { $0.text.hasPrefix("DOM. SEILLY. Chablis premier cru, vintage 1901") })
        // Nor when the same capitals open the book's paragraphs one after another in HTML.
        let html = "<html><body><h2>The wines</h2>"
            + makers.flatMap { maker in (1...24).map { "<p><b>\(maker.capitalized).</b> Chablis, vintage \(1900 + $0).</p>" } }.joined()
            + "</body></html>"
        let page = try Self.readHTML(html)
        #expect(!page.chapters.flatMap(\.blocks).contains { $0.kind == .speaker })
    }
}

/// A list of scenes and a first-night cast before a play's first act are front matter, never
/// chapters (issue 39, item 3).
struct PlayFrontMatterTests {
    @Test func aListOfScenesIsReadWithTheCastAndTheFirstNightCastIsNoChapter() throws {
        var text = "THE IMPORTANCE OF BEING EARNEST\n\nTHE PERSONS OF THE PLAY\n\nJohn Worthing, J.P.\nAlgernon Moncrieff\nLane, Manservant\n\n"
        text += "THE SCENES OF THE PLAY\n\nACT I.  Algernon Moncrieff's Flat in Half-Moon Street, W.\n\n"
        text += "ACT II.  The Garden at the Manor House, Woolton.\n\nACT III.  Drawing-Room at the Manor House, Woolton.\n\n"
        text += "TIME: The Present.\n\nLONDON: ST. JAMES'S THEATRE\n\nLessee and Manager: Mr. George Alexander\n\nFebruary 14th, 1895\n\n* * * * *\n\n"
        text += "John Worthing, J.P.: Mr. George Alexander.\nAlgernon Moncrieff: Mr. Allen Aynesworth.\nLane: Mr. Frank Dyall.\n\n"
        for (n, act) in ["FIRST ACT", "SECOND ACT", "THIRD ACT"].enumerated() {
            text += "\(act)\n\nSCENE\n\nMorning-room in Algernon's flat, act \(n + 1).\n\n"
            for i in 1...8 {
                text += "ALGERNON. Did you hear what I was playing, Lane, the \(i). time?\n\nLANE. I didn't think it polite to listen, sir.\n\n"
            }
        }
        let book = try PlainTextReader().read(text: text, source: textSource())
        let titles = book.chapters.map(\.title)
        #expect(!titles.contains { $0.hasPrefix("ACT ") || $0.contains("LONDON") || $0.contains("PERSONS") }, "\(titles)")
        #expect(titles.count == 3, "the three acts, the cast read before the first (PlayFrontMatter): \(titles)")
        let first = book.chapters[0].blocks.map(\.text)
        #expect(first.first == "THE PERSONS OF THE PLAY", "\(first)")
        let act = first.firstIndex(of: "FIRST ACT") ?? first.count
        #expect(first[..<act].contains("ACT II. The Garden at the Manor House, Woolton."), "\(first)")
        // The first-night cast of actors is left out with the title page, or read with the cast: never a chapter, nor in an act.
        #expect(!(first[act...] + book.chapters.dropFirst().flatMap(\.blocks).map(\.text)).contains { $0.contains("Aynesworth") })
    }
}
