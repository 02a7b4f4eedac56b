import Foundation
import Testing
import LecternTestSupport

/// `loudness:` (issue #25, item 4): each chapter of a book rendered with a target, split into
/// chapter files, reads within ±1 LU of the target with its true peak at or under the limit as
/// ffmpeg's `ebur128` filter measures the decoded MP3; the sidecar's times are those of the
/// same book without levelling (levelling moves no sample).
struct LoudnessEndToEndTests {
    static func ffmpegLoudness(_ file: URL) throws -> (integrated: Double, truePeak: Double) {
        let result = try Tool.run("ffmpeg", ["-hide_banner", "-nostats", "-i", file.path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(_ label: String) -> Double? {
            summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }
                .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Double($0) } }
        }
        return (try #require(value("I:"), "\(result.stderr)"), try #require(value("Peak:"), "\(result.stderr)"))
    }

    @Test func eachChapterMeetsTheTargetAndTheTimesDoNotMove() throws {
        let ws = try Workspace("loudness")
        let chapters = ["A Quiet Start", "Loud Words", "The End"].enumerated().map { i, title in
            "CHAPTER \(i + 1). \(title)\n\n" + (1...4).map { p in
                "Paragraph \(p) of the \(title.lowercased()) goes on for a while, with commas, pauses and a question or two? Yes! It does."
            }.joined(separator: "\n\n")
        }
        try ws.write("book.txt", chapters.joined(separator: "\n\n"))
        let plain = try ws.write("plain.yml", "title: Levels\nloudness: off\nsources:\n  - path: book.txt\n")
        // The default: { target: -18, true_peak: -1.5 }.
        let levelled = try ws.write("levelled.yml", """
            title: Levels
            split: chapters
            sources:
              - path: book.txt
            """)
        let before = try RenderedJob.run(ws, plain)
        let after = try RenderedJob.run(ws, levelled)
        let chapterTimes = { (job: RenderedJob) in (job.sidecar["chapters"] as? NSArray) ?? [] }
        #expect(chapterTimes(before).count == 3 && chapterTimes(before) == chapterTimes(after), "levelling moved a time")

        let folder = ws.url.appendingPathComponent("out/levelled/levelled-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        try #require(files.count == 3)
        for name in files {
            let (integrated, peak) = try Self.ffmpegLoudness(folder.appendingPathComponent(name))
            #expect(abs(integrated + 18) <= 1, "\(name): \(integrated) LUFS")
            #expect(peak <= -1.5, "\(name): true peak \(peak) dBTP")
        }
        let book = try Self.ffmpegLoudness(after.mp3)
        #expect(abs(book.integrated + 18) <= 1 && book.truePeak <= -1.5, "the book: \(book)")
        let untouched = try Self.ffmpegLoudness(before.mp3)
        #expect(abs(untouched.integrated - book.integrated) > 1 || untouched.truePeak > -1.5,
                "the engine's own levels already met the target: the test shows nothing (\(untouched))")
    }

    /// A book whose chapters alternate between espeak-ng and the Piper voice (and whose headings
    /// stay espeak-ng in a Piper chapter) meets one level: every chapter within ±1 LU of the
    /// target, where the engines' own levels differ by several LU.
    @Test(.enabled(if: NeuralVoice.missing == nil, "\(NeuralVoice.missing ?? "")"))
    func aBookMixingEspeakAndPiperMeetsOneLevel() throws {
        let ws = try Workspace("loudness-mixed")
        let chapters = ["By the Sea", "In the Hills", "At Home"].enumerated().map { i, title in
            "CHAPTER \(i + 1). \(title)\n\n" + (1...3).map { p in
                "Paragraph \(p) of the chapter \(title.lowercased()) is told at an even pace, with a pause, and then another."
            }.joined(separator: "\n\n")
        }
        try ws.write("book.txt", chapters.joined(separator: "\n\n"))
        let body = """
            title: Two Engines
            split: chapters
            voice: { name: en-us }
            overrides:
              - chapter: 2
                voice: { engine: piper, name: en_US-joe-medium }
            sources:
              - path: book.txt
            """
        let levelled = try RenderedJob.run(ws, try ws.write("mixed.yml", body))
        let plain = try RenderedJob.run(ws, try ws.write("raw.yml", body + "\nloudness: off\n"))
        let engines = levelled.paragraphs.compactMap { $0["engine"] as? String }
        #expect(Set(engines) == ["espeak-ng", "piper"], "\(Set(engines))")
        var raw: [Double] = []
        for (job, name) in [(levelled, "mixed"), (plain, "raw")] {
            let folder = ws.url.appendingPathComponent("out/\(name)/\(name)-chapters")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ !$0.hasPrefix(".") }).sorted() {
                let (integrated, peak) = try Self.ffmpegLoudness(folder.appendingPathComponent(file))
                if name == "raw" { raw.append(integrated); continue }
                #expect(abs(integrated + 18) <= 1, "\(file): \(integrated) LUFS")
                #expect(peak <= -1.5, "\(file): true peak \(peak) dBTP")
            }
            _ = job
        }
        #expect(raw.count == 3 && (raw.max()! - raw.min()! > 1 || raw.allSatisfy { abs($0 + 18) > 1 }),
                "the engines' own levels already met one level: the test shows nothing (\(raw))")
    }
}
