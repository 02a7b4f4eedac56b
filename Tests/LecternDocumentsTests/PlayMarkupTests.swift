import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// Standard Ebooks sets a play's dialogue in a table (issue 24, item 5): a row per speech, the
/// `z3998:persona` cell the speaker, the other the speech, with `z3998:stage-direction` inside
/// it or in a row of its own; acts and scenes are sections with their headings. Read as a play:
/// acts are parts, scenes chapters, no chapter empty.
struct PlayMarkupTests {
    static func scene(_ act: Int, _ scene: Int, speeches: Int) -> String {
        var rows = """
            <tr><td/><td><i epub:type="z3998:stage-direction">A room in the castle. Enter Hamlet and Horatio.</i></td></tr>
            """
        for i in 1...speeches {
            rows += """
                <tr><td epub:type="z3998:persona">Hamlet</td><td><p>Speak, I am bound to hear, the \(i). time. \
                <i epub:type="z3998:stage-direction">(Aside.)</i> So be it.</p></td></tr>
                <tr><td epub:type="z3998:persona">Horatio</td><td><p>So art thou to revenge,</p><p>when thou shalt hear, the \(i). time.</p></td></tr>
                """
        }
        rows += #"<tr><td/><td><i epub:type="z3998:stage-direction">Exeunt.</i></td></tr>"#
        return """
            <section id="act-\(act)-scene-\(scene)" epub:type="z3998:scene">
            <h3 epub:type="title">Scene <span epub:type="z3998:roman">\(["I", "II"][scene - 1])</span></h3>
            <table><tbody>\(rows)</tbody></table></section>
            """
    }

    static let xhtml = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" epub:prefix="z3998: http://www.daisy.org/z3998/2012/vocab/structure/#" lang="en-GB">
        <head><title>Hamlet</title></head><body epub:type="bodymatter z3998:fiction">
        <section id="act-1" epub:type="z3998:act"><h2 epub:type="title">Act <span epub:type="z3998:roman">I</span></h2>
        \(scene(1, 1, speeches: 6))\(scene(1, 2, speeches: 6))</section>
        <section id="act-2" epub:type="z3998:act"><h2 epub:type="title">Act <span epub:type="z3998:roman">II</span></h2>
        \(scene(2, 1, speeches: 6))</section>
        </body></html>
        """

    static let personae = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
        <head><title>Dramatis Personae</title></head><body epub:type="frontmatter">
        <section id="dramatis-personae" epub:type="z3998:dramatis-personae"><h2 epub:type="title">Dramatis Personae</h2>
        <ul><li><p><b epub:type="z3998:persona">Hamlet</b>, Prince of Denmark.</p></li>
        <li><p><b epub:type="z3998:persona">Horatio</b>, friend to Hamlet.</p></li></ul>
        <p>Scene: Elsinore.</p></section></body></html>
        """

