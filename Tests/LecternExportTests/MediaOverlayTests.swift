import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LecternExport

/// The SMIL a media overlay writes: nesting, clip chaining within an audio file, the sentence
/// fallback, clips shifted to their audio file, and no empty `seq`.
@Suite struct MediaOverlayTests {
    static func word(_ offset: Int, _ length: Int, _ start: Int, _ end: Int) -> WordTiming {
        WordTiming(offset: offset, length: length, start: start, end: end)
    }

    /// "One two. Three four." spoken from 10 s into the book; the audio file starts at 9.5 s.
    static func paragraph(thirdWordAt third: Int = 10_900) -> ParagraphTiming {
        ParagraphTiming(kind: .paragraph, text: "One two. Three four.", voice: "en", start: 10_000, end: 11_600, sentences: [
            SentenceTiming(offset: 0, length: 8, start: 10_000, end: 10_700, words: [word(0, 3, 10_000, 10_300), word(4, 4, 10_300, 10_700)]),
            SentenceTiming(offset: 9, length: 11, start: third, end: 11_600, words: [word(9, 5, third, 11_200), word(15, 5, 11_200, 11_600)]),
        ], spans: nil, pronounced: nil)
    }

    static func overlay(_ sentences: [MediaOverlay.Sentence], timing: ParagraphTiming = paragraph(), length: Double = 60_000) -> MediaOverlay {
        MediaOverlay(text: "../text/c.xhtml", paragraphs: [
            MediaOverlay.Paragraph(id: "p1", sentences: sentences, timing: timing, audio: "../audio/c.mp3", audioStartMs: 9_500, audioLengthMs: length),
        ])
    }

    /// (target id, clipBegin, clipEnd) of every par, in order.
    static func pars(_ smil: String) -> [(String, String, String)] {
        let regex = try! NSRegularExpression(pattern: #"#([^"]+)"/><audio src="[^"]+" clipBegin="([^"]+)" clipEnd="([^"]+)""#)
        return regex.matches(in: smil, range: NSRange(smil.startIndex..., in: smil)).map { m in
            let s = { (i: Int) in String(smil[Range(m.range(at: i), in: smil)!]) }
            return (s(1), s(2), s(3))
        }
    }

    @Test func wordsNestInSentencesAndEachClipRunsToTheNextInTheFile() throws {
        let smil = Self.overlay([.init(id: "s1", words: ["w1", "w2"]), .init(id: "s2", words: ["w3", "w4"])]).smil()
        #expect(Self.pars(smil).map(\.0) == ["w1", "w2", "w3", "w4"])
        // Times are the book's minus the file's start; w2 runs on through the pause to w3.
        #expect(Self.pars(smil).map(\.1) == ["0:00:00.500", "0:00:00.800", "0:00:01.400", "0:00:01.700"])
        #expect(Self.pars(smil).map(\.2) == ["0:00:00.800", "0:00:01.400", "0:00:01.700", "0:00:02.100"])
        #expect(smil.components(separatedBy: "epub:type=\"z3998:sentence\"").count == 3)
        #expect(smil.contains("<seq epub:textref=\"../text/c.xhtml#p1\" epub:type=\"z3998:paragraph\">"))
        #expect(XMLParser(data: Data(smil.utf8)).parse())
        #expect(Self.overlay([.init(id: "s1", words: ["w1", "w2"]), .init(id: "s2", words: ["w3", "w4"])]).durationMs == 1_600)
    }

    @Test func aSentenceWithAnUnmarkedWordIsOneParAtTheSentence() throws {
        let smil = Self.overlay([.init(id: "s1", words: ["w1", nil]), .init(id: nil, words: [nil, nil])]).smil()
        #expect(Self.pars(smil).map(\.0) == ["s1", "p1"])
        #expect(Self.pars(smil).map(\.1) == ["0:00:00.500", "0:00:01.400"])
        #expect(!smil.contains("<seq epub:textref=\"../text/c.xhtml#s1\""), "a sentence par is not wrapped in a seq")
        #expect(smil.contains("<par epub:type=\"z3998:sentence\"><text src=\"../text/c.xhtml#s1\"/>"))
    }

    @Test func clipsOfNothingAreLeftOutAndNoSeqIsEmpty() throws {
        // The second sentence's first word starts with its second: it has no time of its own.
        var timing = Self.paragraph()
        timing.sentences[1].words[0].end = timing.sentences[1].words[0].start
        timing.sentences[1].words[1].start = timing.sentences[1].words[0].start
        timing.sentences[1].words[1].end = timing.sentences[1].words[1].start
        let smil = Self.overlay([.init(id: "s1", words: ["w1", "w2"]), .init(id: "s2", words: ["w3", "w4"])], timing: timing).smil()
        #expect(!smil.contains("#w3\"") && !smil.contains("#s2\""))
        #expect(!smil.contains("<seq epub:textref=\"../text/c.xhtml#s2\""))
        #expect(XMLParser(data: Data(smil.utf8)).parse())
    }

    @Test func noClipEndsPastItsAudioFile() {
        // Book times are whole milliseconds; the file's decoded length need not be.
        let smil = Self.overlay([.init(id: "s1", words: ["w1", "w2"]), .init(id: "s2", words: ["w3", "w4"])], length: 2_099.6).smil()
        #expect(Self.pars(smil).last?.2 == "0:00:02.099")
    }

    @Test func clockValuesAreFullClockValues() {
        #expect(MediaOverlay.clock(0) == "0:00:00.000")
        #expect(MediaOverlay.clock(3_723_004) == "1:02:03.004")
        #expect(MediaOverlay.clock(36_000_000) == "10:00:00.000")
    }
}
