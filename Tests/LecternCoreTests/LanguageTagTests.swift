import Testing
@testable import LecternCore

/// BCP 47 tags: which name a language to switch to, and the lookup order of their shorter forms.
struct LanguageTagCoreTests {
    @Test func tagsThatNameNoLanguageSwitchNothing() {
        for tag in ["", "  ", "und", "UND", "mul", "zxx", "x-klingon", "i-default", "und-Latn"] {
            #expect(LanguageTag.meaningful(tag) == nil, "\(tag)")
        }
        #expect(LanguageTag.meaningful("de-DE") == "de-de")
        #expect(LanguageTag.meaningful("zh_Hant") == "zh-hant")
    }

    @Test func lookupGoesFromTheWholeTagToItsLanguage() {
        #expect(LanguageTag.lookup("zh-Hant-TW") == ["zh-hant-tw", "zh-hant", "zh"])
        #expect(LanguageTag.lookup("de-DE") == ["de-de", "de"])
        #expect(LanguageTag.lookup("es-419") == ["es-419", "es"])
        #expect(LanguageTag.lookup("en-gb-x-rp") == ["en-gb-x-rp", "en-gb", "en"])
        #expect(LanguageTag.lookup("sr-Latn") == ["sr-latn", "sr"])
        // A voice name that is not a tag is only itself: "no-such-voice" must not become Norwegian.
        #expect(LanguageTag.lookup("no-such-voice-xyz") == ["no-such-voice-xyz"])
        #expect(LanguageTag.lookup("nosuchvoice") == ["nosuchvoice"])
    }
}
