import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// What espeak-ng says for the spoken forms, checked with espeak-ng itself (its command-line
/// tool's phoneme transcription, `-x`), and how the segmenter applies them.
@Suite struct SpokenFormsSpeechTests {
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Config")
    static let forms = try! SpokenForms.load(configDirectory: config)

    /// espeak-ng's phonemes for `text` (`espeak-ng -q -x -v VOICE`), clause breaks as spaces.
    static func phonemes(_ text: String, voice: String = "en-gb") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-q", "-x", "-v", voice, text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "espeak-ng failed on \"\(text)\"")
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The text the engine is given for `text`: the spoken forms applied as `SpokenText` applies
    /// every pronunciation hint.
    static func spoken(_ text: String, _ kind: BlockKind = .paragraph, _ language: String = "en-gb", urls: URLReading = .domain) -> String {
        var forms = Self.forms
        forms.urls = urls
        return SpokenText(text, pronunciations: forms.pronunciations(in: text, kind: kind, language: language)).text
    }

    static let espeakInstalled = (try? phonemes("test")) != nil

    @Test(.enabled(if: espeakInstalled, "needs espeak-ng (make build installs it)"))
    func espeakSaysTheIntendedWords() throws {
        let cases: [(written: String, kind: BlockKind, intended: String)] = [
            ("CHAPTER XIV.", .heading, "Chapter fourteen."),
            ("XIV.", .heading, "Fourteen."),
            ("BOOK II", .heading, "Book two"),
            ("Charles II. was restored in 1660.", .paragraph, "Charles the Second was restored in sixteen sixty."),
            ("He was born in 1896, on May 3, 1905.", .paragraph, "He was born in eighteen ninety six, on May 3, nineteen oh five."),
            ("From 1890 to 1900, the 1890s.", .paragraph, "From eighteen ninety to nineteen hundred, the eighteen nineties."),
            ("In 1066 A.D. and since 2014.", .paragraph, "In ten sixty six A.D. and since twenty fourteen."),
            ("There were 1896 men.", .paragraph, "There were 1896 men."),
            ("Apples, pears, etc. Then Smith vs. Jones.", .paragraph, "Apples, pears, et cetera. Then Smith versus Jones."),
            ("It cost £70, or £1 17s. 9d. He had $5.50.", .paragraph, "It cost seventy pounds, or one pound seventeen shillings nine pence. He had five dollars fifty."),
            ("Louis XIV's court.", .paragraph, "Louis the Fourteenth's court."),
            ("Henry VIII had six wives.", .paragraph, "Henry the Eighth had six wives."),
            ("I said I would see Dr. Watson.", .paragraph, "I said I would see Doctor Watson."),
            ("DR. WATSON AND MRS. HUDSON", .paragraph, "Doctor Watson and Missus Hudson"),
            ("Apples, i.e. fruit, &c.", .paragraph, "Apples, that is fruit, et cetera."),
            ("See http://www.gutenberg.net for more.", .paragraph, "See gutenberg dot net for more."),
            ("Write to someone@example.org today.", .paragraph, "Write to someone at example dot org today."),
            ("He left. *** She stayed.", .paragraph, "He left. She stayed."),
            ("The crown passed to James II. He fled.", .paragraph, "The crown passed to James the Second. He fled."),
            ("Henry V. was crowned by James I. Then I went.", .paragraph, "Henry the Fifth was crowned by James the First. Then I went."),
            ("Charles V's reign, King Charles I was beheaded.", .paragraph, "Charles the Fifth's reign, King Charles the First was beheaded."),
            ("Mary I think, said Henry. I am sure.", .paragraph, "Mary I think, said Henry. I am sure."),
            ("It cost 10 fr. 50 c. and 2s. 6d., or 6d. He owed 3l. 10s.", .paragraph,
             "It cost ten francs fifty centimes and two shillings six pence, or six pence. He owed three pounds ten shillings."),
            ("Water is H2O, and CO2.", .paragraph, "Water is H two O, and C O two."),
        ]
        for c in cases {
            let said = try Self.phonemes(Self.spoken(c.written, c.kind))
            #expect(said == (try Self.phonemes(c.intended)), "\"\(c.written)\" is spoken as \"\(Self.spoken(c.written, c.kind))\"")
        }
        // Without the rules espeak-ng says "roman fourteen", "roman two", letter-by-letter addresses.
        #expect(try Self.phonemes("CHAPTER XIV.").contains("r,oUm@n"))
        #expect(try !Self.phonemes(Self.spoken("CHAPTER XIV.", .heading)).contains("r,oUm@n"))
        #expect(try Self.phonemes(Self.spoken("Charles II.")).contains("s'Ek@nd"), "Charles the Second")
        let url = try Self.phonemes(Self.spoken("http://www.gutenberg.net"))
        #expect(!url.contains("d,Vb@Lj") && !url.contains("eItS"), "not spelled out: \(url)")
        // A single-letter numeral after a king's name, as written: "James eye", "Henry vee".
        #expect(try Self.phonemes("James I.").hasSuffix("'aI"))
        #expect(try Self.phonemes(Self.spoken("James I.")).hasSuffix("f'3:st"), "James the First")
        #expect(try Self.phonemes("Henry V.").hasSuffix("v'i:"))
        #expect(try Self.phonemes(Self.spoken("Henry V.")).hasSuffix("f'IfT"), "Henry the Fifth")
        // Sums without a sign: as written espeak-ng says "six dee", "three el".
        #expect(try Self.phonemes("6d.").contains("d'i:"))
        #expect(try Self.phonemes(Self.spoken("2s. 6d.")).hasSuffix("p'Ens"), "six pence")
        #expect(try Self.phonemes(Self.spoken("3l. 10s.")).contains("p'aUndz"), "three pounds")
        // Formulas: as written espeak-ng says "aitch two so four", "co two", "nah cee el"; spelled,
        // every letter and number is heard.
        #expect(try Self.phonemes("H2SO4").contains("s,oU"))
        #expect(try Self.phonemes(Self.spoken("H2SO4")) == "'eItS t'u: 'Es 'oU f'o@")
        #expect(try Self.phonemes("CO2").hasPrefix("k'oU"))
        #expect(try Self.phonemes(Self.spoken("CO2")) == "s'i:; 'oU t'u:")
        #expect(try Self.phonemes("NaCl").hasPrefix("n'A:"))
        #expect(try Self.phonemes(Self.spoken("NaCl")) == "'En 'eI s'i:; 'El")
        // The pronoun stays the pronoun.
        #expect(Self.spoken("I said so.") == "I said so.")
        #expect(try Self.phonemes(Self.spoken("I said so.")).hasPrefix("aI s'Ed"))
        // Skipped addresses are silent; read ones are spelled as espeak-ng does.
        #expect(try Self.phonemes(Self.spoken("See http://www.gutenberg.net now.", urls: .skip)) == (try Self.phonemes("See now.")))
        #expect(Self.spoken("See http://www.gutenberg.net now.", urls: .read) == "See http://www.gutenberg.net now.")
    }

    @Test(.enabled(if: espeakInstalled, "needs espeak-ng (make build installs it)"))
    func frenchAndGermanNumeralsAsEspeakSaysThem() throws {
        let cases: [(written: String, language: String, voice: String, intended: String)] = [
            ("Louis XIV régna.", "fr", "fr", "Louis quatorze régna."),
            ("François Ier et Henri IV.", "fr", "fr", "François premier et Henri quatre."),
            ("Au XIXe siècle.", "fr", "fr", "Au dix-neuvième siècle."),
            ("CHAPITRE XIV", "fr", "fr", "Chapitre quatorze"),
            ("M. Dupont, p. ex.", "fr", "fr", "Monsieur Dupont, par exemple"),
            ("Ludwig XIV. war König.", "de", "de", "Ludwig der Vierzehnte war König."),
            ("Friedrich II. von Preußen", "de", "de", "Friedrich der Zweite von Preußen"),
            // espeak-ng says "14" with a shorter vowel than "vierzehn" (f'Irtse:n, f'i:rtse:n): the digits it is.
            ("Kapitel XIV", "de", "de", "Kapitel 14"),
            ("z. B. Nr. 5", "de", "de", "zum Beispiel Nummer fünf"),
        ]
        for c in cases {
            let text = Self.spoken(c.written, .paragraph, c.language)
            #expect(try Self.phonemes(text, voice: c.voice) == (try Self.phonemes(c.intended, voice: c.voice)), "\"\(c.written)\" is spoken as \"\(text)\"")
        }
        // As written, espeak-ng says "römisch vierzehn" and "quatorze romain".
        #expect(try Self.phonemes("Kapitel XIV", voice: "de").contains("r,Y:mIS"))
        #expect(try Self.phonemes("Louis XIV", voice: "fr").contains("rom'E~"))
    }

    @Test func timingsStillPointAtTheWrittenWords() throws {
        let engine = try EspeakEngine.shared()
        let text = "Charles II. met Dr. Watson at http://www.gutenberg.net in CHAPTER XIV. * * * I said so."
        let hints = Self.forms.pronunciations(in: text, kind: .paragraph, language: "en")
        #expect(hints.count == 5)
        let voice = ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1)
        let synthesis = try engine.synthesize(text, voice: voice, pronunciations: hints)
        let units = Array(text.utf16)
        let marked = synthesis.words.map { String(decoding: units[$0.textOffset..<($0.textOffset + $0.textLength)], as: UTF16.self) }
        // Every respelled word has a mark of the engine's own, pointing at the word as written.
        for written in ["II.", "Dr.", "http://www.gutenberg.net", "XIV."] {
            #expect(marked.contains(written), "\(written) not in \(marked)")
        }
        for (a, b) in zip(synthesis.words, synthesis.words.dropFirst()) { #expect(a.textOffset < b.textOffset && a.sample <= b.sample) }
        // And the words that follow keep their own: "I said so" after the silent dinkus.
        #expect(marked.suffix(3) == ["I", "said", "so"])
    }

    static func hints(_ u: Utterance) -> [String] {
        u.pronunciations.map { String(decoding: Array(u.text.utf16)[$0.offset..<$0.end], as: UTF16.self) + "=" + $0.spoken }
    }

    @Test func theSegmenterAddsTheSpokenFormsOfEachUtterancesLanguage() throws {
        let book = Book(chapters: [
            Chapter(title: "CHAPTER XIV.", blocks: [
                Block(kind: .heading, text: "I"),
                Block(kind: .paragraph, text: "Charles II. met Dr. Watson."),
                Block(kind: .paragraph, text: "Louis XIV et M. Dupont.", language: "fr-FR"),
                Block(kind: .paragraph, text: "Charles II. met Ludwig XIV. heute.", spans: [LanguageSpan(offset: 16, length: 11, language: "de")]),
                Block(kind: .paragraph, text: "Carlo II.", language: "it"),
            ], source: "book.txt"),
        ])
        var m = try manifest("title: T\nsources: [book.txt]\nvoice: { name: en-gb }\n")
        m.configDirectory = Self.config
        let u = try Segmenter(manifest: m).plan(book).chapters[0].utterances
        #expect(Self.hints(u[0]) == ["XIV.=14."])
        #expect(Self.hints(u[1]) == ["I=1"])
        #expect(Self.hints(u[2]) == ["II.=the Second", "Dr.=Doctor"])
        #expect(Self.hints(u[3]) == ["XIV=14", "M.=Monsieur"], "French rules for a French block")
        #expect(Self.hints(u[4]) == ["II.=the Second", "XIV.=der Vierzehnte"], "German rules inside the German span")
        #expect(Self.hints(u[5]) == [], "no rules for Italian")

        // The book's language comes before the voice's.
        var german = book
        german.metadata.language = "de"
        german.chapters[0].title = "KAPITEL XIV."
        german.chapters[0].blocks = [Block(kind: .paragraph, text: "Ludwig XIV. war da.")]
        #expect(try Segmenter(manifest: m).plan(german).chapters[0].utterances.map(Self.hints) == [["XIV.=14."], ["XIV.=der Vierzehnte"]])
    }

    @Test func lexiconsWinAndTheBuiltInEnglishRulesNeedNoConfig() throws {
        let book = Book(chapters: [Chapter(title: "CHAPTER II.", blocks: [
            Block(kind: .paragraph, text: "Dr. Who met Charles II. at www.pgdp.net.",
                  pronunciations: [Pronunciation(offset: 12, length: 7, spoken: "Carl")]),
        ], source: "book.txt")])
        let lexicon = try Lexicon(name: "mine", language: "en", entries: [.init(match: .word("Dr."), spoken: "Dee-ar")])
        // No Config folder: the built-in English rules, with the manifest's `urls:`.
        let m = try manifest("title: T\nsources: [book.txt]\nurls: skip\n")
        #expect(m.configDirectory == nil)
        let u = try Segmenter(manifest: m, lexicons: [lexicon]).plan(book).chapters[0].utterances
        #expect(Self.hints(u[0]) == ["II.=2."])
        #expect(Self.hints(u[1]) == ["Dr.=Dee-ar", "Charles=Carl", "II.=the Second", "www.pgdp.net.= ."])
        // Rules given to the segmenter are used as they are.
        let none = try Segmenter(manifest: m, spokenForms: .empty).plan(book).chapters[0].utterances
        #expect(Self.hints(none[1]) == ["Charles=Carl"])
    }
}