    @Test func aStandardEbooksPlayInTablesHasActsScenesSpeakersAndDirections() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("hamlet.xhtml", bytes: Array(Self.xhtml.utf8))
        let book = try HTMLReader().read(Source(url: url, format: .html))
        #expect(book.chapters.map(\.title) == ["Scene I", "Scene II", "Scene I"])
        #expect(book.chapters.map(\.part) == ["Act I", "Act I", "Act II"])
        #expect(book.chapters.allSatisfy { $0.blocks.contains { $0.kind != .heading } }, "no empty chapter")
        let blocks = book.chapters[0].blocks
        #expect(Array(blocks.prefix(8).map(\.kind)) == [.heading, .heading, .stageDirection, .speaker, .paragraph, .stageDirection,
                                                        .paragraph, .speaker], "\(blocks.prefix(8).map(\.text))")
        #expect(Array(blocks.prefix(10).map(\.text)) == ["Act I", "Scene I", "A room in the castle. Enter Hamlet and Horatio.", "Hamlet",
                                                         "Speak, I am bound to hear, the 1. time.", "Aside.", "So be it.", "Horatio",
                                                         "So art thou to revenge,", "when thou shalt hear, the 1. time."])
        let all = book.chapters.flatMap(\.blocks)
        #expect(all.filter { $0.kind == .speaker }.count == 36)
        #expect(all.filter { $0.kind == .stageDirection }.count == 18 + 6)
        #expect(!all.contains { $0.kind == .paragraph && ($0.text.contains("Aside") || $0.text.hasPrefix("Hamlet")) })
    }

    @Test func aStandardEbooksPlayInAnEPUBHasItsSpeakersAndDirections() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let epub = dir.url.appendingPathComponent("hamlet.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/dramatis-personae.xhtml", Self.personae), ("OEBPS/text/act-1.xhtml", Self.xhtml)],
                      nav: [("Dramatis Personae", "text/dramatis-personae.xhtml"), ("Act I", "text/act-1.xhtml#act-1"), ("Scene I", "text/act-1.xhtml#act-1-scene-1"),
                            ("Scene II", "text/act-1.xhtml#act-1-scene-2"), ("Act II", "text/act-1.xhtml#act-2"),
                            ("Scene I", "text/act-1.xhtml#act-2-scene-1")])
        let book = try EPUBReader().read(epubSource(epub)).book
        // The scenes are the chapters; the cast list is no chapter of its own (PlayFrontMatter).
        #expect(book.chapters.map(\.title) == ["Scene I", "Scene II", "Scene I"], "\(book.chapters.map(\.title))")
        // The cast list is read before the first act, its names list items, not speakers' labels.
        let first = book.chapters[0].blocks
        #expect(Array(first.prefix(5).map(\.kind)) == [.heading, .listItem, .listItem, .paragraph, .heading], "\(first.map(\.text))")
        #expect(first.map(\.text).dropFirst().first == "Hamlet, Prince of Denmark.")
        #expect(first.map(\.text).dropFirst(4).first == "Act I")
        #expect(book.chapters.allSatisfy { $0.blocks.contains { $0.kind == .speaker } }, "no empty chapter")
        let all = book.chapters.flatMap(\.blocks)
        #expect(all.filter { $0.kind == .speaker }.count == 36)
        #expect(all.filter { $0.kind == .stageDirection }.count == 18 + 6)
        #expect(!all.contains { $0.kind == .paragraph && $0.text.contains("Aside") })
    }

    /// Standard Ebooks' `the-scenes-of-the-play.xhtml`, listed in the table of contents after the cast list.
    static let scenes = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en-GB">
        <head><title>The Scenes of the Play</title></head><body epub:type="frontmatter z3998:drama">
        <section id="the-scenes-of-the-play"><h2 epub:type="title">The Scenes of the Play</h2>
        <p>Act <span epub:type="z3998:roman">I</span>: A platform before the castle.</p>
        <p>Act <span epub:type="z3998:roman">II</span>: A room in Polonius’ house.</p></section></body></html>
        """

    @Test func aStandardEbooksCastListAndListOfScenesAreNoChapters() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let epub = dir.url.appendingPathComponent("hamlet.epub")
        try writeEPUB(epub, documents: [("OEBPS/text/dramatis-personae.xhtml", Self.personae), ("OEBPS/text/scenes.xhtml", Self.scenes),
                                        ("OEBPS/text/act-1.xhtml", Self.xhtml)],
                      nav: [("Dramatis Personae", "text/dramatis-personae.xhtml"), ("The Scenes of the Play", "text/scenes.xhtml"),
                            ("Act I", "text/act-1.xhtml#act-1"), ("Scene I", "text/act-1.xhtml#act-1-scene-1"),
                            ("Scene II", "text/act-1.xhtml#act-1-scene-2"), ("Act II", "text/act-1.xhtml#act-2"),
                            ("Scene I", "text/act-1.xhtml#act-2-scene-1")])
        let book = try EPUBReader().read(epubSource(epub)).book
        #expect(book.chapters.map(\.title) == ["Scene I", "Scene II", "Scene I"], "\(book.chapters.map(\.title))")
        // Both before the first scene: the cast read, the list of scenes under its title read or left
        // out as a contents list (its lines come back as the acts' headings), never a chapter.
        let texts = book.chapters[0].blocks.map(\.text)
        #expect(Array(texts.prefix(5)) == ["Dramatis Personae", "Hamlet, Prince of Denmark.", "Horatio, friend to Hamlet.", "Scene: Elsinore.",
                                           "The Scenes of the Play"], "\(texts)")
        #expect(texts.dropFirst(5).prefix { $0 != "Scene I" }.allSatisfy { $0.hasPrefix("Act I") }, "\(texts)")
    }
}
