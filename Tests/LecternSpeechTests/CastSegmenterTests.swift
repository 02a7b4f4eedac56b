import Foundation
import Testing
import LecternCore
import LecternSpeech

/// Who speaks each utterance of a play, and with which voice (issue 26, item 4).
@Suite struct CastSegmenterTests {
    static func block(_ kind: BlockKind, _ text: String, afterBreak: Bool = false) -> Block {
        var b = Block(kind: kind, text: text)
        b.afterSectionBreak = afterBreak
        return b
    }

    static let play = Book(chapters: [
        Chapter(title: "THE FIRST ACT", blocks: [
            block(.stageDirection, "A drawing-room."),
            block(.speaker, "ROPER."),
            block(.stageDirection, "To FARNCOMBE."),
            block(.paragraph, "Hul-lo! I'm in luck!"),
            block(.paragraph, "Just the chap I'm hunting for."),
            block(.speaker, "FARNCOMBE."),
            block(.paragraph, "How are you, Roper?"),
            block(.speaker, "Mrs. Upjohn"),
            block(.paragraph, "Lily is out."),
            block(.heading, "A SONG"),
            block(.paragraph, "Mind the paint, my dear."),
            block(.speaker, "ROPER:"),
            block(.paragraph, "Ta."),
            block(.paragraph, "The next scene.", afterBreak: true),
        ], source: "play.txt"),
        Chapter(title: "THE SECOND ACT", blocks: [
            block(.paragraph, "The foyer of the Pandora."),
            block(.speaker, "MRS. UPJOHN."),
            block(.paragraph, "Here we are."),
        ], source: "play.txt"),
    ])

    static func speakers(_ plan: NarrationPlan) -> [String] {
        plan.chapters.flatMap(\.utterances).map { "\($0.persona?.name ?? "-"): \($0.text)" }
    }

    @Test func eachSpeechKnowsItsPersonaAndTheNarratorReadsTheRest() throws {
        let plan = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\n")).plan(Self.play)
        #expect(Self.speakers(plan) == [
            "-: THE FIRST ACT", "-: A drawing-room.", "-: ROPER.", "-: To FARNCOMBE.",
            "Roper: Hul-lo! I'm in luck!", "Roper: Just the chap I'm hunting for.",
            "-: FARNCOMBE.", "Farncombe: How are you, Roper?", "-: Mrs. Upjohn", "Mrs. Upjohn: Lily is out.",
            "-: A SONG", "-: Mind the paint, my dear.", "-: ROPER:", "Roper: Ta.", "-: The next scene.",
            "-: THE SECOND ACT", "-: The foyer of the Pandora.", "-: MRS. UPJOHN.", "Mrs. Upjohn: Here we are.",
        ])
        // Without a cast every voice is the narrator's and labels are read.
        #expect(plan.voiceNames == ["en"])
    }

    /// A note read inside a speech (issue 39, item 4) is the narrator's, not the speaker's; the
    /// speech goes on in the speaker's voice after it.
    @Test func aNoteInsideASpeechIsTheNarrators() throws {
        var note = Self.block(.quote, "Mind the paint: a song of the day.")
        note.noteLabel = "1"
        let book = Book(chapters: [Chapter(title: "ACT I", blocks: [
            Self.block(.speaker, "ROPER."), Self.block(.paragraph, "Hul-lo! I'm in luck!"), note, Self.block(.paragraph, "Just the chap."),
        ], source: "play.txt")])
        let plan = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\n")).plan(book)
        #expect(Array(Self.speakers(plan).suffix(3)) == ["Roper: Hul-lo! I'm in luck!", "-: Mind the paint: a song of the day.", "Roper: Just the chap."])
    }

    @Test func aCastGivesVoicesOverTheNarratorsAndSilencesTheLabels() throws {
        let m = try manifest("""
            title: T
            sources: [book.txt]
            voice: { name: en-gb, rate: 0.6 }
            cast:
              ROPER: { name: en-gb+m7 }
              Mrs. Upjohn: { pitch: 1.5 }
              NOBODY: en-gb+f5
            """)
        let plan = try Segmenter(manifest: m).plan(Self.play)
        let utterances = plan.chapters.flatMap(\.utterances)
        #expect(!utterances.contains { $0.kind == .speaker }, "labels are silent with a cast")
        let labels = plan.skipped.filter { $0.reason == SkipReason.silentSpeakerLabel }
        #expect(labels.map(\.text) == ["ROPER.", "FARNCOMBE.", "Mrs. Upjohn", "ROPER:", "MRS. UPJOHN."])
        #expect(labels.map(\.beforeBlock) == [1, 5, 7, 11, 1] && labels.map(\.chapter) == [1, 1, 1, 1, 2])
        // Each stands before the utterance after it (a direction opening the speech, or the speech).
        #expect(utterances.compactMap(\.speakerLabel) == labels.map(\.text))
        #expect(utterances.first { $0.speakerLabel != nil }?.text == "To FARNCOMBE.")
        func voice(_ text: String) -> ResolvedVoice? { utterances.first { $0.text == text }?.voice }
        #expect(voice("Ta.")?.name == "en-gb+m7" && voice("Ta.")?.wordsPerMinute == ResolvedVoice.wordsPerMinute(forRate: 0.6))
        // A cast entry giving only pitch keeps the narrator's name.
        #expect(voice("Here we are.")?.name == "en-gb" && voice("Here we are.")?.pitch == 1.5)
        // A persona the cast does not name: a pool voice, neither the narrator's nor a cast one.
        let pooled = try #require(voice("How are you, Roper?"))
        #expect(pooled.name.hasPrefix("en-gb+") && pooled.name != "en-gb+m7")
        #expect(voice("A drawing-room.")?.name == "en-gb" && voice("To FARNCOMBE.")?.name == "en-gb", "stage directions are the narrator's")
        // The same voices in every plan.
        #expect(try Segmenter(manifest: m).plan(Self.play).chapters.flatMap(\.utterances).map(\.voice) == utterances.map(\.voice))
        // A cast entry naming no persona is a warning naming it, not an error.
        #expect(plan.warnings.contains { $0.contains("cast.NOBODY (line 7)") && $0.contains("Farncombe, Mrs. Upjohn, Roper") }, "\(plan.warnings)")
    }

    @Test func labelsCanBeReadWithACastOrSilentWithout() throws {
        let read = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\ncast: {}\nspeaker_labels: read\n")).plan(Self.play)
        let labels = read.chapters.flatMap(\.utterances).filter { $0.kind == .speaker }
        #expect(labels.count == 5 && labels.allSatisfy { $0.persona == nil && $0.voice.name == "en" }, "the narrator says the label")
        let silent = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\nspeaker_labels: silent\n")).plan(Self.play)
        #expect(!silent.chapters.flatMap(\.utterances).contains { $0.kind == .speaker })
        #expect(silent.voiceNames == ["en"], "no cast: one voice")
        #expect(silent.chapters[0].utterances.contains { $0.persona?.name == "Roper" })
    }
}

