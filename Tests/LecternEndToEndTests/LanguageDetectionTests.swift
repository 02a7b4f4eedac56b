import Foundation
import Testing
import LecternTesting

/// `language_switching: detect`: paragraphs with no declared language are identified (CLD2) and
/// a paragraph found in another language than the book's is read with that language's voice, as
/// is a quotation of 8 words or more.
struct LanguageDetectionTests {
    static let english1 = "The letters arrived on a grey morning in early spring. My aunt read them aloud at the breakfast table, "
        + "pausing now and then to wipe her spectacles. Nobody interrupted her, not even the dog."
    static let french1 = "Mon cher neveu, je vous écris de Lyon, où il pleut depuis trois jours. La maison est froide et les "
        + "domestiques se plaignent sans cesse. Venez nous voir avant la fin du mois, je vous en prie."
    static let english2 = "She folded the page carefully and laughed. It was, she said, exactly the sort of letter her brother "
        + "had always written, full of rain and complaints and invitations that nobody could refuse."
    static let french2 = "Nous avons enfin vendu le vieux moulin au bord de la rivière. Votre grand-père aurait été triste, "
        + "mais il fallait bien se décider un jour."
    static let german = "Lieber Freund, wir sind gestern Abend glücklich in Hamburg angekommen. Die Reise war lang und "
        + "anstrengend, aber die Kinder haben die ganze Zeit gelacht und gesungen."
    static let english3 = "The second letter came from Hamburg, and my aunt could not read a word of it. "
        + "She handed it to me with a sigh and went back to her tea."
    static let quoting = "At the station a porter told us, “Le dernier train pour Paris est parti il y a une heure, "
        + "monsieur,” and shrugged as if it were our fault."
    static let paragraphs = [english1, french1, english2, french2, german, english3, quoting]
    static var text: String { paragraphs.joined(separator: "\n\n") + "\n" }

    static func render(_ ws: Workspace, switching: String) throws -> (job: RenderedJob, sidecar: Sidecar) {
        try ws.write("letters.txt", text)
        let manifest = try ws.write("letters-\(switching).yml", """
            title: Letters
            sources: [letters.txt]
            languages: { fr: fr-fr, de: de }
            language_switching: \(switching)
            """)
        let job = try RenderedJob.run(ws, manifest)
        let url = job.mp3.deletingPathExtension().appendingPathExtension("timings.json")
        return (job, try Sidecar.load(url))
    }

    static func paragraph(_ job: RenderedJob, _ text: String) throws -> [String: Any] {
        try #require(job.paragraphs.first { ($0["text"] as? String) == text }, "no paragraph \(text.prefix(30))")
    }

    @Test func eachParagraphIsVoicedInTheLanguageItIsWrittenIn() throws {
        let ws = try Workspace("detect")
        let (job, sidecar) = try Self.render(ws, switching: "detect")
        let expected: [(String, String, String?)] = [
            (Self.english1, "en", nil), (Self.french1, "fr-fr", "fr"), (Self.english2, "en", nil),
            (Self.french2, "fr-fr", "fr"), (Self.german, "de", "de"), (Self.english3, "en", nil), (Self.quoting, "en", nil),
        ]
        for (text, voice, language) in expected {
            let p = try Self.paragraph(job, text)
            #expect(p["voice"] as? String == voice, "\(text.prefix(30))")
            #expect(p["language"] as? String == language, "\(text.prefix(30))")
            #expect((p["detected"] as? Bool) == (language == nil ? nil : true), "\(text.prefix(30))")
        }
        // A French quotation of 8+ words in an English paragraph is a span of its own.
        let quoting = try Self.paragraph(job, Self.quoting)
        let spans = quoting["spans"] as? [[String: Any]] ?? []
        try #require(spans.count == 1, "\(quoting)")
        #expect(spans[0]["language"] as? String == "fr" && spans[0]["voice"] as? String == "fr-fr" && spans[0]["detected"] as? Bool == true)
        let units = Array(Self.quoting.utf16)
        let offset = spans[0]["offset"] as! Int, length = spans[0]["length"] as! Int
        #expect(String(decoding: units[offset..<(offset + length)], as: UTF16.self).hasPrefix("“Le dernier train"))
        BookChecks.expectWordCoverage(input: Self.text, sidecar)
    }

    @Test func declaredOnlySwitchingDetectsNothing() throws {
        let ws = try Workspace("detect-off")
        let (job, sidecar) = try Self.render(ws, switching: "true")
        #expect(job.paragraphs.count == Self.paragraphs.count)
        #expect(job.paragraphs.allSatisfy { $0["voice"] as? String == "en" && $0["language"] == nil && $0["detected"] == nil && $0["spans"] == nil })
        BookChecks.expectWordCoverage(input: Self.text, sidecar)
    }

