import Testing
@testable import LecternCore

/// The converted phonemes, or nil when something was unsupported.
private func espeak(_ ipa: String) -> String? {
    IPATranscription.espeak(fromIPA: ipa).phonemes
}

@Suite struct IPATranscriptionTests {
    /// Each expectation was fed to `espeak-ng -v en-us -q --ipa "[[…]]"`; the comment is what it printed.
    static let words: [(ipa: String, espeak: String)] = [
        ("ˌæbəˈlɪʃən", ",ab@l'IS@n"),                   // ˌæbəlˈɪʃən
        ("ˈθɜrtiˈwʌn ˈmɪnɪtz", "T'3:tiw'Vn m'InItz"),   // θˈɜːɾiwˈʌn mˈɪnɪtz
        ("ˈɔltəməˌhɔ", "'O:lt@m@h,O:"),                 // ˈɔːltəməhˌɔː
        ("ˌeɪlyəˈneɪʃəns", ",eIlj@n'eIS@ns"),           // ˌeɪljənˈeɪʃəns
        ("ˈægrɪˌkʌltʃərɑl", "'agrIk,VltS@rA:l"),        // ˈæɡɹɪkˌʌltʃɚɹɑːl
        ("əˈmoʊniəm", "@m'oUni@m"),                     // əmˈoʊniəm
        ("həˈloʊ", "h@l'oU"),                           // həlˈoʊ
        ("ˈfɑðɚ", "f'A:D3"),                            // fˈɑːðɚ
        ("ˈwɔɾɚ", "w'O:t#3"),                           // wˈɔːɾɚ
        ("ˈvɛri", "v'Eri"),                             // vˈɛɹi
        ("ˈmɪrər", "m'Ir3"),                            // mˈɪɹɚ
        ("ˈtʃɜrtʃ", "tS'3:tS"),                         // tʃˈɜːtʃ
        ("ˈdʒʌdʒ", "dZ'VdZ"),                           // dʒˈʌdʒ
        ("ˈθɪŋkɪŋ", "T'INkIN"),                         // θˈɪŋkɪŋ
        ("ˈmɛʒər", "m'EZ3"),                            // mˈɛʒɚ
        ("ˈjɛloʊ", "j'EloU"),                           // jˈɛloʊ
        ("bɔɪ", "bOI"),                                 // bˈɔɪ
        ("ˈfaɪər", "f'aI3"),                            // fˈaɪɚ
        ("ˈaʊər", "'aU3"),                              // ˈaʊɚ
        ("ˈbʌʔn̩", "b'V?n-"),                            // bˈʌʔn̩
        ("ˈbɑtl̩", "b'A:t@L"),                           // bˈɑːɾəl
        ("ʍɛn", "w#En"),                                // ʍˈɛn
        ("kəmˈpjutər", "k@mpj'u:t3"),                   // kəmpjˈuːɾɚ
        ("ˌɪntərˈnæʃənəl", ",Int3n'aS@n@l"),            // ˌɪntɚnˈæʃənəl
        ("ˈwʌn ˈtu ˈθri", "w'Vn t'u: Tr'i:"),           // wˈʌn tˈuː θɹˈiː
        // British transcriptions (checked with -v en as well).
        ("ˈfəʊtəʊ", "f'oUtoU"),                         // en: fˈəʊtəʊ
        ("ˈfɑːðə", "f'A:D@"),                           // en: fˈɑːðə
        ("lɒt", "l0t"),                                 // en: lˈɒt
        ("ˈθɔːt", "T'O:t"),                             // en: θˈɔːt
        ("ˈbɜːd", "b'3:d"),                             // en: bˈɜːd
        ("ˈnɪə", "n'i@3"),                              // en: nˈiə
        ("ˈskweə", "skw'e@"),                           // en: skwˈeə
        ("ˈpʊə", "p'U@"),                               // en: pˈʊə
    ]

    @Test func realWordsConvertToCheckedEspeakPhonemes() {
        for (ipa, expected) in Self.words {
            let result = IPATranscription.espeak(fromIPA: ipa)
            #expect(result.phonemes == expected, "\(ipa)")
            #expect(result.unsupported.isEmpty, "\(ipa)")
        }
    }

    @Test func rColouredVowelsUseRhoticPhonemesOnlyWhenNoVowelFollows() {
        #expect(espeak("nɔrθ") == "nO@T")      // nˈɔːɹθ
        #expect(espeak("stɑrt") == "stA@t")    // stˈɑːɹt
        #expect(espeak("skwɛr") == "skwe@")    // skwˈɛɹ
        #expect(espeak("nɪr") == "ni@3")       // nˈɪɹ
        #expect(espeak("kjʊr") == "kjU@")      // kjˈʊɹ
        #expect(espeak("bɝd") == "b3:d")       // bˈɜːd
        #expect(espeak("ˈhʌri") == "h'Vri")    // hˈʌɹi
        #expect(espeak("ˈtʊrɪst") == "t'UrIst")  // tˈʊɹɪst
        #expect(espeak("nɔɹθ") == espeak("nɔrθ"))
    }

    @Test func stressMarksMoveBeforeTheStressedVowel() {
        #expect(espeak("əˈbaʊt") == "@b'aUt")
        #expect(espeak("ˌæbəˈlɪʃən") == ",ab@l'IS@n")
        // Stress on espeak's unstressed-only vowels picks their stressable counterpart.
        #expect(espeak("ˈθri") == "Tr'i:")
        #expect(espeak("ˈhæpi") == "h'api")
        #expect(espeak("ˈəbaʊt") == "'VbaUt")
        #expect(espeak("ˈwərd") == "w'3:d")
        #expect(espeak("ˈbɚd") == "b'3:d")
        // An ASCII apostrophe is read as primary stress.
        #expect(espeak("hə'loʊ") == "h@l'oU")
    }

    @Test func tieBarsSyllableDotsAndAllophonicMarksAreIgnored() {
        #expect(espeak("ˈt͡ʃɪp") == "tS'Ip")
        #expect(espeak("ˌæn.ti.ˈbaɪ.ɑ.tɪk") == ",antib'aIA:tIk")
        #expect(espeak("ˈkʰæt") == "k'at")
        #expect(espeak("ˈʃoʊ.ɚ") == "S'oU3")
        #expect(espeak("eɪ̯") == "eI")
    }

    @Test func whitespaceSeparatesWords() {
        #expect(espeak("  ˈbaɪ \t ˈbaɪ  ") == "b'aI b'aI")
        #expect(espeak("") == "")
    }

    @Test func unsupportedSymbolsAreReportedOnceInOrder() {
        let clicks = IPATranscription.espeak(fromIPA: "ʘʘǃ ə")
        #expect(clicks.phonemes == nil)
        #expect(clicks.unsupported == ["ʘ", "ǃ"])

        let palatalized = IPATranscription.espeak(fromIPA: "ˈpɪkʲ")
        #expect(palatalized == IPATranscription.Result(phonemes: nil, unsupported: ["ʲ"]))

        // A stray combining mark is reported on a dotted circle.
        #expect(IPATranscription.espeak(fromIPA: "tɛ̃").unsupported == ["\u{25CC}\u{0303}"])
        #expect(IPATranscription.espeak(fromIPA: "ɣøy").unsupported == ["ɣ", "ø"])
    }
}