/// A multi-speaker Piper narrator's cast pool is its model's other speakers.
@Suite struct CastPiperPoolTests {
    @Test func personaeNotCastGetTheNarratorModelsOtherSpeakers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cast-piper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Only the voice's configuration is read to plan (the model is loaded to render; the
        // manifest asks only that its file is there).
        let model = folder.appendingPathComponent("en_US-many-medium.onnx")
        try Data().write(to: model)
        try Data("""
            {"espeak": {"voice": "en-us"}, "audio": {"sample_rate": 22050}, "num_speakers": 4,
             "speaker_id_map": {"ann": 0, "bob": 1, "cy": 2, "di": 3}, "phoneme_id_map": {"_": [0], "^": [1], "$": [2]}}
            """.utf8).write(to: URL(fileURLWithPath: model.path + ".json"))
        let m = try manifest("""
            title: T
            sources: [book.txt]
            voice: { engine: piper, model: \(model.path), speaker: bob }
            cast: { ROPER: { speaker: di } }
            """)
        let plan = try Segmenter(manifest: m).plan(CastSegmenterTests.play)
        let speeches = plan.chapters.flatMap(\.utterances).filter { $0.persona != nil }
        let byPersona = Dictionary(speeches.map { ($0.persona!.key, $0.voice) }, uniquingKeysWith: { a, _ in a })
        #expect(byPersona.values.allSatisfy { $0.isPiper && $0.model == model.path })
        #expect(byPersona["ROPER"]?.speaker == "di")
        let pooled = byPersona.filter { $0.key != "ROPER" }.values.compactMap(\.speaker)
        #expect(pooled.count == 2 && Set(pooled).count == 2, "\(byPersona)")
        #expect(!pooled.contains("bob"), "the narrator's own speaker is not in the pool: \(pooled)")
        #expect(Set(pooled).isSubset(of: ["ann", "cy", "di"]))
        // The narrator reads the rest with its own speaker.
        #expect(plan.chapters.flatMap(\.utterances).filter { $0.persona == nil }.allSatisfy { $0.voice.speaker == "bob" })
    }
}
