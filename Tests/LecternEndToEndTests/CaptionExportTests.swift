import Foundation
import Testing
import LecternTesting

/// `vtt: captions` on a real render, read back by an independent parser (Debian's python3-webvtt):
/// every cue at most 2 lines of 42 characters and 7 s, the book's words in order, and a timestamp
/// tag before each later word of a cue at that word's start in the sidecar.
@Suite struct CaptionExportTests {
    static let book = """
        CHAPTER 1
        The River

        When the long afternoon finally came to its end, the children walked home along the river, \
        singing the songs that their grandmother had taught them many years ago, while the baker closed \
        his shop and the old dog stretched out by the warm stove for the night. They slept.

        Short lines stay whole.

        """

    @Test func captionCuesParseAndHoldTheSidecarsWordsInShortTimedLines() throws {
        let ws = try Workspace("captions")
        try ws.write("book.txt", Self.book)
        let manifest = try ws.write("book.yml", """
            title: Captions
            sources:
              - path: book.txt
                chapters: { heading: '^CHAPTER [0-9]+$', subtitle: true }
            voice: { name: en-gb, rate: 0.6 }
            timings: [json, vtt]
            vtt: captions
            """)
        let job = try RenderedJob.run(ws, manifest)
        let folder = job.mp3.deletingLastPathComponent()
        let sidecar = try Sidecar.load(folder.appendingPathComponent("book.timings.json"))
        let script = """
            import sys, json, re, webvtt
            def ms(t):
                h, m, s = t.split(':')
                return round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000)
            cues = []
            for c in webvtt.read(sys.argv[1]):
                tags = [ms(t) for t in re.findall(r'<(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d)>', c.raw_text)]
                cues.append([c.identifier, ms(c.start), ms(c.end), c.text, tags])
            print(json.dumps(cues))
            """
        let cues = try #require(try SubtitleExportTests.python(script, [folder.appendingPathComponent("book.vtt").path]) as? [[Any]])
        let words = sidecar.chapters.flatMap(\.paragraphs).flatMap(\.words)
        let written = sidecar.chapters.flatMap(\.paragraphs).flatMap { paragraph in
            paragraph.sentences.flatMap { independentWords(paragraph.text(of: $0)) }
        }
        try #require(written.count == words.count, "the sidecar times every written word")
        let long = try #require(sidecar.chapters.flatMap(\.paragraphs).flatMap(\.sentences).map { $0.end - $0.start }.max())
        try #require(long > 7000, "the long sentence lasts \(long) ms, so it must be cut for time as well as length")
        var spoken: [String] = []
        var previousStart = -1
        for cue in cues {
            let id = cue[0] as? String ?? "", start = cue[1] as! Int, end = cue[2] as! Int, text = cue[3] as! String, tags = cue[4] as! [Int]
            let lines = text.components(separatedBy: "\n")
            #expect(lines.count <= 2 && lines.allSatisfy { $0.count <= 42 }, "\(id): \(lines)")
            #expect(end - start <= 7000 && start > previousStart && end > start, "\(id): \(start)–\(end)")
            previousStart = start
            // The cue's words are the next words of the book, timed by the sidecar.
            let own = independentWords(text)
            let first = spoken.count
            spoken += own
            guard spoken.count <= words.count, !own.isEmpty else { continue }
            #expect(start == words[first].start, "\(id) starts with its first word")
            #expect(end == words[spoken.count - 1].end, "\(id) ends with its last word")
            #expect(tags == words[(first + 1)..<spoken.count].map(\.start), "\(id): a tag at each later word's start")
        }
        #expect(spoken == written, "every word once, in order")
        #expect(cues.count > sidecar.chapters.flatMap(\.paragraphs).flatMap(\.sentences).count, "long sentences are cut")
    }
}
