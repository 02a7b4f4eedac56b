import Foundation
import Testing
import LecternCore

/// Lexicon matching and Lectern's YAML lexicon form.
struct LexiconTests {
    static func lexicon(_ entries: [(Lexicon.Entry.Match, String)], language: String? = nil) throws -> Lexicon {
        try Lexicon(name: "test", language: language, entries: entries.map { Lexicon.Entry(match: $0.0, spoken: $0.1) })
    }

    static func matches(_ lexicon: Lexicon, _ text: String) -> [String] {
        lexicon.pronunciations(in: text).map {
            String(decoding: Array(text.utf16)[$0.offset..<$0.end], as: UTF16.self) + "=" + $0.spoken
        }
    }

    @Test func wordsMatchWholeAndLowerCaseEntriesMatchCapitalised() throws {
        let l = try Self.lexicon([(.word("tomato"), "tom ah to"), (.word("Agnes"), "[['agnIs]]"), (.word("vol."), "volume"),
                                  (.word("vols."), "volumes"), (.word("℔"), "pounds")])
        #expect(Self.matches(l, "Tomato, tomatoes and tomato's tomato.") == ["Tomato=tom ah to", "tomato=tom ah to"])
        #expect(Self.matches(l, "Agnes, AGNES, agnes, Agnes's hat") == ["Agnes=[['agnIs]]"])
        #expect(Self.matches(l, "See vols. 2 and vol. 3; 5℔ of flour") == ["vols.=volumes", "vol.=volume", "℔=pounds"])
        #expect(Self.matches(l, "revol. and xvol.") == [], "a word starting with a letter does not match inside another")
    }

    @Test func patternsComeFirstAndMayUseGroups() throws {
        let l = try Self.lexicon([(.word("St."), "Street"), (.pattern("\\bSt\\. (?=[A-Z][a-z])"), "Saint "),
                                  (.pattern("\\b(\\d+)°"), "$1 degrees")])
        #expect(Self.matches(l, "St. Paul lives on Main St. at 30° north") == ["St. =Saint ", "St.=Street", "30°=30 degrees"])
    }

    @Test func aLexiconAppliesToTextInItsLanguageOnly() throws {
        let l = try Self.lexicon([(.word("chat"), "shah")], language: "fr")
        #expect(Lexicon.pronunciations([l], in: "a chat", language: "en-GB").isEmpty)
        #expect(Lexicon.pronunciations([l], in: "un chat", language: "fr-FR").count == 1)
        // English text with a French span: only the span's "chat" is French.
        let spans = [LanguageSpan(offset: 9, length: 7, language: "fr")]
        let found = Lexicon.pronunciations([l], in: "the chat un chat", language: "en", spans: spans)
        #expect(found.map(\.offset) == [12])
        // The document's own hints come first; an overlapping lexicon match is dropped.
        let own = Pronunciation(offset: 12, length: 4, spoken: "[[Sa]]")
        #expect(Lexicon.pronunciations([l], in: "the chat un chat", language: "en", spans: spans, adding: [own]) == [own])
    }

    @Test func theYAMLFormReadsRespellingsPhonemesAndIPA() throws {
        let l = try Lexicon.parse(yaml: """
            language: en
            words:
              Hermione: her my oh nee
              Leicester: "[[l'Est@]]"
              Okonkwo: /oʊˈkɒŋkwoʊ/
              noon: /nuːʀ/
            patterns:
              '\\bDr\\.(?= [A-Z])': Doctor
            """, file: "names.yml")
        #expect(l.language == "en")
        #expect(l.entries == [
            .init(match: .pattern("\\bDr\\.(?= [A-Z])"), spoken: "Doctor"),
            .init(match: .word("Hermione"), spoken: "her my oh nee"),
            .init(match: .word("Leicester"), spoken: "[[l'Est@]]"),
            .init(match: .word("Okonkwo"), spoken: "[[oUk'0NkwoU]]"),
        ])
        // IPA that espeak-ng cannot say is left out and reported with its line.
        #expect(l.notes == [PronunciationNote(source: "names.yml:6", text: "noon", reason: "IPA /nuːʀ/: no espeak-ng equivalent for ʀ")])
    }

    @Test func malformedEntriesNameTheFileLineAndKey() throws {
        let cases: [(String, String)] = [
            ("words:\n  a: \"[[unclosed\"\n", "names.yml:2: words.a: expected espeak-ng phonemes as [[…]], found [[unclosed"),
            ("patterns:\n  '(': x\n", "names.yml:2: patterns.(: not a valid regular expression: ("),
            ("words:\n  b: \"say [[b]] now\"\n", "names.yml:2: words.b: expected a respelling, [[phonemes]] or /IPA/, found \"say [[b]] now\""),
            ("word:\n  a: b\n", "names.yml:1: word: unknown key (expected one of: language, words, patterns)"),
        ]
        for (yaml, message) in cases {
            let error = try #require(throws: ManifestError.self) { try Lexicon.parse(yaml: yaml, file: "names.yml") }
            #expect(error.description == message)
        }
    }
}