    @Test func aDeclaredLanguageWinsOverDetection() throws {
        let ws = try Workspace("detect-declared")
        try ws.write("page.html", """
            <!DOCTYPE html>
            <html><head><title>Page</title></head><body>
            <p lang="en">\(Self.french1)</p>
            <p>\(Self.french2)</p>
            <p>\(Self.english1)</p>
            </body></html>
            """)
        let manifest = try ws.write("page.yml", """
            title: Page
            sources: [page.html]
            languages: { fr: fr-fr, de: de }
            language_switching: detect
            """)
        let job = try RenderedJob.run(ws, manifest)
        let declared = try Self.paragraph(job, Self.french1)
        #expect(declared["voice"] as? String == "en" && declared["detected"] == nil && declared["language"] == nil)
        let detected = try Self.paragraph(job, Self.french2)
        #expect(detected["voice"] as? String == "fr-fr" && detected["language"] as? String == "fr" && detected["detected"] as? Bool == true)
        #expect(try Self.paragraph(job, Self.english1)["voice"] as? String == "en")
    }

    // MARK: #24, item 6: a root's language is a default; verse and unmarked passages

    static let stanza = ["Mignonne, allons voir si la rose", "Qui ce matin avoit desclose", "Sa robe de pourpre au Soleil,",
                         "A point perdu ceste vesprée", "Les plis de sa robe pourprée,", "Et son teint au vostre pareil."]
    static let sentence = "Il faisait nuit noire quand nous sommes enfin montés dans nos chambres, et personne ne parlait plus."

    /// An English page (`<html lang="en">`) holding a French stanza and an unmarked French
    /// sentence, rendered with real espeak-ng: the sidecar reads them in French; a `lang` nearer
    /// than the root, in another language, wins.
    @Test func detectionRunsUnderARootLanguage() throws {
        let ws = try Workspace("detect-root")
        try ws.write("ronsard.html", """
            <!DOCTYPE html>
            <html lang="en"><head><title>Ronsard</title></head><body>
            <p>\(Self.english1)</p>
            <div class="poem"><p>\(Self.stanza.joined(separator: "<br/>\n"))</p></div>
            <p>\(Self.english2) \(Self.sentence) \(Self.english3)</p>
            <p lang="de">\(Self.english3)</p>
            </body></html>
            """)
        let manifest = try ws.write("ronsard.yml", """
            title: Ronsard
            sources: [ronsard.html]
            languages: { fr: fr-fr }
            language_switching: detect
            """)
        let job = try RenderedJob.run(ws, manifest)
        let stanza = try #require(job.paragraphs.first { ($0["text"] as? String ?? "").hasPrefix("Mignonne") })
        #expect(stanza["voice"] as? String == "fr-fr" && stanza["language"] as? String == "fr" && stanza["detected"] as? Bool == true)
        #expect(try Self.paragraph(job, Self.english1)["language"] == nil)
        let late = try #require(job.paragraphs.first { ($0["text"] as? String ?? "").hasPrefix(Self.english2) })
        let spans = late["spans"] as? [[String: Any]] ?? []
        try #require(late["language"] == nil && spans.count == 1, "\(late)")
        #expect(spans[0]["language"] as? String == "fr" && spans[0]["voice"] as? String == "fr-fr" && spans[0]["detected"] as? Bool == true)
        let units = Array((late["text"] as! String).utf16)
        let offset = spans[0]["offset"] as! Int, length = spans[0]["length"] as! Int
        #expect(String(decoding: units[offset..<(offset + length)], as: UTF16.self) == Self.sentence)
        // Declared on the paragraph itself: not second-guessed, whatever its words.
        let declared = try Self.paragraph(job, Self.english3)
        #expect(declared["voice"] as? String == "de" && declared["language"] as? String == "de" && declared["detected"] == nil)
    }

    /// A plain text's indented French stanza and unmarked French sentence, as `check --text`
    /// shows them; a name and "Yes." stay English.
    @Test func checkShowsFrenchPassagesOfAPlainText() throws {
        let ws = try Workspace("detect-text")
        try ws.write("uncle.txt", """
            CHAPTER I

            \(Self.english1)

            \(Self.stanza.map { "    " + $0 }.joined(separator: "\n"))

            Monsieur Dupont.

            Yes.

            \(Self.english2) \(Self.sentence) \(Self.english3)

            """)
        let manifest = try ws.write("uncle.yml", """
            title: Uncle
            sources: [uncle.txt]
            languages: { fr: fr-fr }
            language_switching: detect
            """)
        let check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.components(separatedBy: "\n")
        #expect(lines.contains("  [fr, detected: fr-fr] " + Self.stanza.joined(separator: " ")), "\(check.stdout)")
        #expect(lines.contains("    ↳ [fr, detected: fr-fr] " + Self.sentence), "\(check.stdout)")
        #expect(lines.contains("  Monsieur Dupont.") && lines.contains("  Yes."), "\(check.stdout)")
        #expect(lines.filter { $0.contains("detected") }.count == 2, "\(check.stdout)")
        let summary = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect(summary.stdout.contains("languages detected: fr (1 paragraphs, 1 passages in paragraphs)"), "\(summary.stdout)")
    }
}
