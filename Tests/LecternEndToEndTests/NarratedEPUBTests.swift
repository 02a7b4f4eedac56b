import Foundation
import Testing
import LecternTesting

/// The narrated EPUB 3 of Alice (`timings: [… epub]`), checked with epubcheck, Python's zipfile and
/// ElementTree, and ffmpeg's decoding of the chapter audio inside it.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct NarratedEPUBTests {
    static func alice() throws -> (epub: URL, sidecar: Sidecar) {
        let render = try AliceEndToEndTests.render.get()
        let epub = render.mp3.deletingLastPathComponent().appendingPathComponent("alice.epub")
        return (epub, try Sidecar.load(render.sidecar))
    }

    /// No error, no warning (media overlays included), and epubcheck finished its checks.
    static func expectValid(_ epub: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        expectValid(try EPUBInspection.epubcheck(epub), sourceLocation: sourceLocation)
    }

    static func expectValid(_ report: EPUBInspection.EPUBCheckReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!report.stderr.contains("Exception") && !report.stderr.contains("Error") && !report.stderr.contains("no JSON report"),
                "epubcheck did not finish: \(report.stderr.suffix(2000))", sourceLocation: sourceLocation)
        let bad = report.messages.filter { ["FATAL", "ERROR", "WARNING"].contains($0.severity) }
        #expect(bad.isEmpty, "\(bad.count) messages, e.g. \(bad.prefix(5).map { "\($0.severity) \($0.id) \($0.message) at \($0.location)" })",
                sourceLocation: sourceLocation)
    }

    /// Every `par` points at an id its document has, every clip is non-empty and inside its audio
    /// file's decoded length, and the overlays' `media:duration`s add up to the total.
    static func expectParsAndClipsValid(_ epub: URL, _ inspection: EPUBInspection, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ids = inspection.ids.mapValues(Set.init)
        let dangling = inspection.pars.filter { ids[$0.document]?.contains($0.id) != true }
        #expect(dangling.isEmpty, "\(dangling.count) pars point at no element, e.g. \(dangling.prefix(3).map { "\($0.document)#\($0.id)" })",
                sourceLocation: sourceLocation)
        let folder = try Workspace("epub-audio").url
        let audio = try EPUBInspection.extract(epub, Array(Set(inspection.pars.map(\.audio))).sorted(), into: folder)
        var lengths: [String: Double] = [:]
        for (path, url) in audio { lengths[path] = Double(try Tool.decodedSampleCount(url)) * 1000 / 22050 }
        for par in inspection.pars {
            let length = try #require(lengths[par.audio])
            #expect(par.begin >= 0 && par.begin < par.end && par.end <= length + 0.5,
                    "\(par.document)#\(par.id): clip \(par.begin)–\(par.end) ms in \(par.audio) of \(length) ms", sourceLocation: sourceLocation)
        }
        let sum = inspection.durations.values.reduce(0, +)
        #expect(abs(sum - inspection.totalDuration) <= 1, "overlays add up to \(sum) ms, total says \(inspection.totalDuration)",
                sourceLocation: sourceLocation)
        for overlay in inspection.spine.map({ $0[1] }) where !overlay.isEmpty {
            #expect(inspection.durations[overlay] != nil, "no media:duration for \(overlay)", sourceLocation: sourceLocation)
        }
    }

    @Test func aliceNarratedEPUBPassesEPUBCheck() throws {
        try Self.expectValid(try Self.alice().epub)
    }

    @Test func everyParPointsAtAnExistingIdAndEveryClipLiesInsideItsChapterAudio() throws {
        let (epub, sidecar) = try Self.alice()
        let inspection = try EPUBInspection.read(epub)
        try Self.expectParsAndClipsValid(epub, inspection)
        // One chapter document and one audio file per chapter, every word a par of its own, in order.
        #expect(inspection.spine.count == sidecar.chapters.count)
        #expect(Set(inspection.pars.map(\.audio)).count == sidecar.chapters.count)
        #expect(inspection.pars.filter { $0.kind == "z3998:word" }.count
                == sidecar.chapters.reduce(0) { $0 + $1.paragraphs.reduce(0) { $0 + $1.words.count } })
        for (a, b) in zip(inspection.pars, inspection.pars.dropFirst()) where a.audio == b.audio {
            #expect(a.end <= b.begin + 0.5, "\(a.id) ends after \(b.id) begins")
        }
    }

    /// For 50 sentences spread over the book, each starting after a pause, the clipBegin of the
    /// sentence's first `par` is within 40 ms of where speech resumes in the chapter's decoded audio.
    @Test func fiftySentenceClipsBeginWithin40msOfTheSpeechOnset() throws {
        let (epub, sidecar) = try Self.alice()
        let inspection = try EPUBInspection.read(epub)
        // First sentences of paragraphs that follow at least 0.4 s without speech.
        var candidates: [(chapter: Int, paragraph: Int, sentence: Int)] = []
        for (c, chapter) in sidecar.chapters.enumerated() {
            for (p, (previous, paragraph)) in zip(chapter.paragraphs, chapter.paragraphs.dropFirst()).enumerated() {
                guard let first = paragraph.sentences.first?.words.first, first.start - previous.end >= 400 else { continue }
                candidates.append((c, p + 1, 0))
            }
        }
        try #require(candidates.count >= 50, "only \(candidates.count) sentences follow a pause")
        let picks = (0..<50).map { candidates[$0 * candidates.count / 50] }
        #expect(Set(picks.map(\.chapter)).count == sidecar.chapters.count, "the sample spans every chapter")

        let folder = try Workspace("epub-onsets").url
        var decoded: [String: [Int16]] = [:]
        var checked = 0
        for pick in picks {
            // The documented ids of the generated text: pN (paragraph), pNsM (its sentence M).
            let document = inspection.spine[pick.chapter][0]
            let sentenceId = "p\(pick.paragraph + 1)s\(pick.sentence + 1)"
            let par = try #require(inspection.pars.first { $0.document == document && $0.parent == sentenceId },
                                   "no par for \(document)#\(sentenceId)")
            if decoded[par.audio] == nil {
                let file = try EPUBInspection.extract(epub, [par.audio], into: folder)[par.audio]!
                decoded[par.audio] = try Tool.decode(file)
            }
            let pcm = decoded[par.audio]!
            let from = Int((par.begin - 350) * 22.05), to = Int((par.begin + 400) * 22.05)
            guard let onset = speechOnset(in: pcm, from: from, to: to, sampleRate: 22050) else {
                Issue.record("no speech onset near \(document)#\(sentenceId) at \(par.begin) ms")
                continue
            }
            let onsetMs = Double(onset) * 1000 / 22050
            #expect(abs(onsetMs - par.begin) <= 40, "\(document)#\(sentenceId): speech resumes at \(onsetMs) ms, clipBegin \(par.begin) ms")
            checked += 1
        }
        #expect(checked == 50)
    }
}
