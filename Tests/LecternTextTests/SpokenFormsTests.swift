import Foundation
import Testing
import LecternCore
import LecternText

/// The spoken-form rules of `Config/spoken/*.yml` on small inputs: what is respelled, what is
/// left alone, and that every hint covers whole words.
@Suite struct SpokenFormsTests {
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Config")
    static let forms = try! SpokenForms.load(configDirectory: config)

    /// "written=spoken" for each hint, in order.
    static func said(_ text: String, _ kind: BlockKind = .paragraph, _ language: String = "en", urls: URLReading = .domain) -> [String] {
        var forms = Self.forms
        forms.urls = urls
        let hints = forms.pronunciations(in: text, kind: kind, language: language)
        // Every hint covers whole words: it starts and ends at word boundaries (or covers none).
        let tokens = WordTokenizer.tokens(in: text)
        for h in hints {
            for t in tokens where t.start < h.end && h.offset < t.end {
                #expect(t.start >= h.offset && t.end <= h.end, "\(h) cuts the word at \(t.start)..<\(t.end) of \"\(text)\"")
            }
        }
        return hints.map { String(decoding: Array(text.utf16)[$0.offset..<$0.end], as: UTF16.self) + "=" + $0.spoken }
    }

    @Test func romanNumeralsParseOnlyInCanonicalForm() {
        #expect(RomanNumeral.value(of: "XIV") == 14)
        #expect(RomanNumeral.value(of: "xiv") == 14)
        #expect(RomanNumeral.value(of: "MCMXCIX") == 1999)
        #expect(RomanNumeral.value(of: "CXXXV") == 135)
        for word in ["IIII", "VX", "IC", "DID", "CIVIL", "LIVID", "Xiv", "MIXED", "", "ABC"] {
            #expect(RomanNumeral.value(of: word) == nil, "\(word)")
        }
        #expect((1...3999).allSatisfy { RomanNumeral.value(of: RomanNumeral.string(for: $0)!) == $0 })
    }

    @Test func numeralsInHeadingsAreCardinals() {
        #expect(Self.said("CHAPTER XIV.", .heading) == ["XIV.=14."])
        #expect(Self.said("XIV.", .heading) == ["XIV.=14."])
        #expect(Self.said("I", .heading) == ["I=1"])
        #expect(Self.said("CHAPTER I.", .heading) == ["I.=1."])
        #expect(Self.said("BOOK II", .heading) == ["II=2"])
        #expect(Self.said("II. THE RETURN", .heading) == ["II.=2."])
        #expect(Self.said("PART II. CHAPTER IV.", .heading) == ["II.=2.", "IV.=4."])
        #expect(Self.said("CHAPTER CXXXV. The Chase", .heading) == ["CXXXV.=135."])
        #expect(Self.said("EPOCH THE SECOND", .heading) == [])
        #expect(Self.said("I WAS BORN", .heading) == [], "the pronoun starting a heading")
        #expect(Self.said("WHAT I SAW", .heading) == [])
        #expect(Self.said("MIX AND MATCH", .heading) == [], "MIX is a canonical 1009, too big for a heading's number")
    }

    @Test func numeralsAfterCardinalWordsAndInLists() {
        #expect(Self.said("As told in Chapter XIV, the ship sank.") == ["XIV,=14,"])
        #expect(Self.said("See chapter xiv. of the first book.") == ["xiv.=14"], "lower case after a cardinal word; the period was the numeral's")
        #expect(Self.said("Read Vol. II and Act III, Scene ii.") == ["Vol.=volume", "II=2", "III,=3,", "ii.=2."])
        #expect(Self.said("World War II ended.") == ["II=2"])
        #expect(Self.said("See p. xiv of the preface.") == ["p.=page", "xiv=14"])
        #expect(Self.said("IV. The fourth point is this.") == ["IV.=4."])
        #expect(Self.said("IV. The fourth point.", .listItem) == ["IV.=4."])
        #expect(Self.said("Chapter I. Down the Rabbit-Hole", .heading) == ["I.=1."])
        #expect(Self.said("He wrote Letter I.") == ["I.=1."])
    }