/// A note read away from its marker is announced by its label, in the words of its language's
/// rules (`note:` in Config/spoken/LANG.yml), said before its first word and timed with it.
@Suite struct NoteAnnouncementTests {
    @Test(.enabled(if: SpokenFormsSpeechTests.espeakInstalled, "needs espeak-ng (make build installs it)"))
    func aNoteIsAnnouncedByItsLabelInItsLanguage() throws {
        var block = Block(kind: .quote, text: "At the hospital of Saint Giles.")
        block.noteLabel = "12"
        let book = Book(chapters: [Chapter(title: "One", blocks: [Block(kind: .paragraph, text: "The sea rolled on."), block], source: "book.txt")])
        let plan = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\n"), spokenForms: SpokenFormsSpeechTests.forms).plan(book)
        let note = try #require(plan.chapters.first?.utterances.last)
        #expect(note.text == "At the hospital of Saint Giles.", "the written text is unchanged: only it is timed")
        #expect(note.spokenText == "Note 12. At the hospital of Saint Giles.")
        #expect(try SpokenFormsSpeechTests.phonemes(note.spokenText).hasPrefix(try SpokenFormsSpeechTests.phonemes("Note 12.")))
        var german = block
        german.language = "de"
        let planned = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\n"), spokenForms: SpokenFormsSpeechTests.forms)
            .plan(Book(chapters: [Chapter(title: "Eins", blocks: [german], source: "book.txt")]))
        #expect(planned.chapters.first?.utterances.last?.spokenText.hasPrefix("Anmerkung 12.") == true)
    }
}
