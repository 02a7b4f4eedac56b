import Foundation
import Testing
import LecternTesting

/// Pronunciation hints: an EPUB's PLS lexicon and `ssml:ph` attributes, and a manifest's own
/// lexicon, change what espeak-ng says, while every word's timing still points at the text as
/// written.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct PronunciationTests {
    /// The Georgia sample up to its History section (about 6,000 words), with or without the
    /// book's own pronunciation hints.
    static func renderGeorgia(_ ws: Workspace, hints: Bool) throws -> RenderedJob {
        let name = hints ? "with" : "without"
        let manifest = try ws.write("\(name).yml", """
            sources:
              - path: \(Corpus.file("epub/idpf-georgia-pls-ssml.epub").path)
                end_at: '^History\\.$'
                pronunciation: \(hints)
            voice: { name: en-us, wpm: 300 }
            audio: { bitrate: 56 }
            """)
        return try RenderedJob.run(ws, manifest)
    }

    static func slice(_ text: String, _ offset: Int, _ length: Int) -> String {
        String(decoding: Array(text.utf16)[offset..<(offset + length)], as: UTF16.self)
    }

    static func words(_ paragraph: [String: Any]) -> [[String: Any]] {
        (paragraph["sentences"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
    }

    /// espeak-ng's own phoneme transcription (its command-line tool, `-x`) of `text`.
    static func phonemes(_ text: String) throws -> String {
        let out = try Tool.run("espeak-ng", ["-v", "en-us", "-q", "-x", text])
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The graphemes of the EPUB's PLS lexicon, read with Python's zipfile and ElementTree.
    static func plsGraphemes() throws -> Set<String> {
        let script = """
            import sys, zipfile, xml.etree.ElementTree as ET
            z = zipfile.ZipFile(sys.argv[1])
            root = ET.fromstring(z.read('EPUB/lexicon/en.pls'))
            ns = '{http://www.w3.org/2005/01/pronunciation-lexicon}'
            for g in root.iter(ns + 'grapheme'): print(g.text.strip())
            """
        let out = try Tool.run("python3", ["-c", script, Corpus.file("epub/idpf-georgia-pls-ssml.epub").path])
        try #require(out.status == 0, "\(out.stderr)")
        return Set(out.stdout.split(separator: "\n").map(String.init))
    }

    @Test func theEPUBsLexiconChangesThePhonemesSpokenAndTimingsPointAtTheWrittenWord() throws {
        let ws = try Workspace("pronunciation-epub")
        let with = try Self.renderGeorgia(ws, hints: true)
        let without = try Self.renderGeorgia(ws, hints: false)
        let hinted = with.paragraphs, plain = without.paragraphs
        try #require(hinted.count == plain.count && hinted.count > 20)
        let graphemes = try Self.plsGraphemes()

        var changedWords: Set<String> = []
        var ssmlHints = 0
        var compared: Set<String> = []
        // The book's hints are all phonemes; the spoken forms ("i.e.", "George II.", "&c.") are
        // respellings, applied either way.
        let isTheBooks = { (hint: [String: Any]) in (hint["spoken"] as? String ?? "").hasPrefix("[[") }
        for (p, q) in zip(hinted, plain) {
            let text = p["text"] as? String ?? ""
            #expect(text == q["text"] as? String, "both renders read the same text")
            #expect((q["pronounced"] as? [[String: Any]] ?? []).filter(isTheBooks).isEmpty, "pronunciation: false ignores the book's hints")
            // Whatever is spoken, the timed words are the written words, in order.
            let words = Self.words(p)
            #expect(words.map { Self.slice(text, $0["offset"] as! Int, $0["length"] as! Int) } == independentWords(text),
                    "\(text.prefix(60))")
            for hint in (p["pronounced"] as? [[String: Any]] ?? []).filter(isTheBooks) {
                let offset = hint["offset"] as! Int, length = hint["length"] as! Int, spoken = hint["spoken"] as! String
                let written = Self.slice(text, offset, length)
                #expect(spoken.hasPrefix("[[") && spoken.hasSuffix("]]"), "\(written) → \(spoken)")
                // The timed word holding it (it may be part of a longer one, "(S.W.)") has a
                // time from the engine's own marks, not an estimate. (A symbol such as "℔" is
                // spoken as the lexicon says but is no word of the text, so it has no timing.)
                guard written.rangeOfCharacter(from: .alphanumerics) != nil else { continue }
                let holder = words.first { w in
                    (w["offset"] as! Int) <= offset && offset < (w["offset"] as! Int) + (w["length"] as! Int)
                }
                #expect(holder != nil && holder?["estimated"] == nil, "\"\(written)\" is not timed by a mark: \(String(describing: holder))")
                if graphemes.contains(written) {
                    if !compared.contains(written), try Self.phonemes(written) != Self.phonemes(spoken) { changedWords.insert(written) }
                    compared.insert(written)
                } else {
                    ssmlHints += 1
                }
            }
        }
        // espeak-ng's own transcription shows that the lexicon's pronunciation differs from its
        // default for several listed words (e.g. Macon: m'ak@n → m'eIk@n).
        #expect(changedWords.count >= 3, "\(changedWords)")
        #expect(ssmlHints >= 10, "the ssml:ph attributes are honoured too")

        // And the audio differs where such a word is spoken: the paragraph's decoded speech.
        let pcmWith = try Tool.decode(with.mp3), pcmWithout = try Tool.decode(without.mp3)
        let rate = 22050
        let word = try #require(changedWords.sorted().first)
        let index = try #require(hinted.firstIndex { paragraph in
            (paragraph["pronounced"] as? [[String: Any]] ?? []).contains { h in
                Self.slice(paragraph["text"] as! String, h["offset"] as! Int, h["length"] as! Int) == word
            }
        })
        func speech(_ pcm: [Int16], _ paragraph: [String: Any]) -> [Int16] {
            let start = (paragraph["start"] as! Int) * rate / 1000, end = (paragraph["end"] as! Int) * rate / 1000
            return Array(pcm[max(0, start)..<min(pcm.count, end)])
        }
        let a = speech(pcmWith, hinted[index]), b = speech(pcmWithout, plain[index])
        let difference = zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(1, min(a.count, b.count)))
        #expect(a.count != b.count || difference > 100, "the paragraph with \"\(word)\" sounds the same either way")
        #expect((with.sidecar["unpronounced"] as? [Any])?.isEmpty == true, "every hint in this book can be expressed")
    }

    @Test func aManifestLexiconRespellsAndReportsWhatItCannotSay() throws {
        let ws = try Workspace("pronunciation-lexicon")
        try ws.write("story.md", """
            # The Visit

            Hermione met Dr. Okonkwo in Leicester at noon. HERMIONE was late; hermione's excuse was the train.
            """)
        try ws.write("names.yml", """
            language: en
            words:
              Hermione: her my oh nee
              Leicester: "[[l'Est@]]"
              Okonkwo: /oʊˈkɒŋkwoʊ/
              noon: /nuːʀ/
            patterns:
              '\\bDr\\.(?= [A-Z])': Doctor
            """)
        let manifest = try ws.write("visit.yml", """
            title: The Visit
            sources: [story.md]
            lexicons: [names.yml]
            voice: { name: en-gb }
            """)
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("read as written: \"noon\""), "\(check.stdout)")
        let visit = try RenderedJob.run(ws, manifest)
        let paragraph = try #require(visit.paragraphs.first { ($0["text"] as? String ?? "").hasPrefix("Hermione met") })
        let text = paragraph["text"] as! String
        let hints = (paragraph["pronounced"] as? [[String: Any]] ?? []).map {
            (Self.slice(text, $0["offset"] as! Int, $0["length"] as! Int), $0["spoken"] as! String)
        }
        // Whole words only: not "HERMIONE" (a capitalised entry matches as written), not inside
        // "hermione's"; the pattern only before a capitalised name; IPA converted.
        #expect(hints.map(\.0) == ["Hermione", "Dr.", "Okonkwo", "Leicester"], "\(hints)")
        #expect(hints.map(\.1) == ["her my oh nee", "Doctor", "[[oUk'0NkwoU]]", "[[l'Est@]]"], "\(hints)")
        let unpronounced = visit.sidecar["unpronounced"] as? [[String: Any]] ?? []
        #expect(unpronounced.count == 1 && unpronounced.first?["text"] as? String == "noon", "\(unpronounced)")
        // The respelled name ("her my oh nee", four spoken words) is still one timed word.
        let words = Self.words(paragraph)
        #expect(words.map { Self.slice(text, $0["offset"] as! Int, $0["length"] as! Int) } == independentWords(text))
        #expect(words[0]["offset"] as? Int == 0 && words[0]["length"] as? Int == 8)
        #expect(words[0]["estimated"] == nil && words[1]["estimated"] == nil, "the hinted words carry the engine's own marks")
    }
}
