import Foundation
import Testing
import LecternTesting

/// The WebVTT and SRT exports of Alice, read by independent parsers (Debian's python3-webvtt and
/// python3-srt), agree with the JSON sidecar.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct SubtitleExportTests {
    /// Runs a Python script with the system interpreter (where Debian's modules are) and decodes
    /// its JSON output.
    static func python(_ script: String, _ arguments: [String]) throws -> Any {
        let out = try Tool.run("/usr/bin/python3", ["-c", script] + arguments)
        try #require(out.status == 0, "\(out.stderr)")
        return try JSONSerialization.jsonObject(with: Data(out.stdout.utf8))
    }

    /// Every sentence with words, in order, as (start, end, words as written, word starts).
    static func sentences(_ sidecar: Sidecar) -> [(start: Int, end: Int, text: String, starts: [Int])] {
        sidecar.chapters.flatMap { chapter in
            chapter.paragraphs.flatMap { paragraph in
                paragraph.sentences.filter { !$0.words.isEmpty }.map { s in
                    let units = Array(paragraph.text.utf16)
                    let text = String(decoding: units[s.offset..<min(units.count, s.offset + s.length)], as: UTF16.self)
                    return (s.start, s.end, independentWords(text).joined(separator: " "), s.words.map(\.start))
                }
            }
        }
    }

    static func render() throws -> (vtt: URL, srt: URL, sidecar: Sidecar) {
        let render = try AliceEndToEndTests.render.get()
        let folder = render.mp3.deletingLastPathComponent()
        return (folder.appendingPathComponent("alice.vtt"), folder.appendingPathComponent("alice.srt"), try Sidecar.load(render.sidecar))
    }

    @Test func webVTTParsesAndItsCuesAreTheSidecarsSentences() throws {
        let (vtt, _, sidecar) = try Self.render()
        let script = """
            import sys, json, re, webvtt
            def ms(t):
                h, m, s = t.split(':')
                return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)
            cues = []
            for c in webvtt.read(sys.argv[1]):
                raw = c.raw_text
                tags = [ms(t) for t in re.findall(r'<(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d)>', raw)]
                cues.append([c.identifier, ms(c.start), ms(c.end), c.text, tags])
            print(json.dumps(cues))
            """
        let cues = try #require(try Self.python(script, [vtt.path]) as? [[Any]])
        let sentences = Self.sentences(sidecar)
        try #require(cues.count == sentences.count, "\(cues.count) cues, \(sentences.count) sentences")
        var previousStart = -1
        for (cue, sentence) in zip(cues, sentences) {
            let start = cue[1] as! Int, end = cue[2] as! Int, text = cue[3] as! String, tags = cue[4] as! [Int]
            #expect((cue[0] as? String)?.hasPrefix("c") == true)
            // Cue times are the sentence's (a start equal to the previous one moves 1 ms later).
            #expect(start > previousStart, "cue times must strictly increase")
            #expect(start == sentence.start || start == previousStart + 1, "\(text.prefix(40)): \(start) vs \(sentence.start)")
            #expect(end == max(sentence.end, start + 1))
            previousStart = start
            // The words, as the parser reads the text (tags removed, entities decoded).
            #expect(independentWords(text).joined(separator: " ") == sentence.text)
            // A timestamp before each later word: the word's own start, increasing, inside the cue.
            #expect(tags == tags.sorted() && Set(tags).count == tags.count)
            #expect(tags.allSatisfy { $0 > start && $0 < end })
            #expect(Set(tags).isSubset(of: Set(sentence.starts)))
            let expected = Set(sentence.starts.dropFirst().filter { $0 > start && $0 < end })
            #expect(Set(tags) == expected, "\(text.prefix(40))")
        }
    }

    @Test func srtParsesAndItsCuesSplitTheSidecarsSentencesIntoShortLines() throws {
        let (_, srt, sidecar) = try Self.render()
        let script = """
            import sys, json, srt
            subs = list(srt.parse(open(sys.argv[1], encoding='utf-8').read()))
            print(json.dumps([[s.index, round(s.start.total_seconds() * 1000), round(s.end.total_seconds() * 1000), s.content] for s in subs]))
            """
        let cues = try #require(try Self.python(script, [srt.path]) as? [[Any]])
        #expect(cues.map { $0[0] as! Int } == Array(1...cues.count), "numbered from 1")
        var index = 0
        var previousStart = -1
        for sentence in Self.sentences(sidecar) {
            // The sentence's cues: consecutive, together its words, from its start to its end.
            var words: [String] = []
            var first = true
            while words.count < sentence.text.split(separator: " ").count, index < cues.count {
                let cue = cues[index]
                let start = cue[1] as! Int, end = cue[2] as! Int, content = cue[3] as! String
                #expect(start > previousStart && end > start)
                if first { #expect(start == sentence.start || start == previousStart + 1) }
                #expect(sentence.starts.contains(start) || start == previousStart + 1, "a cue starts with a word")
                first = false
                previousStart = start
                let lines = content.components(separatedBy: "\n")
                #expect(lines.count <= 2, "\(content)")
                #expect(lines.allSatisfy { $0.count <= 42 || !$0.contains(" ") }, "\(content)")
                words += independentWords(content)
                index += 1
                if words.count >= sentence.text.split(separator: " ").count {
                    #expect(end == max(sentence.end, start + 1))
                }
            }
            #expect(words.joined(separator: " ") == sentence.text)
        }
        #expect(index == cues.count, "every cue belongs to a sentence")
    }
}
