import Foundation
import Testing
import LecternTesting

/// A play narrated with a cast (issue 26, items 4 and 6): a few speeches of the corpus play, each
/// persona in its own voice — measured by aubiopitch, not by us —, the speaker labels silent,
/// and every output saying who speaks: the sidecar, WebVTT (read by python3-webvtt and ffmpeg),
/// `check --text` and the read-along page in Chromium.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct CastEndToEndTests {
    static let play = Corpus.file("text/pg21849-mind-the-paint-girl.txt")

    /// The first act's heading, its opening directions and some thirty speeches of Roper and
    /// Farncombe: Roper cast (a high female variant), Farncombe from the pool (low male ones).
    static func manifest(in ws: Workspace) throws -> URL {
        try ws.write("play.yml", """
            title: The Mind the Paint Girl (opening)
            sources:
              - path: \(play.path)
                start_at: '^  THE FIRST ACT$'
                end_at: '^He strikes me as being rather'
            voice: { name: en-gb, rate: 0.7 }
            cast:
              Roper.: { name: en-gb+f5 }
              JEYES: en-gb+m1
            cast_pool: [en-gb+m4, en-gb+m8]
            timings: [json, vtt, html, epub]
            """)
    }

    /// The median F0 (Hz) aubiopitch (YIN) finds in the MP3's stretches (ms), over their voiced frames.
    static func medianF0(_ mp3: URL, spans: [(Int, Int)], in ws: Workspace) throws -> Double {
        var f0: [Double] = []
        for (start, end) in spans {
            let wav = ws.url.appendingPathComponent("cut-\(start).wav")
            let cut = try Tool.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-ss", String(Double(start) / 1000),
                                                      "-to", String(Double(end) / 1000), "-i", mp3.path, wav.path])
            try #require(cut.status == 0, "\(cut.stderr)")
            let out = try Tool.run("/usr/bin/aubiopitch", ["-i", wav.path, "-p", "yin", "-u", "Hz", "-s", "-40"])
            try #require(out.status == 0, "\(out.stderr)")
            f0 += out.stdout.split(separator: "\n").compactMap { line -> Double? in
                let fields = line.split(separator: " ")
                guard fields.count == 2, let hz = Double(fields[1]), hz > 50, hz < 500 else { return nil }
                return hz
            }
        }
        try #require(f0.count > 30, "too few voiced frames in \(spans)")
        return f0.sorted()[f0.count / 2]
    }

    @Test func eachPersonaSpeaksInItsOwnVoiceAndEveryOutputSaysWho() throws {
        let ws = try Workspace("cast")
        let manifest = try Self.manifest(in: ws)
        let job = try RenderedJob.run(ws, manifest)
        #expect(job.sidecar["version"] as? Int == 2)
        let paragraphs = job.paragraphs
        #expect(!paragraphs.contains { $0["kind"] as? String == "speaker" }, "the labels are silent")
        let skipped = (job.sidecar["skipped"] as? [[String: Any]] ?? []).filter { ($0["reason"] as? String)?.hasPrefix("speaker label") == true }
        #expect(skipped.count >= 20 && skipped.contains { $0["text"] as? String == "ROPER." }, "each silent label is listed")
        // … and stands before the paragraph after it, as written.
        let labelled = paragraphs.compactMap { $0["speakerLabel"] as? String }
        #expect(labelled.count >= skipped.count - 1 && labelled.first == "ROPER." && Set(labelled) == ["ROPER.", "FARNCOMBE."], "\(labelled)")
        #expect(paragraphs.first { $0["speakerLabel"] != nil }?["text"] as? String == "To FARNCOMBE.", "the label before the direction that opens the speech")
        func voices(of persona: String?) -> Set<String> {
            Set(paragraphs.filter { $0["persona"] as? String == persona }.compactMap { $0["voice"] as? String })
        }
        #expect(voices(of: "Roper") == ["en-gb+f5"])
        let farncombe = voices(of: "Farncombe")
        #expect(farncombe.count == 1 && farncombe.isSubset(of: ["en-gb+m4", "en-gb+m8"]), "a pool voice: \(farncombe)")
        let narrated = paragraphs.filter { $0["persona"] == nil }
        #expect(narrated.allSatisfy { $0["voice"] as? String == "en-gb" }, "the narrator reads the rest")
        #expect(narrated.contains { $0["kind"] as? String == "stage_direction" && ($0["text"] as? String)?.hasPrefix("To FARNCOMBE") == true })

        // The voices really differ: Roper (a high female variant) above Farncombe (a low male one),
        // each measured over their three longest speeches.
        func f0(_ persona: String) throws -> Double {
            let spans = paragraphs.filter { $0["persona"] as? String == persona }.map { ($0["start"] as! Int, $0["end"] as! Int) }
            return try Self.medianF0(job.mp3, spans: Array(spans.sorted { $0.1 - $0.0 > $1.1 - $1.0 }.prefix(3)), in: ws)
        }
        let roperF0 = try f0("Roper"), farncombeF0 = try f0("Farncombe")
        #expect(roperF0 > farncombeF0 * 1.4, "F0: Roper \(roperF0) Hz, Farncombe \(farncombeF0) Hz")
        // The narrator's directions between the speeches keep the narrator's own voice (no variant stays on).
        let firstSpeech = paragraphs.first { $0["persona"] != nil }?["start"] as? Int ?? 0
        let directions = narrated.filter { ($0["start"] as? Int ?? 0) > firstSpeech }.map { ($0["start"] as! Int, $0["end"] as! Int) }
        let narratorF0 = try Self.medianF0(job.mp3, spans: Array(directions.sorted { $0.1 - $0.0 > $1.1 - $1.0 }.prefix(4)), in: ws)
        #expect(roperF0 > narratorF0 * 1.4, "F0: Roper \(roperF0) Hz, the narrator \(narratorF0) Hz")

        // WebVTT: python3-webvtt reads a cue per sentence, each of a persona's a `<v Name>` span;
        // ffmpeg reads the file and strips the spans.
        let vtt = ws.url.appendingPathComponent("out/play/play.vtt")
        let parsed = try Tool.run("/usr/bin/python3", ["-c", """
            import sys, json, webvtt
            print(json.dumps([[c.raw_text, c.text] for c in webvtt.read(sys.argv[1])]))
            """, vtt.path])
        try #require(parsed.status == 0, "\(parsed.stderr)")
        let cues = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String]])
        let sentences = paragraphs.flatMap { p in (p["sentences"] as? [Any] ?? []).map { _ in p["persona"] as? String } }
        try #require(cues.count == sentences.count)
        for (cue, persona) in zip(cues, sentences) {
            if let persona {
                #expect(cue[0].hasPrefix("<v \(persona)>") && cue[0].hasSuffix("</v>"), "\(cue[0])")
            } else {
                #expect(!cue[0].contains("<v "), "\(cue[0])")
            }
            #expect(!cue[1].contains("<"), "the parser strips the span: \(cue[1])")
        }
        let ffmpeg = try Tool.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", vtt.path, "-f", "srt", "-"])
        try #require(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        #expect(ffmpeg.stdout.contains("Hul-lo!") && !ffmpeg.stdout.contains("<v"))

        // `check --text`: who speaks, with which voice; the silent labels in their places; the typo warning.
        let check = try Tool.run(Tool.lectern, ["check", "--text", manifest.path])
        try #require(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("  [speaker, silent] ROPER.\n  [stage direction] To FARNCOMBE.\n  [Roper — en-gb+f5] Hul-lo!"), "\(check.stdout.prefix(1500))")
        #expect(check.stdout.contains("[Farncombe — \(farncombe.first ?? "")] How are you, Roper?"))
        let summary = try Tool.run(Tool.lectern, ["check", manifest.path])
        #expect((summary.stdout + summary.stderr).contains("cast.JEYES (line 9): no speaker label names this persona"), "\(summary.stdout)\(summary.stderr)")
        #expect(summary.stdout.contains("personae: 2 in 2 voices — Roper (en-gb+f5), Farncombe (\(farncombe.first ?? ""))"), "\(summary.stdout)")

        // The narrated EPUB shows each silent label where the book has it, outside the overlays
        // (epubcheck finds nothing wrong); every word is still narrated.
        let epub = ws.url.appendingPathComponent("out/play/play.epub")
        let texts = try EPUBInspection.documents(epub).values.map(\.text).joined(separator: " ")
        #expect(texts.contains("ROPER. To FARNCOMBE. Hul-lo! I'm in luck!") && texts.contains("FARNCOMBE. How are you, Roper?"), "\(texts.prefix(600))")
        let inspection = try EPUBInspection.read(epub)
        let words = paragraphs.reduce(0) { $0 + ($1["sentences"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["words"] as? [Any] ?? []).count } }
        #expect(inspection.pars.filter { $0.kind == "z3998:word" }.count == words)
        let verdict = try EPUBInspection.epubcheck(epub)
        #expect(!verdict.messages.contains { ["ERROR", "FATAL"].contains($0.severity) }, "\(verdict.messages) \(verdict.stderr)")

        // The read-along page shows each silent label where the book has it; a speech's paragraphs name their persona.
        guard Chromium.path != nil else { return }
        let page = ws.url.appendingPathComponent("out/play/play.html")
        let dump = try Chromium.dumpAll([page.absoluteString], profiles: ws.url)[0].get()
        let dom = DumpedDOM(dump.stdout)
        let shown = dom.elements(withClass: "silent").map { dom.textContent(of: $0) }
        #expect(shown == labelled, "\(shown)")
        let speeches = dom.elements.filter { $0.attributes["data-persona"] != nil }.map { $0.attributes["data-persona"]! }
        #expect(speeches == paragraphs.compactMap { $0["persona"] as? String })
    }
}
