import Foundation
import Testing
@testable import LecternSpeech

/// Tying the words espeak-ng spoke to the phonemes of a Piper input, cutting a long sentence into
/// the parts the model is given, and a Piper voice's speakers.
@Suite struct PhonemeWordAlignmentTests {
    private func scalars(_ s: String) -> [Unicode.Scalar] { Array(s.unicodeScalars) }

    @Test func eachWordStartsAtTheSpaceBeforeItsFirstPhonemeAndStressButAfterPunctuation() {
        let input = scalars("ˈælɪs wʌz bɪɡˈɪnɪŋ, ˈɔn.")
        let starts = PhonemeWordAlignment(input: input, words: ["ˈælɪs", "wʌz", "bɪɡˈɪnɪŋ", "ɔn"]).starts
        #expect(starts == [0, 5, 9, 20], "\(starts)")
    }

    @Test func wordsThatDifferOrJoinStillFindTheirPlace() {
        // A word's events write it otherwise than its clause does (a syllabic n for "ən", no
        // stress); the words are found all the same, in order.
        let input = scalars("ʌv ðə bˈæŋk, sˈɛvən θˈaʊzənd")
        let starts = PhonemeWordAlignment(input: input, words: ["ʌv", "ðə", "bæŋk", "sɛvn̩", "θaʊzənd"]).starts
        #expect(starts == [0, 2, 5, 13, 19], "\(starts)")
    }

    @Test func aWordWithNoPhonemesHasNoStart() {
        let starts = PhonemeWordAlignment(input: scalars("hˈɛloʊ"), words: ["", "hɛloʊ"]).starts
        #expect(starts == [nil, 0])
    }

    @Test func theAlignmentHasTheLeastEdits() {
        let a = scalars("kæt"), b = scalars("kʌt")
        #expect(PhonemeWordAlignment.align(a, b) == [0, 1, 2])
        #expect(PhonemeWordAlignment.align(scalars("ab"), scalars("xaby")) == [1, 2])
        #expect(PhonemeWordAlignment.align(scalars("abc"), scalars("ac")) == [0, nil, 1])
        #expect(PhonemeWordAlignment.align([], scalars("ab")) == [])
    }

    @Test func aLongSentenceIsCutBetweenClausesAndALongClauseBetweenWords() {
        let clauses = ["ˈælɪs wʌz,", "bɪɡˈɪnɪŋ tə ɡɛt,", "vˈɛɹi tˈaɪɚd."]
        // Short enough: one part, the clauses joined as the whole sentence's phonemes are.
        #expect(PiperEngine.parts(of: clauses) == [clauses.joined(separator: " ")])
        // 20 ids: at most 8 phonemes a part; whole clauses where they fit, a longer one cut between words.
        let parts = PiperEngine.parts(of: clauses, maximumIds: 20)
        #expect(parts == ["ˈælɪs", "wʌz,", "bɪɡˈɪnɪŋ", "tə ɡɛt,", "vˈɛɹi", "tˈaɪɚd."], "\(parts)")
        let some = PiperEngine.parts(of: clauses, maximumIds: 40)
        #expect(some == ["ˈælɪs wʌz,", "bɪɡˈɪnɪŋ tə ɡɛt,", "vˈɛɹi tˈaɪɚd."], "\(some)")
        // Nothing is lost or reordered.
        for cut in [parts, some] {
            #expect(cut.joined(separator: " ") == clauses.joined(separator: " "))
        }
    }

    @Test func aVoicesSpeakersAreReadWithTheirIds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("piper-config-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func config(_ extra: String) throws -> PiperVoiceConfig {
            let file = dir.appendingPathComponent("v.onnx.json")
            try """
                {"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"},
                 "phoneme_id_map": {"_": [0], "^": [1], "$": [2], "a": [14]}\(extra)}
                """.write(to: file, atomically: true, encoding: .utf8)
            return try PiperVoiceConfig(contentsOf: file)
        }
        let many = try config(#", "num_speakers": 3, "speaker_id_map": {"p225": 0, "p226": 2, "p227": 1}"#)
        #expect(many.speakerCount == 3 && many.speakers == ["p225": 0, "p226": 2, "p227": 1])
        #expect(many.speakerNames == ["p225", "p227", "p226"])
        #expect(try many.speakerId("p226") == 2 && many.speakerId("1") == 1)
        #expect(throws: SpeechError.self) { try many.speakerId("p999") }
        do { _ = try many.speakerId("3") } catch { #expect("\(error)".contains("speakers 0 to 2") && "\(error)".contains("p225"), "\(error)") }
        let unnamed = try config(#", "num_speakers": 2"#)
        #expect(unnamed.speakerNames == ["0", "1"] && unnamed.speakers.isEmpty)
        let one = try config("")
        #expect(one.speakerCount == 1 && one.speakerNames.isEmpty)
        do { _ = try one.speakerId("0") } catch { #expect("\(error)".contains("one speaker"), "\(error)") }
        #expect(throws: SpeechError.self) { try config(#", "num_speakers": 2, "speaker_id_map": {"x": 5}"#) }
    }
}
