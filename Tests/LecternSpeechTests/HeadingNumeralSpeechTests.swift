import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// A Roman-numeral heading is spoken as the number in the book's language (issue 39, item 5),
/// with the language's spoken-form rules or without any: espeak-ng reads `II.` as "deux romain",
/// "römisch zwei", "uno i" … and `2.` as "deux", "zwei", "dos", checked with `espeak-ng -x`.
@Suite(.enabled(if: SpokenFormsSpeechTests.espeakInstalled, "needs espeak-ng (make build installs it)"))
struct HeadingNumeralSpeechTests {
    /// Headings of synthetic French, German, Spanish, Italian, Dutch and Portuguese books, and
    /// what a narrator says for each.
    static let headings: [(language: String, written: String, intended: String)] = [
        ("fr", "II.", "2."), ("fr", "CHAPITRE III", "CHAPITRE 3"), ("fr", "XIV. La fuite", "14. La fuite"),
        ("de", "II.", "2."), ("de", "KAPITEL IV", "KAPITEL 4"), ("de", "XII.", "12."),
        ("es", "CAPÍTULO XII", "CAPÍTULO 12"), ("es", "III.", "3."),
        ("it", "II.", "2."), ("it", "CAPITOLO IX", "CAPITOLO 9"),
        ("nl", "II.", "2."), ("nl", "HOOFDSTUK XII", "HOOFDSTUK 12"),
        ("pt", "CAPÍTULO IV", "CAPÍTULO 4"), ("pt", "V.", "5."),
    ]

    static func spoken(_ text: String, language: String, forms: SpokenForms) -> String {
        SpokenText(text, pronunciations: forms.pronunciations(in: text, kind: .heading, language: language)).text
    }

    @Test(arguments: [true, false])
    func aHeadingsNumeralIsSaidAsTheNumber(withRules: Bool) throws {
        let forms = withRules ? SpokenFormsSpeechTests.forms : SpokenForms(rules: [])
        for h in Self.headings {
            let said = try SpokenFormsSpeechTests.phonemes(Self.spoken(h.written, language: h.language, forms: forms), voice: h.language)
            #expect(said == (try SpokenFormsSpeechTests.phonemes(h.intended, voice: h.language)),
                    "\(h.language) \"\(h.written)\" is spoken as \"\(Self.spoken(h.written, language: h.language, forms: forms))\"")
        }
        // What espeak-ng says of the letters themselves.
        #expect(try SpokenFormsSpeechTests.phonemes("II.", voice: "fr").contains("rom'E~"))
        #expect(try SpokenFormsSpeechTests.phonemes("II.", voice: "de").contains("r,Y:mIS"))
    }

    @Test func thePronounAndWordsAreLeftAlone() {
        let none = SpokenForms(rules: [])
        for text in ["I WAS BORN", "VIVE LA FRANCE", "MIX", "Il y a II maisons ici", "Capítulo I de la primera parte"] {
            #expect(HeadingNumerals.pronunciations(in: text).isEmpty, "\(text)")
            #expect(Self.spoken(text, language: "es", forms: none) == text)
        }
        #expect(Self.spoken("I.", language: "es", forms: none) == "1.")
        #expect(Self.spoken("Capítulo I", language: "es", forms: none) == "Capítulo 1")
    }
}