    @Test func thePronounIAndLookAlikeWordsAreLeftAlone() {
        #expect(Self.said("I said I would, and I'll go; I. e. not you.") == ["I. e.=that is"])
        #expect(Self.said("I. The first thing I knew.") == [], "a paragraph starting \"I. \" may be the pronoun")
        #expect(Self.said("the letter I wrote and the part I played") == [])
        #expect(Self.said("MIX the CIVIL and LIVID paint, DID you? MIX it.") == [])
        #expect(Self.said("C. P. E. Bach took vitamin C and Smith V rode out.") == [], "single letters after names are ambiguous")
        #expect(Self.said("Mix in the Civil War, did Mi Li?") == [])
        #expect(Self.said("The MI5 officer and DC Comics.") == [])
    }

    @Test func regnalNumeralsAreOrdinals() {
        #expect(Self.said("Charles II. was restored.") == ["II.=the Second"])
        #expect(Self.said("It was the court of Louis XIV, the Sun King.") == ["XIV,=the Fourteenth,"])
        #expect(Self.said("Henry VIII's wives.") == ["VIII's=the Eighth's"])
        #expect(Self.said("Pope John XXIII died.") == ["XXIII=the Twenty-third"])
        #expect(Self.said("He served Charles II.") == ["II.=the Second."], "the sentence ends there")
        #expect(Self.said("THE REIGN OF CHARLES II. THE KING") == ["II.=the Second."])
        #expect(Self.said("In II we saw it.") == [], "not after a word that is no name")
    }

