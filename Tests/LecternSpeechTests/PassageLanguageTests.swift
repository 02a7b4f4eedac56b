import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// Which blocks and parts of blocks `language_switching: detect` reads in another language (#24,
/// item 6), with the real CLD2: a document root's language is a default that detection still
/// judges, a nearer `lang` wins, a stanza of short lines is judged together, and short English
/// (names, "Yes.", a speaker's label, a heading) never flips.
@Suite struct PassageLanguageTests {
    static let english = "The evening was quiet, and my uncle took down the old volume from the shelf to read to us."
    static let french = "Il pleuvait depuis le matin sur la petite ville. Les volets restaient clos, et personne ne sortait plus dans les rues étroites."
    /// Ronsard's stanza, a line a block (as an HTML page's `<br>`-less lines or a play's song come).
    static let stanza = ["Mignonne, allons voir si la rose", "Qui ce matin avoit desclose", "Sa robe de pourpre au Soleil,",
                         "A point perdu ceste vesprée", "Les plis de sa robe pourprée,", "Et son teint au vostre pareil."]

    /// The utterances of one chapter of `blocks`, in a book whose document declares `language`.
    private func plan(_ blocks: [Block], language: String? = "en", switching: String = "detect",
                      voices: Set<String>? = nil) throws -> [Utterance] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-passages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("text".utf8).write(to: dir.appendingPathComponent("book.txt"))
        let url = dir.appendingPathComponent("book.yml")
        try Data("title: T\nsources: [book.txt]\nvoice: { name: en }\nlanguages: { fr: fr-fr }\nlanguage_switching: \(switching)\n".utf8)
            .write(to: url)
        let manifest = try ManifestLoader(configDirectory: nil).load(url)
        let book = Book(chapters: [Chapter(title: "One", speaksTitle: false, blocks: blocks, source: "book.txt")], skipped: [],
                        metadata: BookMetadata(title: "T", language: language))
        var segmenter = Segmenter(manifest: manifest, spokenForms: SpokenForms(rules: []))
        if let voices { segmenter.installedVoice = { voices.contains($0.lowercased()) ? $0 : nil } }
        return try segmenter.plan(book).chapters[0].utterances
    }

    private func text(_ u: Utterance, _ segment: VoiceSegment) -> String {
        let units = Array(u.text.utf16)
        return String(decoding: units[segment.offset..<(segment.offset + segment.length)], as: UTF16.self)
    }

    @Test func theRootsLanguageDoesNotStopDetection() throws {
        // Every block carries the root's `en` (`<html lang="en">`, `dc:language`): a default.
        let u = try plan([Block(kind: .paragraph, text: Self.english, language: "en"), Block(kind: .paragraph, text: Self.french, language: "en"),
                          Block(kind: .paragraph, text: Self.english, language: "en-GB")])
        #expect(u[0].language == nil && u[0].voice.name == "en" && !u[0].languageDetected)
        #expect(u[1].language == "fr" && u[1].voice.name == "fr-fr" && u[1].languageDetected)
        #expect(u[2].language == nil && u[2].voice.name == "en")
        // A quotation inside a paragraph of the root's language is found too.
        let quoting = "When we reached the square the old woman looked up and said, “Vous arrivez bien tard, mes enfants, "
            + "le dernier train est parti depuis longtemps,” and went back to her knitting."
        let q = try plan([Block(kind: .paragraph, text: quoting, language: "en")])[0]
        #expect(q.language == nil && q.segments.count == 1 && q.segments.first?.language == "fr" && q.segments.first?.detected == true)
    }

    @Test func aNearerLangWins() throws {
        // Declared as another language than the document's: kept, whatever the text.
        let u = try plan([Block(kind: .paragraph, text: Self.english, language: "fr"), Block(kind: .paragraph, text: Self.french, language: "de")])
        #expect(u[0].language == "fr" && !u[0].languageDetected && u[0].voice.name == "fr-fr")
        #expect(u[1].language == "de" && !u[1].languageDetected)
        // A `lang` in a document that declares none is never second-guessed. (One that restates the
        // document's own language, `<p lang="en">` under `<html lang="en">`, cannot be told from the
        // root's flowing down: it is judged.)
        let marked = try plan([Block(kind: .paragraph, text: Self.french, language: "en")], language: nil)[0]
        #expect(marked.language == nil && !marked.languageDetected && marked.voice.name == "en")
        // A span marked inside a paragraph keeps its language; no detected passage overlaps it.
        let sentence = "Il faisait nuit noire quand nous sommes enfin montés dans nos chambres, et personne ne parlait plus."
        let text = "We went to bed late that night. " + sentence + " The next morning was bright."
        let offset = ("We went to bed late that night. " as String).utf16.count
        let span = LanguageSpan(offset: offset, length: sentence.utf16.count, language: "en")
        let spanned = try plan([Block(kind: .paragraph, text: text, language: "en", spans: [span])])[0]
        #expect(spanned.segments.allSatisfy { !$0.detected }, "\(spanned.segments)")
    }

    @Test func aStanzaOfShortLinesIsJudgedTogether() throws {
        let lines = Self.stanza.map { Block(kind: .paragraph, text: $0, language: "en") }
        // Alone, most lines are too short to be sure of.
        #expect(Self.stanza.filter { LanguageIdentifier().confidentLanguage(of: $0) == "fr" }.count < Self.stanza.count)
        let u = try plan([Block(kind: .paragraph, text: Self.english, language: "en"), Block(kind: .paragraph, text: "Monsieur Dupont.", language: "en")]
                         + lines + [Block(kind: .paragraph, text: "Yes.", language: "en"), Block(kind: .paragraph, text: Self.english, language: "en")])
        #expect(u[0].language == nil && u[1].language == nil, "a name before the stanza stays the book's")
        for line in u[2..<8] { #expect(line.language == "fr" && line.languageDetected && line.voice.name == "fr-fr", "\(line.text)") }
        #expect(u[8].language == nil && u[9].language == nil)
        // In plain text the stanza is one block with its line breaks.
        let block = try plan([Block(kind: .paragraph, text: Self.stanza.joined(separator: "\n"))])[0]
        #expect(block.language == "fr" && block.languageDetected)
    }

    @Test func shortEnglishNeverFlips() throws {
        let short = ["Yes.", "Hullo, Gabs! Hullo, Sam!", "Miss Du Cane—Aggie Du Cane.", "Scornfully. Hullo, hullo, hullo, hul-lo——!",
                     "Monsieur Dupont.", "Von Rettenmayer.", "Chapter One", "Au revoir, said Jean.", "Fulkerson."]
        let u = try plan(short.map { Block(kind: .paragraph, text: $0, language: "en") })
        #expect(u.allSatisfy { $0.language == nil && !$0.languageDetected && $0.segments.isEmpty }, "\(u.filter { $0.language != nil }.map(\.text))")
        // So is a short sentence CLD2 is sure of (Albanian) inside an English paragraph.
        let moby = "Stubb looked round. What ho, Tashtego! let me hear thy hammer. Then he turned to the mate and laughed."
        #expect(try plan([Block(kind: .paragraph, text: moby)])[0].segments.isEmpty)
        #expect(LanguageIdentifier().confidentLanguage(of: "Hullo, hullo, hullo, hullo, Sam!") == nil, "too few different words")
    }

    @Test func aForeignSentenceInAParagraphIsAPassage() throws {
        let sentence = "Il faisait nuit noire quand nous sommes enfin montés dans nos chambres, et personne ne parlait plus."
        let text = "The end of it all was that we went to bed late. " + sentence + " The next morning was bright and cold."
        let u = try plan([Block(kind: .paragraph, text: text)])[0]
        #expect(u.language == nil && u.voice.name == "en")
        let segment = try #require(u.segments.first)
        #expect(u.segments.count == 1 && segment.language == "fr" && segment.detected && segment.voice.name == "fr-fr")
        #expect(self.text(u, segment) == sentence)
        // Verse lines quoted inside a paragraph (kept on their lines) are one passage.
        let verse = "My uncle took the old book down from the shelf, opened it at the page he had loved best as a boy, "
            + "and read to us, slowly and with a great deal of feeling:\n" + Self.stanza.joined(separator: "\n")
            + "\nand then he closed the book again without another word, and all of us went quietly up the stairs to bed."
        let v = try plan([Block(kind: .paragraph, text: verse)])[0]
        #expect(v.language == nil && v.segments.count == 1 && v.segments.first.map { self.text(v, $0) } == Self.stanza.joined(separator: "\n"),
                "\(v.language ?? "-") \(v.segments)")
    }

    @Test func aQuotationQuotingAForeignOneIsForeignOnlyThere() throws {
        // The end of “The Red-Headed League”: the French is the inner quotation only.
        let text = "“Well, perhaps, after all, it is of some little use,” he remarked. "
            + "“‘L’homme c’est rien—l’œuvre c’est tout,’ as Gustave Flaubert wrote to George Sand.”"
        let u = try plan([Block(kind: .paragraph, text: text, language: "en")])[0]
        let segment = try #require(u.segments.first)
        #expect(u.segments.count == 1 && segment.language == "fr" && segment.detected)
        #expect(self.text(u, segment) == "‘L’homme c’est rien—l’œuvre c’est tout,’")
    }

    @Test func aLanguageNoVoiceSpeaksIsNotDetected() throws {
        let german = "Es war einmal ein König, der hatte drei Töchter. Die jüngste war so schön, dass die Sonne selbst sich wunderte."
        let u = try plan([Block(kind: .paragraph, text: german), Block(kind: .paragraph, text: Self.french)], voices: ["en", "fr", "fr-fr"])
        #expect(u[0].language == nil && !u[0].languageDetected && u[0].voice.name == "en")
        #expect(u[1].language == "fr" && u[1].languageDetected)
    }

    @Test func declaredSwitchingDetectsNothing() throws {
        let u = try plan([Block(kind: .paragraph, text: Self.french, language: "en")] + Self.stanza.map { Block(kind: .paragraph, text: $0) },
                         switching: "true")
        #expect(u.allSatisfy { $0.language == nil && !$0.languageDetected && $0.segments.isEmpty })
    }
}
