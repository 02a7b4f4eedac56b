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
        let plain = try ws.write("plain.yml", "title: Levels\nsources:\n  - path: book.txt\n")
        let levelled = try ws.write("levelled.yml", """
            title: Levels
            loudness: { target: -18, true_peak: -1.5 }
            split: chapters
            sources:
              - path: book.txt
            """)
        let before = try RenderedJob.run(ws, plain)
        let after = try RenderedJob.run(ws, levelled)
        let chapterTimes = { (job: RenderedJob) in (job.sidecar["chapters"] as? NSArray) ?? [] }
        #expect(chapterTimes(before).count == 3 && chapterTimes(before) == chapterTimes(after), "levelling moved a time")

        let folder = ws.url.appendingPathComponent("out/levelled/levelled-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
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
}
