import Foundation
import LecternCore
import LecternText
import Testing
@testable import LecternExport

/// `vtt: captions`: the WebVTT export cut into cues a viewer can read, from a sidecar written
/// through ``TimingSidecarWriter`` (1 sample = 1 ms, each word 400 ms).
@Suite struct CaptionCueTests {
    static let long = "When the long afternoon finally came to its end, the children walked home along the river, "
        + "singing the songs that their grandmother had taught them many years ago."
    static let short = "They slept."

    static func document() throws -> TimingDocument {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("captions-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let timer = UtteranceTimer(sampleRate: 1000)
        let writer = try TimingSidecarWriter(url: url, title: "Captions", author: nil, audio: "c.mp3", sampleRate: 1000)
        try writer.beginChapter(number: 1, title: "One", start: 0, part: nil)
        let text = long + " " + short
        let starts = WordTokenizer.tokens(in: text).map(\.start)
        try writer.append(timer.paragraph(kind: .paragraph, text: text, voice: "en", marks: starts.enumerated().map { ($1, $0 * 400) },
                                          speechStart: 1000, speechLength: starts.count * 400))
        try writer.endChapter(end: 1000 + starts.count * 400 + 500)
        try writer.commit(sampleCount: 1000 + starts.count * 400 + 500, wordCount: starts.count, skipped: [])
        return try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: url))
    }

    /// (id, start, end, lines with the timestamp tags removed, tag times) of each cue.
    static func cues(_ vtt: String) -> [(id: String, start: Int, end: Int, lines: [String], tags: [Int])] {
        func ms(_ clock: Substring) -> Int {
            let parts = clock.split(separator: ":")
            return (Int(parts[0])! * 3600 + Int(parts[1])! * 60) * 1000 + Int((Double(parts[2])! * 1000).rounded())
        }
        return vtt.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard lines.count >= 3, lines[1].contains(" --> ") else { return nil }
            let times = lines[1].components(separatedBy: " --> ")
            let text = lines[2...].map { String($0) }
            let tags = text.joined(separator: " ").matches(of: /<(\d\d:\d\d:\d\d\.\d\d\d)>/).map { ms($0.output.1) }
            return (String(lines[0]), ms(Substring(times[0])), ms(Substring(times[1])),
                    text.map { $0.replacing(/<[^>]*>/, with: "") }, tags)
        }
    }

    @Test func captionCuesAreAtMostTwoLinesOf42CharactersAnd7SecondsWithTheirWordsTimestamps() throws {
        let document = try Self.document()
        let words = document.chapters[0].paragraphs[0].sentences.flatMap(\.words)
        let cues = Self.cues(WebVTTWriter.render(document, cues: .captions))
        try #require(cues.count >= 3, "the 28-word sentence (11.2 s, 160 characters) needs several cues: \(cues.map(\.lines))")
        #expect(cues.map(\.lines).flatMap { $0 }.joined(separator: " ") == Self.long + " " + Self.short, "every word once, in order")
        var previousEnd = 0
        for cue in cues {
            #expect(cue.lines.count <= 2 && cue.lines.allSatisfy { $0.count <= 42 }, "\(cue.lines)")
            #expect(cue.end - cue.start <= 7000, "\(cue.id) lasts \(cue.end - cue.start) ms")
            #expect(cue.start >= previousEnd, "cues do not overlap")
            previousEnd = cue.end
            // A cue starts with its first word and ends with its last; a tag before each later word.
            let own = words.filter { $0.start >= cue.start && $0.end <= cue.end }
            #expect(own.first?.start == cue.start && own.last?.end == cue.end, "\(cue.id)")
            #expect(cue.tags == own.dropFirst().map(\.start), "\(cue.id): tags \(cue.tags)")
        }
        // The long sentence breaks after its clauses ("end," and "river,"), and the short one is a cue of its own.
        #expect(cues.contains { $0.lines.last?.hasSuffix("to its end,") == true }, "\(cues.map(\.lines))")
        #expect(cues.contains { $0.lines.last?.hasSuffix("along the river,") == true }, "\(cues.map(\.lines))")
        #expect(cues.last?.lines == [Self.short])
        #expect(cues.map(\.id) == (1...cues.count - 1).map { "c1-p1-s1-\($0)" } + ["c1-p1-s2-1"])
    }

    @Test func twoLineCaptionsAreEven() throws {
        let words = "one two three four five six seven eight nine ten eleven twelve".split(separator: " ").enumerated().map {
            CueText.Word(text: String($1), start: $0 * 100, end: $0 * 100 + 100)
        }
        let lines = CueText.balancedLines(words, width: 42).map { $0.map(\.text).joined(separator: " ") }
        #expect(lines == ["one two three four five six seven", "eight nine ten eleven twelve"], "33 and 28 characters, not 39 and 22")
    }

    @Test func sentenceCuesStayTheDefault() throws {
        let document = try Self.document()
        #expect(WebVTTWriter.render(document) == WebVTTWriter.render(document, cues: .sentences))
        #expect(Self.cues(WebVTTWriter.render(document)).map(\.id) == ["c1-p1-s1", "c1-p1-s2"])
    }
}
