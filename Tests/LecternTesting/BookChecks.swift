import Foundation
import Testing

/// The checks every rendered book must pass, shared by the end-to-end and in-process suites.
public enum BookChecks {
    /// The chapter titles in the MP3's ID3 CHAP frames, as ffprobe reads them.
    public static func chapterTitles(_ mp3: URL) throws -> [String] {
        let chapters = try CheckTool.probe(mp3, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        return chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String }
    }

    /// The decoded audio is as long as the sidecar says, within one MP3 frame.
    public static func expectDurationMatches(_ pcm: [Int16], _ sidecar: Sidecar, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(pcm.count - sidecar.sampleCount) <= 576, "decoded \(pcm.count) samples, sidecar \(sidecar.sampleCount)",
                sourceLocation: sourceLocation)
    }

    /// For the given paragraphs, the first word starts within 40 ms of where speech resumes in the
    /// decoded audio after the preceding pause. Returns how many were checked.
    @discardableResult
    public static func expectOnsetsMatch(_ pcm: [Int16], _ sidecar: Sidecar, picks: [(chapter: Int, paragraph: Int)],
                                  sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let rate = sidecar.sampleRate
        var checked = 0
        for (c, p) in picks {
            let previous = sidecar.chapters[c].paragraphs[p - 1]
            let paragraph = sidecar.chapters[c].paragraphs[p]
            guard let firstWord = paragraph.words.first else {
                Issue.record("chapter \(c + 1) paragraph \(p + 1) has no words", sourceLocation: sourceLocation)
                continue
            }
            let from = previous.end * rate / 1000 + rate / 20
            let to = firstWord.start * rate / 1000 + rate / 2
            guard let onset = speechOnset(in: pcm, from: from, to: to, sampleRate: rate) else {
                Issue.record("no speech onset found before chapter \(c + 1) paragraph \(p + 1)", sourceLocation: sourceLocation)
                continue
            }
            let onsetMs = Double(onset) * 1000 / Double(rate)
            #expect(abs(onsetMs - Double(firstWord.start)) <= 40,
                    "chapter \(c + 1) paragraph \(p + 1): audio resumes at \(onsetMs) ms, sidecar says \(firstWord.start) ms",
                    sourceLocation: sourceLocation)
            checked += 1
        }
        return checked
    }

    /// Every word of `input` is timed in the sidecar or listed as skipped, and each paragraph's
    /// timed words are exactly the words of its text, in order, with times that never go back.
    public static func expectWordCoverage(input: String, _ sidecar: Sidecar, sourceLocation: SourceLocation = #_sourceLocation) {
        var spoken: [String] = []
        var lastStart = 0
        for chapter in sidecar.chapters {
            for paragraph in chapter.paragraphs {
                let words = paragraph.words
                #expect(words.map { paragraph.text(of: $0) } == independentWords(paragraph.text), "\(paragraph.text.prefix(60))",
                        sourceLocation: sourceLocation)
                for w in words {
                    #expect(w.start >= lastStart && w.end >= w.start, "word times go backwards in \(chapter.title)",
                            sourceLocation: sourceLocation)
                    lastStart = w.start
                }
                spoken += words.map { paragraph.text(of: $0) }
            }
        }
        // What lies outside an excerpt's cut is summarised (one entry a side, with its word count):
        // those words are accounted for by count, every other word by itself.
        let skipped = sidecar.skipped.filter { $0.words == nil }.flatMap { independentWords($0.text) }
        let cutWords = sidecar.skipped.compactMap(\.words).reduce(0, +)
        #expect(sidecar.skipped.allSatisfy { !$0.reason.isEmpty }, sourceLocation: sourceLocation)
        #expect(sidecar.skipped.allSatisfy { $0.words == nil || $0.cut != nil }, "a summary that is not a cut", sourceLocation: sourceLocation)
        // Words are compared by their letters and digits: where a bracket or a quote mark glued to
        // a word falls (on a heading, or on the caption it ends) is not a word of its own.
        func key(_ w: String) -> String { String(w.unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init)) }
        var counts: [String: Int] = [:]
        let expected = independentWords(input)
        for w in expected { counts[key(w), default: 0] += 1 }
        for w in spoken + skipped { counts[key(w), default: 0] -= 1 }
        #expect(spoken.count + skipped.count + cutWords == expected.count,
                "input \(expected.count), spoken \(spoken.count), skipped \(skipped.count), outside the cut \(cutWords)",
                sourceLocation: sourceLocation)
        if cutWords == 0 {
            let mismatched = counts.filter { $0.value != 0 }
            #expect(mismatched.isEmpty, "words that differ: \(Array(mismatched.prefix(10)))", sourceLocation: sourceLocation)
        } else {
            // No word spoken or listed that the input lacks; what is left over is the cut's.
            let extra = counts.filter { $0.value < 0 }
            #expect(extra.isEmpty, "words not in the input: \(Array(extra.prefix(10)))", sourceLocation: sourceLocation)
        }
    }
}
