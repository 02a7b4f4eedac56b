import Foundation
import Testing
import LecternTesting

/// `dialogue:` on a few paragraphs of prose: the quoted speech is heard at another pitch (measured
/// by aubio's pitch tracker over the words' times in the sidecar), the narration is not, every word
/// keeps an exact espeak-ng time in order, and `check --text` shows where the speech is.
struct DialogueVoiceTests {
    static let text = """
        The Caterpillar and Alice looked at each other for some time in silence: at last the Caterpillar took the hookah out of its mouth, and addressed her in a languid, sleepy voice.

        “Who are you?” said the Caterpillar, and it went back to its hookah again without another word.

        This was not an encouraging opening for a conversation. Alice replied, rather shyly, “I hardly know, sir, just at present, at least I know who I was when I got up this morning, but I think I must have been changed several times since then.”

        “What do you mean by that?” said the Caterpillar sternly. “Explain yourself!”

        """

    /// The pitch aubio tracks in the decoded MP3, every 256 samples: (seconds, Hz) where it hears one.
    static func pitchTrack(_ mp3: URL, in ws: Workspace) throws -> [(time: Double, hz: Double)] {
        let wav = ws.url.appendingPathComponent("\(mp3.deletingPathExtension().lastPathComponent).wav")
        let decoded = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", mp3.path, "-ac", "1", wav.path])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let tracked = try Tool.run("aubiopitch", ["-i", wav.path, "-p", "yinfft", "-H", "256", "-u", "Hz", "-l", "0.7"])
        try #require(tracked.status == 0, "\(tracked.stderr)")
        return tracked.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").compactMap { Double($0) }
            guard fields.count == 2, fields[1] > 60, fields[1] < 500 else { return nil }
            return (fields[0], fields[1])
        }
    }

    /// The median pitch heard during the words for which `inSpeech` says `speech`.
    static func medianPitch(_ track: [(time: Double, hz: Double)], _ sidecar: Sidecar, speech: Bool) -> Double {
        var ranges: [ClosedRange<Double>] = []
        for p in sidecar.chapters.flatMap(\.paragraphs) {
            let quoted = quotedRanges(p.text)
            for w in p.words where quoted.contains(where: { $0.contains(w.offset) }) == speech {
                ranges.append(Double(w.start) / 1000...Double(w.end) / 1000)
            }
        }
        let heard = track.filter { t in ranges.contains { $0.contains(t.time) } }.map(\.hz).sorted()
        return heard.isEmpty ? 0 : heard[heard.count / 2]
    }

    /// The UTF-16 ranges between “ and ” (this text quotes nothing else), found independently of Lectern.
    static func quotedRanges(_ text: String) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var open: Int?
        for (i, u) in text.utf16.enumerated() {
            if u == 0x201C { open = i }
            if u == 0x201D, let start = open { ranges.append(start..<(i + 1)); open = nil }
        }
        return ranges
    }

    static func render(_ ws: Workspace, name: String, dialogue: String) throws -> (Sidecar, URL) {
        let manifest = try ws.write("\(name).yml", """
            title: Advice from a Caterpillar
            sources: [{ path: caterpillar.txt, chapters: none }]
            voice: { name: en }
            \(dialogue)
            """)
        let job = try RenderedJob.run(ws, manifest)
        return (try Sidecar.load(ws.url.appendingPathComponent("out/\(name)/\(name).timings.json")), job.mp3)
    }

    @Test func quotedSpeechIsSpokenHigherAndEveryWordStaysTimed() throws {
        let ws = try Workspace("dialogue")
        try ws.write("caterpillar.txt", Self.text)
        let (sidecar, mp3) = try Self.render(ws, name: "speech", dialogue: "dialogue: { pitch: 1.8 }")
        let (plainSidecar, plainMP3) = try Self.render(ws, name: "plain", dialogue: "")

        let track = try Self.pitchTrack(mp3, in: ws), plainTrack = try Self.pitchTrack(plainMP3, in: ws)
        let speech = Self.medianPitch(track, sidecar, speech: true), narration = Self.medianPitch(track, sidecar, speech: false)
        let plainSpeech = Self.medianPitch(plainTrack, plainSidecar, speech: true)
        let plainNarration = Self.medianPitch(plainTrack, plainSidecar, speech: false)
        // pitch 1.8 raises espeak-ng's base pitch by 42 of its 100 steps (about half as high again); the narrator reads as before.
        #expect(speech > narration * 1.25, "speech \(speech) Hz, narration \(narration) Hz")
        #expect(abs(narration - plainNarration) < plainNarration * 0.05, "narration \(narration) Hz, without dialogue \(plainNarration) Hz")
        #expect(abs(plainSpeech - plainNarration) < plainNarration * 0.1, "without dialogue: speech \(plainSpeech) Hz, narration \(plainNarration) Hz")

        // Every word is timed once, in order, by espeak-ng's own marks: the voice changes estimate no
        // word that the narrator alone has a mark for (espeak-ng gives none to a few short words).
        func estimated(_ name: String) throws -> [[Int]] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: ws.url.appendingPathComponent("out/\(name)/\(name).timings.json")))
            let chapters = (json as? [String: Any])?["chapters"] as? [[String: Any]] ?? []
            return chapters.flatMap { $0["paragraphs"] as? [[String: Any]] ?? [] }.map { p in
                (p["sentences"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
                    .filter { $0["estimated"] as? Bool == true }.compactMap { $0["offset"] as? Int }
            }
        }
        #expect(try estimated("speech") == (try estimated("plain")))
        var last = -1
        for p in sidecar.chapters.flatMap(\.paragraphs) {
            #expect(p.words.count == independentWords(p.text).count, "\(p.text)")
            for w in p.words {
                #expect(w.start >= last && w.end >= w.start, "\(p.text(of: w)) at \(w.start) ms after \(last) ms")
                last = w.start
            }
        }
        // The quotation marks are in the text the sidecar times, as written.
        #expect(sidecar.chapters[0].paragraphs[1].text.hasPrefix("“Who are you?”"))
        // The decoded audio is as long as the sidecar says.
        #expect(abs(try Tool.decode(mp3).count - sidecar.sampleCount) <= 576)

        let check = try Tool.run(Tool.lectern, ["check", "--text", ws.url.appendingPathComponent("speech.yml").path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("⟨“Who are you?”⟩ said the Caterpillar"), "\(check.stdout)")
        #expect(check.stdout.contains("⟨“What do you mean by that?”⟩ said the Caterpillar sternly. ⟨“Explain yourself!”⟩"), "\(check.stdout)")
        #expect(!check.stdout.contains("⟨The Caterpillar"))
    }

    /// The example job's speech voice is an espeak-ng variant of the narrator's; `check` accepts it
    /// and shows Alice's speech marked.
    @Test func theExampleJobChecks() throws {
        let manifest = Tool.packageRoot.appendingPathComponent("Jobs/alice-dialogue.yml")
        let script = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        #expect(script.status == 0, "\(script.stderr)")
        #expect(script.stdout.contains("⟨“Oh my ears and whiskers, how late it’s getting!”⟩"), "\(script.stdout.prefix(2000))")
        // The summary counts the speech: a third to a half of Alice's words.
        let check = try Tool.run(Tool.lectern, ["check", manifest.path])
        let line = try #require(check.stdout.split(separator: "\n").first { $0.hasPrefix("dialogue: ") }, "\(check.stdout)")
        let share = line.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect((30...50).contains(share), "\(line)")
    }
}