    @Test func singleLetterRegnalNumeralsNeedAKingsName() {
        #expect(Self.said("The crown passed to James II. He fled.") == ["II.=the Second."])
        #expect(Self.said("Henry V. was crowned, Henry V won; by James I. Then I went.") == ["V.=the Fifth", "V=the Fifth", "I.=the First."])
        #expect(Self.said("Charles V's reign, Louis XIV, and Charles I's head.") == ["V's=the Fifth's", "XIV,=the Fourteenth,", "I's=the First's"])
        #expect(Self.said("King Charles I was beheaded; James I of England; under Elizabeth I, the arts grew.") ==
                ["I=the First", "I=the First", "I,=the First,"])
        #expect(Self.said("Pius X was pope before Elizabeth I") == ["X=the Tenth", "I=the First"])
        #expect(Self.said("THE REIGN OF JAMES I.", .heading) == ["I.=the First."])
        // The pronoun after a name stays the pronoun: no punctuation after it, no title, no "of".
        #expect(Self.said("Mary I think not, said Henry. I am sure. It was Henry I said it.").isEmpty)
        #expect(Self.said("Yes, Henry, I know. Henry? I know. “Henry I’m sure”").isEmpty)
        #expect(Self.said("Then I went, Smith I saw and Brown V lost; the Henry V class.") == ["V=the Fifth"], "only after a king's name")
        #expect(Self.said("WHAT I SAW OF HENRY I AM", .heading).isEmpty)
        #expect(Self.said("Mr. John I. Brown and Dr. Henry V. Poor came.") == ["Mr.=Mister", "Dr.=Doctor"], "middle initials after a title")
    }

    @Test func frenchAndGermanRegnalForms() {
        #expect(Self.said("Louis XIV régna longtemps.", .paragraph, "fr") == ["XIV=14"])
        #expect(Self.said("François Ier et Henri IV.", .paragraph, "fr-FR") == ["Ier=premier", "IV.=4."])
        #expect(Self.said("Au XIXe siècle, Napoléon III.", .paragraph, "fr") == ["XIXe=dix-neuvième", "III.=3."])
        #expect(Self.said("CHAPITRE XIV", .heading, "fr") == ["XIV=14"])
        // A century: the ordinal, then "s." after it as the word it stands for; "s." elsewhere stays.
        #expect(Self.said("Un château du XIXe s. restauré", .paragraph, "fr") == ["XIXe=dix-neuvième", "s.=siècle"])
        #expect(Self.said("bâti au 12e s. puis", .paragraph, "fr").contains("s.=siècle"))
        #expect(Self.said("Le s. manquant", .paragraph, "fr") == [])
        #expect(Self.said("Rome, 44 av. J.-C.", .paragraph, "fr") == ["av. J.-C.=avant Jésus-Christ."], "it ends the text, so its sentence")
        // Ratings after a name; a separator of stars stays a pause; English has no rating rule.
        #expect(Self.said("L'Hôtel du Port ** est au bord de l'eau.", .paragraph, "fr") == ["**=2 étoiles"], "espeak-ng says deux étoiles")
        #expect(Self.said("Le Relais ★ puis la plage", .paragraph, "fr") == ["★=une étoile"])
        #expect(Self.said("* * *", .paragraph, "fr") == ["* * *=,"])
        #expect(Self.said("The Harbour Hotel ** by the sea", .paragraph, "en") == ["**=,"])
        #expect(Self.said("Ce livre de Le Clerc", .paragraph, "fr") == [], "Ce, De, Le are no numerals with endings")
        #expect(Self.said("Ludwig XIV. war König.", .paragraph, "de") == ["XIV.=der Vierzehnte"])
        #expect(Self.said("Unter Friedrich II.", .paragraph, "de-DE") == ["II.=der Zweite."])
        #expect(Self.said("Kapitel XIV", .heading, "de") == ["XIV=14"])
        #expect(Self.said("Charles II.", .paragraph, "it") == [], "no rules for Italian")
    }

    @Test func abbreviationsMatchInAnyCaseAsWholeWords() {
        #expect(Self.said("Dr. Watson, DR. WATSON and dr. watson.") == ["Dr.=Doctor", "DR.=Doctor", "dr.=Doctor"])
        #expect(Self.said("Mr. and Mrs. Smith; MR. Jones.") == ["Mr.=Mister", "Mrs.=Missus", "MR.=Mister"])
        #expect(Self.said("St. Paul's is on Baker St. in London.") == ["St.=Saint", "St.=Street"])
        #expect(Self.said("He lived on Baker St. The rain fell.") == ["St.=Street"])
        #expect(Self.said("Fruit, i.e. apples, e.g. (i.e.) and &c.") == ["i.e.=that is", "e.g.=for example", "(i.e.)=(that is)", "&c.=et cetera."])
        #expect(Self.said("E.G. this, I.E. that, viz. this.") == ["E.G.=for example", "I.E.=that is", "viz.=namely"])
        #expect(Self.said("No. 5 and no. XIV, but No. I won't.") == ["No.=number", "no.=number", "XIV,=14,"])
        #expect(Self.said("Drs. and Dr.Who and Mrsx. and the dr") == ["Drs.=Doctors"])
        #expect(Self.said("M. Dupont et Mme Curie, p. ex. ou p.ex.", .paragraph, "fr") ==
                ["M.=Monsieur", "Mme=Madame", "p. ex.=par exemple", "p.ex.=par exemple."])
        #expect(Self.said("Z. B. Nr. 5, d. h. z.B. usw.", .paragraph, "de") ==
                ["Z. B.=zum Beispiel", "Nr.=Nummer", "d. h.=das heißt", "z.B.=zum Beispiel", "usw.=und so weiter."])
    }

    @Test func urlsAreReadAsTheirDomainSilentOrAsWritten() {
        let text = "See http://www.gutenberg.net/etext or www.pgdp.net, and write to someone@example.org."
        #expect(Self.said(text) == ["http://www.gutenberg.net/etext=gutenberg dot net", "www.pgdp.net,=pgdp dot net,",
                                    "someone@example.org.=someone at example dot org."])
        #expect(Self.said(text, urls: .skip) == ["http://www.gutenberg.net/etext= ", "www.pgdp.net,= ,", "someone@example.org.= ."])
        #expect(Self.said(text, urls: .read) == [])
        #expect(Self.said("(https://gutenberg.org/ebooks/11).") == ["(https://gutenberg.org/ebooks/11).=(gutenberg dot org)."])
        #expect(Self.said("Voir www.gallica.bnf.fr.", .paragraph, "fr") == ["www.gallica.bnf.fr.=gallica point bnf point fr."])
    }

    @Test func symbolRunsStandingAloneAreAPause() {
        #expect(Self.said("He left. *** She stayed.") == ["***=,"])
        #expect(Self.said("He left. * * * She stayed.") == ["* * *=,"])
        #expect(Self.said("one ~~~ two --- three + four") == ["~~~=,", "---=,", "+=,"])
        #expect(Self.said("a-b, 3*4, x--y and ***emphasis***") == [], "symbols inside words are the words'")
    }

    @Test func hyphenatedApostropheAndOddTextNeverCutAWord() {
        #expect(Self.said("Louis-XIV, St.-Pierre, Dr.-ish, Mr's and I'll") == [])
        #expect(Self.said("see http://x.org—and www.y.net–then") == ["http://x.org=x dot org", "www.y.net=y dot net"])
        #expect(Self.said("“Dr. Watson,” said Mr. Holmes—“St. Paul’s.”") == ["“Dr.=“Doctor", "Mr.=Mister", "“St.=“Saint"])
        // Pieces thrown together at random: no crash, and every hint covers whole words (`said` checks).
        let pieces = ["XIV", "II.", "I", "I.", "Dr.", "dr", "St.", "z. B.", "i.e.", "&c.", "No.", "5", "Louis", "CHAPTER", "Charles",
                      "http://www.a.org/x", "www.b.net", "x@y.org", "@", "*", "* *", "~~~", "—", "–", "-", "'s", "’s", "“", "”", "(", ")",
                      ".", ",", " ", " ", " ", "\u{00A0}", "é", "😀", "Ier", "XIXe", "[[x]]"]
        var seed: UInt64 = 42
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        for _ in 0..<400 {
            let text = (0..<(next() % 14)).map { _ in pieces[next() % pieces.count] }.joined()
            for (kind, language) in [(BlockKind.paragraph, "en"), (.heading, "fr"), (.listItem, "de")] { _ = Self.said(text, kind, language) }
        }
    }

    @Test func anAbbreviationSaidAsPhonemesStandsAlone() throws {
        let rules = try SpokenRules.parse(yaml: "abbreviations:\n  Dr.: \"[[d'0kt3]]\"\n", file: "en.yml", language: "en")
        let forms = SpokenForms(rules: [rules])
        #expect(forms.pronunciations(in: "(Dr.) Who", kind: .paragraph, language: "en") == [Pronunciation(offset: 0, length: 5, spoken: "[[d'0kt3]]")])
    }

    @Test func theDocumentsHintsAndLexiconsComeFirstInTheMerge() throws {
        let text = "Dr. Who met Charles II."
        let own = [Pronunciation(offset: 0, length: 3, spoken: "Dee-ar")]
        let merged = Pronunciation.merging(own, Self.forms.pronunciations(in: text, kind: .paragraph, language: "en-GB"))
        #expect(merged.map(\.spoken) == ["Dee-ar", "the Second."])
    }

    @Test func yearsAreReadInTwoHalvesWhereTheTextShowsAYear() {
        #expect(Self.said("He was born in 1896.") == ["1896.=18 96."])
        #expect(Self.said("Since 1905, and until 1900 or c. 1850.") == ["1905,=19 oh 5,", "1900=19 hundred", "1850.=18 50."])
        #expect(Self.said("On May 3, 1896, it rained.") == ["1896,=18 96,"])
        #expect(Self.said("From 1890 to 1896 it rained.") == ["1890=18 90", "1896=18 96"])
        #expect(Self.said("It fell in 1066 A.D. and in 2014.") == ["1066=10 66", "2014.=20 14."])
        #expect(Self.said("The 1890s and the 1800's.") == ["1890s=18 nineties", "1800's.=18 hundreds."])
        #expect(Self.said("Garcilaso (1550) and Rameau (1683-1764) in 1206-07.") == ["(1550)=(15 50)", "(1683-1764)=(16 83 to 17 64)", "1206-07.=12 oh 6 to 12 oh 7."])
        #expect(Self.said("in November, 1703--while (d. 1483)") == ["1703=17 oh 3", "1483)=14 83)"])
        #expect(Self.said("As early as 1645, up to 1700 and the same year, 1685; as early 1500.") == ["1645,=16 45,", "1700=17 hundred", "1685;=16 85;"])
        // Nothing shows a year, or the number cannot be one: left to the engine.
        #expect(Self.said("There were 1896 men, and 2000 in 2005, in 1000.").isEmpty)
        #expect(Self.said("He paid £1896 in 12345 and 1,896 coins, in 1896.5 and 1500-2000 B.C.") == ["£1896=1896 pounds"])
        #expect(Self.said("From 1890 to 1896", .paragraph, "fr").isEmpty, "a language without year rules")
    }

    @Test func anAbbreviationThatMayEndASentenceKeepsItsEnd() {
        #expect(Self.said("Apples, pears, etc. Then we left.") == ["etc.=et cetera."])
        #expect(Self.said("Apples, pears, etc. and plums.") == ["etc.=et cetera"])
        #expect(Self.said("Dr. Watson and Smith vs. Jones.") == ["Dr.=Doctor", "vs.=versus"])
        #expect(Self.said("Leland Stanford Jr. University") == ["Jr.=Junior"], "a name goes on after Jr.")
        // Initials are no page keyword: "P. I. Brown" keeps its I.
        #expect(Self.said("Mr. P. I. Brown came, see p. iv.") == ["Mr.=Mister", "p.=page", "iv.=4."])
    }

    @Test func sumsOfMoneyAreReadWithTheirUnits() {
        #expect(Self.said("It cost £70, or £1 17s. 9d. He had $5.50 and $1.") == ["£70,=70 pounds,", "£1=1 pound", "17s.=17 shillings", "9d.=9 pence.", "$5.50=5 dollars 50", "$1.=1 dollar."])
        #expect(Self.said("She left £1,000,000 to (€20) and 9d.") == ["£1,000,000=1,000,000 pounds", "(€20)=(20 euros)", "9d.=9 pence."])
        // The sign apart from the amount: the hint covers both (and it is no year after "of").
        #expect(Self.said("a reward of £ 1000. Then") == ["£ 1000.=1000 pounds."])
        // Not sums: a unit with no sum before it, a sign before no amount, a number with more decimals.
        #expect(Self.said("The 60s. A £ sign, $5.5 and $x.").isEmpty)
    }

    @Test func sumsWithoutASignAndUnitsThatAreWords() {
        #expect(Self.said("It cost 10 fr. 50 c. and 6d., or 2s. 6d. or 1s. He owed 3l. 10s. and 100l. Then") ==
                ["10 fr.=10 francs", "50 c.=50 centimes", "6d.,=6 pence,", "2s.=2 shillings", "6d.=6 pence", "1s.=1 shilling.",
                 "3l.=3 pounds", "10s.=10 shillings", "100l.=100 pounds."])
        #expect(Self.said("Price 1s 6d; a 5 fr. note, 1 fr. Then") == ["1s=1 shilling", "6d;=6 pence;", "5 fr.=5 francs", "1 fr.=1 franc."])
        // Decades, ordinals, a unit without its period alone, centimes with no francs before: no sums.
        #expect(Self.said("In the 60s. and his 40s., the 3d of May, the 2d. and 1s and 0s, 9d and 50 c. and 70s.").isEmpty)
        #expect(Self.said("In the 1890s.") == ["1890s.=18 nineties."], "a decade is the year's")
    }

    @Test func chemicalFormulasAreSpelledWithTheirNumbers() {
        #expect(Self.said("Water is H2O, with CO2, H2SO4 and NaCl; CO₂ and C6H12O6's.") ==
                ["H2O,=H 2 O,", "CO2,=C O 2,", "H2SO4=H 2 S O 4", "NaCl;=N eh C L;", "CO₂=C O 2", "C6H12O6's.=C 6 H 12 O 6's."])
        // Words in capitals, single symbols, names, numerals and words with other letters are no formulas.
        #expect(Self.said("NO, HE IS IN THE BOOK. He went In, Co and McCoy, LaTeX, PhD, MP3, CIV and 4H2O.").isEmpty)
    }

    @Test func aMalformedYearRuleNamesItsKey() {
        #expect(throws: ManifestError.self) { try SpokenRules.parse(yaml: "years: { range: [1896] }\n", file: "en.yml", language: "en") }
        #expect(throws: ManifestError.self) { try SpokenRules.parse(yaml: "years: { other: '{high}' }\n", file: "en.yml", language: "en") }
        #expect(throws: ManifestError.self) { try SpokenRules.parse(yaml: "years: { decades: ['{high} tens'] }\n", file: "en.yml", language: "en") }
        #expect(throws: ManifestError.self) { try SpokenRules.parse(yaml: "years: { colour: red }\n", file: "en.yml", language: "en") }
    }

    @Test func theBuiltInEnglishRulesAreConfigSpokenEn() throws {
        let file = try String(contentsOf: Self.config.appendingPathComponent("spoken/en.yml"), encoding: .utf8)
        #expect(SpokenForms.builtInEnglish + "\n" == file, "Sources/LecternText/SpokenForms+BuiltIn.swift must be a copy of Config/spoken/en.yml: run Scripts/sync-spoken-en.sh")
        // No config folder: the built-in rules.
        let builtIn = try SpokenForms.load(configDirectory: nil)
        #expect(builtIn.rules.keys.sorted() == ["en"])
        #expect(builtIn.pronunciations(in: "CHAPTER XIV.", kind: .heading, language: "en-us").map(\.spoken) == ["14."])
        #expect(Self.forms.rules.keys.sorted() == ["de", "en", "fr"])
    }

    @Test func malformedRulesNameTheFileLineAndKey() throws {
        let cases: [(String, String)] = [
            ("abbreviations:\n  Dr.: { sometimes: Doctor }\n", "en.yml:2: abbreviations.Dr..sometimes: unknown key (expected one of: always, before_name, after_name, before_number, after_number)"),
            ("regnal: the {ordinal} {nth}\n", "en.yml:1: regnal: a template may hold {n} (the number) and {ordinal} (its ordinal word), found \"the {ordinal} {nth}\""),
            ("ordinals: [First, \"[[broken\"]\n", "en.yml:1: ordinals[2]: expected espeak-ng phonemes as [[…]], found [[broken"),
            ("ordinals: [First, \"[[s'Ek@nd]]\"]\n", "en.yml:1: ordinals[2]: must be words (a respelling), not phonemes or IPA"),
            ("pause: stop\n", "en.yml:1: pause: a pause is said as punctuation or a space, found \"stop\""),
            ("regnal:\n  first: premier\n", "en.yml:2: regnal.first: expected a number from 1 to 3999 or `other`"),
            ("money: { alone: [s.] }\n", "en.yml:1: money.alone: \"s.\" is not one of `after`'s units"),
            ("formulas: { letters: { ab: x } }\n", "en.yml:1: formulas.letters.ab: a letter is one capital, found \"ab\""),
            ("cardinals: [Chapter]\n", "en.yml:1: cardinals: unknown key (expected one of: language, abbreviations, cardinal_words, ordinals, regnal, ordinal_suffixes, not_names, pause_symbols, pause, urls, stars, years, money, may_end_sentence, regnal_names, formulas, note)"),
        ]
        for (yaml, message) in cases {
            let error = try #require(throws: ManifestError.self) { try SpokenRules.parse(yaml: yaml, file: "en.yml", language: "en") }
            #expect(error.description == message)
        }
        // Through the loader, with the file's path.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-text-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.createDirectory(at: config.appendingPathComponent("spoken"), withIntermediateDirectories: true)
        try Data("language: en\nurls: { dot: dot, slash: slash }\n".utf8).write(to: config.appendingPathComponent("spoken/en.yml"))
        let error = try #require(throws: ManifestError.self) { try SpokenForms.load(configDirectory: config) }
        #expect(error.file == config.appendingPathComponent("spoken/en.yml").path)
        #expect(error.line == 2)
        #expect(error.key == "urls.slash")
    }

    /// The shared test corpus beside the clone (`../shared/corpus`), as the end-to-end tests find it.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/text")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: corpus.path), "needs ../shared/corpus"))
    func aNovelsAbbreviationsURLsAndHeadingsAreFound() throws {
        // Jack Sheppard and Alice (1.1 MB of Project Gutenberg text, licence and all), paragraph by paragraph.
        var paragraphs: [String] = []
        for name in ["pg16215-jack-sheppard.txt", "pg11-alice-in-wonderland.txt"] {
            let text = String(decoding: try Data(contentsOf: Self.corpus.appendingPathComponent(name)), as: UTF8.self)
            paragraphs += text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
                .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
        }
        #expect(paragraphs.reduce(0) { $0 + $1.utf8.count } > 1_000_000)
        var found: [Pronunciation] = []
        for p in paragraphs {
            let kind: BlockKind = p.count < 40 && p.uppercased() == p ? .heading : .paragraph
            found += Self.forms.pronunciations(in: p, kind: kind, language: "en")
        }
        #expect(found.filter { $0.spoken == "Mister" }.count > 300)
        #expect(found.contains { $0.spoken == "gutenberg dot net" })
        #expect(found.contains { $0.spoken == "32." }, "CHAPTER XXXII.")
    }
}

