import Testing
@testable import LecternSpeech

/// The real CLD2 on paragraphs of three languages: long ones are identified, short or mixed ones
/// keep the book's language unless the library is clearly sure.
@Suite struct LanguageIdentifierTests {
    let identifier = LanguageIdentifier()

    static let paragraphs: [(String, String)] = [
        ("en", "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness."),
        ("en", "Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do."),
        ("en", "The rain had not stopped all day, and the road to the village was deep in mud."),
        ("fr", "Il pleuvait depuis le matin sur la petite ville. Les volets restaient clos, et personne ne sortait plus dans les rues étroites."),
        ("fr", "Elle ouvrit la lettre d'une main tremblante. Les mots dansaient devant ses yeux ; elle dut la relire trois fois."),
        ("fr", "Demain, dès l'aube, à l'heure où blanchit la campagne, je partirai. Vois-tu, je sais que tu m'attends."),
        ("de", "Es war einmal ein König, der hatte drei Töchter. Die jüngste war so schön, dass die Sonne selbst sich wunderte."),
        ("de", "Am nächsten Morgen fuhren wir mit dem Zug nach München. Die Landschaft zog langsam an den Fenstern vorbei."),
        ("de", "Der alte Mann saß jeden Abend auf der Bank vor seinem Haus und beobachtete die Kinder."),
    ]

    @Test(arguments: paragraphs)
    func aParagraphIsFoundInItsLanguage(_ language: String, _ text: String) {
        #expect(identifier.confidentLanguage(of: text) == language, "\(identifier.guess(text).map { "\($0)" } ?? "no guess")")
    }

    @Test func shortOrUnsureTextIsNotSwitched() {
        // Too few words, or CLD2 not sure: nil keeps the book's language.
        #expect(identifier.confidentLanguage(of: "Oui.") == nil)
        #expect(identifier.confidentLanguage(of: "Qui vive ? demanda la sentinelle.") == nil)
        #expect(identifier.confidentLanguage(of: "“Oui, madame,” said Alice.") != "fr")
        // English prose quoting a few foreign words stays English.
        #expect(identifier.confidentLanguage(of: "Au revoir, mes amis! cried Jean as the train left the station.") == "en")
    }

    @Test func guessesArePrimaryLanguageTags() throws {
        let guess = try #require(identifier.guess(Self.paragraphs[3].1))
        #expect(guess.language == "fr" && guess.reliable && guess.percent >= 90 && guess.words > 10)
    }
}

/// Issue 39, item 5: a dialect passage in an English book stays English; a real foreign
/// paragraph still switches.
@Suite struct DialectLanguageTests {
    let identifier = LanguageIdentifier()

    @Test func aDialectPassageStaysInTheBooksLanguage() {
        // CLD2 alone is sure (98 %) this Yorkshire is Scottish Gaelic, on little evidence.
        let yorkshire = "\"Eh, bah gum, lad, tha's nobbut a lile 'un, an' tha mun 'ave thi porridge afore tha goes.\""
        #expect(identifier.guess(yorkshire)?.language == "gd")
        #expect(identifier.confidentLanguage(of: yorkshire) == nil)
        // A line half English.
        #expect(identifier.confidentLanguage(of: "Mein Gott! Mein Gott! So soon! so soon!") == nil)
        for scots in ["\"Hoot awa', mon! Dinna fash yersel' aboot the siller, for I hae plenty an' tae spare.\"",
                      "Ah dinna ken, wumman, gin ye'll bide or gang; but ye maun mak up yer mind afore the gloamin."] {
            #expect(identifier.confidentLanguage(of: scots) != "es" && identifier.confidentLanguage(of: scots) != "gd")
        }
    }

    @Test func aRealForeignParagraphStillSwitches() {
        #expect(identifier.confidentLanguage(of: "Le soleil se levait lentement sur la campagne endormie, et les oiseaux commençaient à chanter dans les arbres du jardin.") == "fr")
        #expect(identifier.confidentLanguage(of: "\"Mi padre no está en casa hoy, pero mi madre está en la cocina preparando la cena para todos nosotros.\"") == "es")
        let guess = identifier.guess("Il sole sorgeva lentamente sulla campagna addormentata, e gli uccelli cominciavano a cantare tra gli alberi del giardino.")
        #expect(guess?.language == "it" && (guess?.score ?? 0) >= identifier.minimumScore && (guess?.secondPercent ?? 100) < 50)
    }
}
