import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// The segmenter with `dialogue:`: quoted speech becomes voice segments marked `dialogue`, read
/// with the settings over the paragraph's voice; text in another language keeps its voice; the
/// chunk planner pauses where the voice changes as the punctuation there asks.
@Suite struct DialogueSegmenterTests {
    private func plan(_ yaml: String, blocks: [Block], language: String? = nil) throws -> [Utterance] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-dialogue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("text".utf8).write(to: dir.appendingPathComponent("book.txt"))
        let url = dir.appendingPathComponent("book.yml")
        try Data("title: T\nsources: [book.txt]\nvoice: { name: en }\nlanguages: { fr: fr-fr }\n\(yaml)".utf8).write(to: url)
        let manifest = try ManifestLoader(configDirectory: nil).load(url)
        var book = Book(chapters: [Chapter(title: "One", speaksTitle: false, blocks: blocks, source: "book.txt")], skipped: [])
        book.metadata.language = language
        return try Segmenter(manifest: manifest, spokenForms: SpokenForms(rules: [])).plan(book).chapters[0].utterances
    }

    private func text(_ u: Utterance, _ s: VoiceSegment) -> String {
        String(decoding: Array(u.text.utf16)[s.offset..<(s.offset + s.length)], as: UTF16.self)
    }

    static let greeting = "“Hello,” said Alice, “how do you do?” And she curtsied."

    @Test func withoutDialogueTheNarratorReadsEverything() throws {
        let u = try plan("", blocks: [Block(kind: .paragraph, text: Self.greeting)])[0]
        #expect(u.segments.isEmpty)
    }

    @Test func quotedSpeechIsASegmentWithTheDialogueSettings() throws {
        let u = try plan("dialogue: { pitch: 1.15 }\n", blocks: [Block(kind: .paragraph, text: Self.greeting)])[0]
        #expect(u.voice.name == "en" && u.voice.pitch == 1)
        #expect(u.segments.map { text(u, $0) } == ["“Hello,”", "“how do you do?”"])
        #expect(u.segments.allSatisfy { $0.dialogue && $0.language == nil && $0.voice.name == "en" && $0.voice.pitch == 1.15 })
        let other = try plan("dialogue: { name: en+f3, rate: 0.55 }\n", blocks: [Block(kind: .paragraph, text: Self.greeting)])[0]
        #expect(other.segments.allSatisfy { $0.voice.name == "en+f3" && $0.voice.wordsPerMinute == ResolvedVoice.wordsPerMinute(forRate: 0.55) })
    }

    @Test func speechRunsOverParagraphsButNotOverHeadingsOrSpeakers() throws {
        let blocks = [Block(kind: .paragraph, text: "“It was dark,” he began, “and the wind"), Block(kind: .paragraph, text: "“howled.” She slept."),
                      Block(kind: .heading, text: "“A Title”"), Block(kind: .listItem, text: "“One,” said the list."),
                      Block(kind: .speaker, text: "“HAMLET.”")]
        let us = try plan("dialogue: { pitch: 1.2 }\n", blocks: blocks)
        #expect(us.map { u in u.segments.map { text(u, $0) } } == [["“It was dark,”", "“and the wind"], ["“howled.”"], [], ["“One,”"], []])
    }

    @Test func aStyleAndAnOverrideComeBeforeTheDialogueSettings() throws {
        let us = try plan("styles: { quote: { rate: 0.3 } }\ndialogue: { pitch: 1.3 }\noverrides: [{ chapter: 1, voice: { name: en-us } }]\n",
                          blocks: [Block(kind: .quote, text: "“Yes,” she said.")])
        let s = try #require(us[0].segments.first)
        #expect(s.voice.name == "en-us" && s.voice.pitch == 1.3 && s.voice.wordsPerMinute == ResolvedVoice.wordsPerMinute(forRate: 0.3))
    }

    @Test func aForeignQuotationInsideSpeechKeepsItsLanguagesVoice() throws {
        let template = "“Do come in,” she said, “we say <fr> here.”"
        let french = "bienvenue à tous"
        let full = template.replacingOccurrences(of: "<fr>", with: french)
        let start = (full as NSString).range(of: french).location
        let block = Block(kind: .paragraph, text: full, spans: [LanguageSpan(offset: start, length: french.utf16.count, language: "fr")])
        let u = try plan("dialogue: { name: en+f3, pitch: 1.2 }\nlanguage_switching: true\n", blocks: [block])[0]
        #expect(u.segments.map { text(u, $0) } == ["“Do come in,”", "“we say ", french, " here.”"])
        #expect(u.segments.map(\.voice.name) == ["en+f3", "en+f3", "fr-fr", "en+f3"])
        #expect(u.segments.map(\.language) == [nil, nil, "fr", nil] && u.segments.allSatisfy(\.dialogue))
        #expect(u.segments[2].voice.pitch == 1.2)
        #expect(zip(u.segments, u.segments.dropFirst()).allSatisfy { $0.offset + $0.length <= $1.offset })
        // The same span outside speech: the language's voice at the narrator's pitch, not speech.
        let narrated = Block(kind: .paragraph, text: french + " was written.", spans: [LanguageSpan(offset: 0, length: french.utf16.count, language: "fr")])
        let n = try plan("dialogue: { name: en+f3, pitch: 1.2 }\nlanguage_switching: true\n", blocks: [narrated])[0]
        #expect(n.segments.count == 1 && n.segments[0].voice.name == "fr-fr" && n.segments[0].voice.pitch == 1 && !n.segments[0].dialogue)
    }

    @Test func aParagraphInAnotherLanguageKeepsItsVoiceForSpeech() throws {
        let block = Block(kind: .paragraph, text: "« Bonjour », dit-elle, « comment allez-vous ? »", language: "fr")
        let u = try plan("dialogue: { name: en+f3, pitch: 1.2 }\nlanguage_switching: true\n", blocks: [block], language: "en")[0]
        #expect(u.voice.name == "fr-fr")
        #expect(u.segments.count == 2 && u.segments.allSatisfy { $0.voice.name == "fr-fr" && $0.voice.pitch == 1.2 && $0.dialogue })
    }

    @Test func theVoiceChangesWithThePauseItsPunctuationAsksFor() throws {
        let u = try plan("dialogue: { name: en+f3 }\n", blocks: [Block(kind: .paragraph, text: Self.greeting)])[0]
        let planner = ChunkPlanner(sampleRate: 22050)
        let parts = planner.parts(of: u, index: 0)
        #expect(parts.map { $0.text.trimmingCharacters(in: .whitespaces) } == ["“Hello,”", "said Alice,", "“how do you do?”", "And she curtsied."])
        #expect(parts.map(\.voice.name) == ["en+f3", "en", "en+f3", "en"])
        let change = planner.samples(planner.voiceChangePause)
        let comma = planner.pause(after: .comma) + change, sentence = planner.pause(after: .sentence) + change
        #expect(parts.map(\.silenceAfter).dropLast() == [comma, comma, sentence])
        // Every word is in one part, so word timings still cover the paragraph.
        #expect(parts.reduce(0) { $0 + $1.wordCount } == u.wordCount)
    }

    @Test func checkTextMarksTheSpeech() throws {
        let u = try plan("dialogue: { pitch: 1.2 }\n", blocks: [Block(kind: .paragraph, text: Self.greeting)])[0]
        #expect(u.spokenText(marking: u.speechRanges, open: "⟨", close: "⟩") == "⟨“Hello,”⟩ said Alice, ⟨“how do you do?”⟩ And she curtsied.")
    }

    @Test func theMarksGoAroundWhatIsSpokenAfterPronunciations() {
        let voice = VoiceSettings(name: "en").resolved()
        var u = Utterance(kind: .paragraph, text: "“Dr. Smith,” said he, “St. Paul’s.”", voice: voice, preDelay: 0, postDelay: 0)
        u.pronunciations = [Pronunciation(offset: 1, length: 3, spoken: "Doctor"), Pronunciation(offset: 23, length: 3, spoken: "Saint")]
        u.segments = [VoiceSegment(offset: 0, length: 12, voice: voice, language: nil, dialogue: true),
                      VoiceSegment(offset: 22, length: 13, voice: voice, language: nil, dialogue: true)]
        #expect(u.spokenText(marking: u.speechRanges, open: "⟨", close: "⟩") == "⟨“Doctor Smith,”⟩ said he, ⟨“Saint Paul’s.”⟩")
    }
}
