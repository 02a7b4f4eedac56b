import Foundation
import Testing
import LecternTesting

/// Parallel rendering on worker processes: killed workers are replaced, and extreme shapes of
/// text (one huge paragraph, a one-word chapter) still render exactly.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct ParallelRenderTests {
    /// The first chapters of Alice as a book of their own.
    static func aliceOpening(lines: Int, in ws: Workspace) throws -> (manifest: URL, text: String) {
        let all = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8)
        let text = all.components(separatedBy: "\n").prefix(lines).joined(separator: "\n")
        try ws.write("alice-opening.txt", text)
        let manifest = try ws.write("opening.yml", """
            title: Alice, the opening
            sources:
              - path: alice-opening.txt
                chapters: { heading: '^CHAPTER [IVXLC]+\\.$', subtitle: true, skip_before_first: true }
            voice: { name: en-gb }
            """)
        return (manifest, text)
    }

    /// The pids of `parent`'s child processes, from /proc.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == parent
        }
    }

    @Test func killedWorkerIsReplacedAndTheBookIsComplete() throws {
        let ws = try Workspace("kill")
        let (manifest, text) = try Self.aliceOpening(lines: 920, in: ws)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.lectern)
        process.arguments = ["run", "--quiet", "--workers", "2", manifest.path, "--db", ws.db.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()

        // Wait until two chunks are recorded, then kill one worker while the run goes on.
        let out = ws.url.appendingPathComponent("out/opening")
        var killed: Int32?
        let deadline = Date().addingTimeInterval(120)
        while killed == nil, process.isRunning, Date() < deadline {
            let probe = try? StoreProbe(ws.db)
            let recorded = (try? probe.map { p in try p.runs().last.map { try p.rendered(by: $0).count } ?? 0 }) ?? 0
            let workers = Self.children(of: process.processIdentifier)
            if recorded >= 2, let victim = workers.first {
                kill(victim, SIGKILL)
                killed = victim
            } else {
                usleep(20_000)  // polling for a condition (chunks recorded), not waiting for a result
            }
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(killed != nil, "no worker to kill before the run ended")
        #expect(process.terminationStatus == 0, "run failed after a worker was killed: \(stderr)")
        #expect(stderr.contains("worker died"), "the replacement should be logged: \(stderr)")

        let mp3 = out.appendingPathComponent("opening.mp3")
        let sidecar = try Sidecar.load(out.appendingPathComponent("opening.timings.json"))
        #expect(try BookChecks.chapterTitles(mp3).count == 4)
        let pcm = try Tool.decode(mp3)
        BookChecks.expectDurationMatches(pcm, sidecar)
        let picks = sidecar.chapters.enumerated().flatMap { c, chapter in
            stride(from: 1, to: chapter.paragraphs.count, by: max(1, chapter.paragraphs.count / 6)).map { (chapter: c, paragraph: $0) }
        }
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) >= 20)
        BookChecks.expectWordCoverage(input: text, sidecar)
        #expect(ffmpegIsSilent(mp3))
    }

    @Test func chunkThatKillsItsWorkerTwiceFailsTheRunNamingChunkAndStderr() throws {
        let ws = try Workspace("crash")
        try ws.write("two.txt", "ONE\n\nFirst chapter text.\n\nTWO\n\nSecond chapter text.\n")
        let manifest = try ws.write("two.yml", "title: Two\nsources:\n  - path: two.txt\n    chapters: { heading: '^(ONE|TWO)$' }\n")
        let result = try Tool.run(Tool.lectern, ["run", "--quiet", manifest.path, "--db", ws.db.path],
                                  environment: ["LECTERN_TEST_WORKER_CRASH_CHUNK": "1"])
        #expect(result.status != 0)
        let errorLine = result.stderr.split(separator: "\n").last { $0.hasPrefix("lectern: error:") } ?? ""
        #expect(errorLine.contains("chunk 2 (chapter 2"), "\(result.stderr)")
        #expect(errorLine.contains("failed twice"))
        #expect(errorLine.contains("crashing on chunk 1"), "the worker's stderr belongs in the error: \(errorLine)")
        #expect(!ws.exists("out/two/two.mp3"))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: ws.url.appendingPathComponent("out/two").path)) ?? []
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test func tenThousandWordParagraphAndOneWordChapterRenderExactly() throws {
        let ws = try Workspace("extremes")
        // One paragraph of 10,000 words from Alice's own sentences, then a chapter of one word.
        let alice = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8)
        let source = independentWords(alice.components(separatedBy: "CHAPTER I.").last ?? alice)
        let paragraph = (0..<10_000).map { source[$0 % source.count] }.joined(separator: " ")
        try ws.write("extremes.txt", "LONG\n\n\(paragraph)\n\nSHORT\n\nFin.\n")
        let manifest = try ws.write("extremes.yml", """
            title: Extremes
            sources:
              - path: extremes.txt
                chapters: { heading: '^(LONG|SHORT)$' }
            voice: { name: en-us, rate: 0.7 }
            """)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let mp3 = ws.url.appendingPathComponent("out/extremes/extremes.mp3")
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/extremes/extremes.timings.json"))
        #expect(try BookChecks.chapterTitles(mp3) == ["LONG", "SHORT"])
        let long = try #require(sidecar.chapters.first?.paragraphs.last)
        #expect(long.words.count == 10_000)
        #expect(long.text == paragraph)
        let last = try #require(sidecar.chapters.last?.paragraphs.last)
        #expect(last.words.count == 1 && last.text(of: last.words[0]) == "Fin.")
        let pcm = try Tool.decode(mp3)
        BookChecks.expectDurationMatches(pcm, sidecar)
        BookChecks.expectWordCoverage(input: "LONG\n\(paragraph)\nSHORT\nFin.", sidecar)
        // The one-word chapter's word is where speech resumes after the long chapter's pauses.
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: [(1, 1)]) == 1)
        // The long paragraph is spoken for its whole length, not cut off: its last word ends
        // before the next chapter starts, and sound is present near that word.
        let lastWord = try #require(long.words.last)
        #expect(lastWord.end <= sidecar.chapters[1].start)
        let around = pcm[(lastWord.start * 22050 / 1000)..<min(pcm.count, lastWord.end * 22050 / 1000)]
        #expect(around.contains { abs(Int($0)) > 1000 })
        #expect(ffmpegIsSilent(mp3))
    }

    func ffmpegIsSilent(_ mp3: URL) -> Bool {
        guard let r = try? Tool.run("ffmpeg", ["-v", "error", "-i", mp3.path, "-f", "null", "-"]) else { return false }
        return r.status == 0 && r.stderr.isEmpty
    }
}
