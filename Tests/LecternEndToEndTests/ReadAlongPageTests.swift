import Foundation
import LecternExport
import Testing
import LecternTesting

/// The read-along page of a real render, opened in headless Chromium: after `?t=SECONDS` the
/// DOM marks the word and sentence the sidecar says are spoken then, and the page logs nothing.
@Suite(.enabled(if: Chromium.path != nil, "needs headless Chromium (Debian package `chromium`) to open the read-along page"))
struct ReadAlongPageTests {
    static let book = """
        CHAPTER 1
        A Plain Start

        The first chapter has a few short sentences. They are read aloud, one after another. Nothing here is unusual at all.

        A second paragraph follows the first one. It is quite ordinary too.

        CHAPTER 2
        Odd Characters

        Tom & Jerry wrote "<b>bold</b>" and 'quoted' words. Then came a party🎉 in 東京 with friends. \
        The café served crème brûlée, spelled cafe\u{301} and e\u{301}le\u{300}ve with combining accents. \
        A stray </script> tag & an <!-- opener --> stay harmless.

        CHAPTER 3
        The End

        The last chapter closes the book. Thank you for listening to every word.

        """

    /// A moment to seek to, picked from the sidecar.
    struct Moment {
        var name: String
        var ms: Int
    }

    @Test func pageHighlightsTheWordAndSentenceTheSidecarSaysAreSpokenAtTheSeekTime() throws {
        let ws = try Workspace("readalong")
        try ws.write("book.txt", Self.book)
        let manifest = try ws.write("book.yml", """
            title: Tom & Jerry's "<Read-Along>"
            author: A <Tester> & Co
            sources:
              - path: book.txt
                chapters: { heading: '^CHAPTER [0-9]+$', subtitle: true }
            voice: { name: en-gb, rate: 0.6 }
            """)
        let run = try Tool.lectern(["run", "--quiet", "--readalong", manifest.path], db: ws.db)
        try #require(run.status == 0, "lectern run failed: \(run.stderr)")
        let folder = ws.url.appendingPathComponent("out/book")
        let sidecarURL = folder.appendingPathComponent("book.timings.json")
        let document = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: sidecarURL))
        // The page `lectern run --readalong` wrote beside the MP3, made from that same sidecar.
        let pageURL = folder.appendingPathComponent("book.html")
        let page = try String(contentsOf: pageURL, encoding: .utf8)
        #expect(page == ReadAlongPage.html(for: document, audio: document.audio, language: "en-gb"))

        #expect(!page.contains("http://") && !page.contains("https://"), "the page refers to nothing on the network")
        #expect(page.contains("<audio id=\"audio\" controls preload=\"metadata\" src=\"book.mp3\" aria-label=\"Narration\""))
        #expect(page.contains("<html lang=\"en-gb\">"), "the book's language")

        // Expectations come from the test's own reading of the sidecar, in reading order.
        let sidecar = try Sidecar.load(sidecarURL)
        let words = SpokenWord.all(in: sidecar)
        try #require(sidecar.chapters.count == 3, "chapters: \(sidecar.chapters.map(\.title))")
        let odd = try #require(sidecar.chapters[1].paragraphs.first { $0.text.contains("🎉") }, "the paragraph with emoji")
        let emoji = odd.text.utf16.count - odd.text.split(separator: "🎉", maxSplits: 1)[1].utf16.count
        let moments = [
            try Self.moment("middle of chapter 1", words.filter { $0.chapter == 0 }),
            try Self.moment("last chapter", words.filter { $0.chapter == 2 }),
            try Self.moment("combining accents after the emoji", words.filter {
                $0.paragraph.text == odd.text && $0.word.offset > emoji && $0.text.unicodeScalars.contains("\u{300}")
            }),
        ]

        let results = Chromium.dumpAll(moments.map { pageURL.absoluteString + "?t=" + String(format: "%.3f", Double($0.ms) / 1000) },
                                       profiles: ws.url)
        for (moment, result) in zip(moments, results) {
            let output = try result.get()
            let consoleLines = output.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
            #expect(consoleLines.isEmpty, "\(moment.name): the page logged to the console: \(consoleLines)")
            let dom = DumpedDOM(output.stdout)
            try #require(dom.elements.first { $0.tag == "body" }?.attributes["data-ready"] == "1",
                         "\(moment.name): the page did not finish loading: \(output.stdout.prefix(2000))")

            let spoken = words.filter { $0.word.start <= moment.ms && moment.ms < $0.word.end }
            try #require(spoken.count == 1, "\(moment.name): the sidecar has \(spoken.count) words at \(moment.ms) ms")
            let expected = spoken[0]
            let word = dom.elements(withClass: "current-word")
            try #require(word.count == 1, "\(moment.name): \(word.count) elements marked current-word")
            #expect(word[0].id == "w\(expected.index)", "\(moment.name): at \(moment.ms) ms the page marks \(word[0].id ?? "?")")
            #expect(dom.textContent(of: word[0]) == expected.text, "\(moment.name): the marked word reads “\(dom.textContent(of: word[0]))”")

            let sentence = dom.elements(withClass: "current-sentence")
            try #require(sentence.count == 1, "\(moment.name): \(sentence.count) elements marked current-sentence")
            #expect(sentence[0].id == "s\(expected.sentenceIndex)")
            #expect(dom.textContent(of: sentence[0]) == expected.paragraph.text(of: expected.sentence))
            #expect(dom.contains(word[0], within: sentence[0]), "\(moment.name): the current word is in the current sentence")
            #expect(dom.elements(withClass: "current-chapter").map { $0.attributes["data-chapter"] } == ["\(expected.chapter)"])

            // The whole text as built in the browser: every paragraph and word, escaped and sliced right.
            for (k, paragraph) in sidecar.chapters.flatMap(\.paragraphs).enumerated() {
                #expect(dom.element(id: "p\(k)").map(dom.textContent(of:)) == paragraph.text, "\(moment.name): paragraph \(k)")
            }
            for spokenWord in words {
                #expect(dom.element(id: "w\(spokenWord.index)").map(dom.textContent(of:)) == spokenWord.text)
            }
            #expect(dom.element(id: "w\(words.count)") == nil)
            #expect(dom.elements.first { $0.tag == "h1" }.map(dom.textContent(of:)) == #"Tom & Jerry's "<Read-Along>""#)
            for element in dom.elements {
                for name in ["src", "href"] {
                    guard let value = element.attributes[name] else { continue }
                    #expect(value == "book.mp3" || value == "data:," || value.hasPrefix("#c"), "\(moment.name): \(element.tag) \(name)=\(value)")
                }
            }
        }
    }

    @Test func consoleMessagesAndUncaughtErrorsOfAPageAppearInChromiumsLog() throws {
        let ws = try Workspace("readalong-probe")
        let probe = try ws.write("probe.html", """
            <!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>probe</title></head>
            <body><script>console.error("probe console error");</script><script>undefinedProbeFunction();</script></body></html>
            """)
        let output = try Chromium.dumpAll([probe.absoluteString], profiles: ws.url)[0].get()
        let consoleLines = output.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(consoleLines.contains { $0.contains("probe console error") }, "stderr: \(output.stderr)")
        #expect(consoleLines.contains { $0.contains("undefinedProbeFunction") }, "stderr: \(output.stderr)")
    }

    /// The word in the middle of `candidates` (among those long enough to have a middle) and the
    /// millisecond halfway through it.
    static func moment(_ name: String, _ candidates: [SpokenWord]) throws -> Moment {
        let long = candidates.filter { $0.word.end - $0.word.start >= 40 }
        let word = try #require(long.isEmpty ? nil : long[long.count / 2], "no word to seek to for \(name)")
        return Moment(name: name, ms: (word.word.start + word.word.end) / 2)
    }
}

/// A timed word of the sidecar with its indexes in reading order over the whole book (the page's
/// `w…` and `s…` ids).
struct SpokenWord {
    var index: Int
    var sentenceIndex: Int
    var chapter: Int
    var paragraph: Sidecar.Paragraph
    var sentence: Sidecar.Sentence
    var word: Sidecar.Word
    var text: String { paragraph.text(of: word) }

    static func all(in sidecar: Sidecar) -> [SpokenWord] {
        var words: [SpokenWord] = []
        var sentenceIndex = 0
        for (c, chapter) in sidecar.chapters.enumerated() {
            for paragraph in chapter.paragraphs {
                for sentence in paragraph.sentences {
                    for word in sentence.words {
                        words.append(SpokenWord(index: words.count, sentenceIndex: sentenceIndex, chapter: c,
                                                paragraph: paragraph, sentence: sentence, word: word))
                    }
                    sentenceIndex += 1
                }
            }
        }
        return words
    }
}

extension Sidecar.Paragraph {
    func text(of sentence: Sidecar.Sentence) -> String {
        let units = Array(text.utf16)
        return String(decoding: units[sentence.offset..<(sentence.offset + sentence.length)], as: UTF16.self)
    }
}
