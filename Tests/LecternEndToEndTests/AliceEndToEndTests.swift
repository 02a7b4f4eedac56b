import Foundation
import Testing
import LecternTesting

/// Alice from the corpus, rendered once by the real binary from a manifest that says nothing about
/// its structure (the chapters are found), and checked by independent tools.
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct AliceEndToEndTests {
    /// One render shared by the tests of this suite.
    struct Render: Sendable {
        let workspace: Workspace
        let mp3: URL
        let sidecar: URL
        let status: String
    }

    static let render: Result<Render, TestFailure> = {
        do {
            let ws = try Workspace("alice")
            let manifest = try ws.write("Jobs/alice.yml", """
                title: Alice's Adventures in Wonderland
                author: Lewis Carroll
                sources:
                  - path: \(Corpus.file("text/pg11-alice-in-wonderland.txt").path)
                voice: { name: en-gb, wpm: 300 }
                timings: [json, vtt, srt, epub]
                """)
            let result = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
            guard result.status == 0 else { return .failure(TestFailure("lectern run failed: \(result.stderr)")) }
            let status = try Tool.lectern(["status", "--json"], db: ws.db)
            return .success(Render(workspace: ws, mp3: ws.url.appendingPathComponent("out/alice/alice.mp3"),
                                   sidecar: ws.url.appendingPathComponent("out/alice/alice.timings.json"), status: status.stdout))
        } catch {
            return .failure(TestFailure("\(error)"))
        }
    }()

    /// The chapter titles as a reader of the text finds them: each `CHAPTER N.` line and the line after it.
    static func expectedTitles() throws -> [String] {
        let lines = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8)
            .components(separatedBy: "\n")
        var titles: [String] = []
        for (i, line) in lines.enumerated() where line.range(of: #"^CHAPTER [IVXLC]+\.$"#, options: .regularExpression) != nil {
            let next = lines[(i + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            titles.append("\(line) \(next.trimmingCharacters(in: .whitespaces))")
        }
        return titles
    }

    @Test func mp3HasTwelveChaptersWithTitlesInOrderAndIsValid() throws {
        let r = try Self.render.get()
        let chapters = try Tool.probe(r.mp3, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        let expected = try Self.expectedTitles()
        #expect(expected.count == 12)
        #expect(try BookChecks.chapterTitles(r.mp3) == expected)
        let starts = chapters.compactMap { Double($0["start_time"] as? String ?? "") }
        #expect(starts == starts.sorted() && starts.first == 0)

        let mutagen = try Tool.mutagenInspect(r.mp3)
        #expect(mutagen.status == 0)
        #expect(mutagen.stdout.components(separatedBy: "CHAP=").count - 1 == 12)
        #expect(mutagen.stdout.contains("CTOC=toc"))
        #expect(mutagen.stdout.contains("TIT2=Alice's Adventures in Wonderland"))
        #expect(mutagen.stdout.contains("TPE1=Lewis Carroll"))

        let mp3val = try Tool.run("mp3val", [r.mp3.path])
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "mp3val: \(mp3val.stdout)")

        let ffmpeg = try Tool.run("ffmpeg", ["-v", "error", "-i", r.mp3.path, "-f", "null", "-"])
        #expect(ffmpeg.status == 0)
        #expect(ffmpeg.stderr.isEmpty && ffmpeg.stdout.isEmpty, "ffmpeg: \(ffmpeg.stderr)")
    }

    @Test func decodedDurationEqualsRecordedDurationWithinOneFrame() throws {
        let r = try Self.render.get()
        let pcm = try Tool.decode(r.mp3)
        let sidecar = try Sidecar.load(r.sidecar)
        let status = try JSONSerialization.jsonObject(with: Data(r.status.utf8)) as! [String: Any]
        let run = ((status["jobs"] as! [[String: Any]])[0]["runs"] as! [[String: Any]])[0]
        let recordedMs = run["durationMs"] as! Int
        let decodedMs = Double(pcm.count) * 1000 / Double(sidecar.sampleRate)
        let frameMs = 576.0 * 1000 / Double(sidecar.sampleRate)
        #expect(abs(decodedMs - Double(recordedMs)) <= frameMs, "decoded \(decodedMs) ms, recorded \(recordedMs) ms")
        #expect(abs(pcm.count - sidecar.sampleCount) <= 576)
        // The last chapter mark ends where the audio ends.
        let chapters = try Tool.probe(r.mp3, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        let lastEnd = Double(chapters.last?["end_time"] as? String ?? "0")! * 1000
        #expect(abs(lastEnd - decodedMs) <= frameMs)
    }

    @Test func paragraphOnsetsMatchDecodedAudioWithin40ms() throws {
        let r = try Self.render.get()
        let pcm = try Tool.decode(r.mp3)
        let sidecar = try Sidecar.load(r.sidecar)
        // Every chapter contributes; the last chapter contributes several paragraphs.
        var picks: [(chapter: Int, paragraph: Int)] = []
        for (c, chapter) in sidecar.chapters.enumerated() {
            let count = chapter.paragraphs.count
            let indices = c == sidecar.chapters.count - 1 ? [1, count / 3, count / 2, count - 1] : [2, count / 2]
            for p in Set(indices) where p > 0 && p < count { picks.append((c, p)) }
        }
        #expect(picks.count >= 20)
        #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) >= 20)
    }

    @Test func everyInputWordIsTimedOrListedAsSkipped() throws {
        let r = try Self.render.get()
        let sidecar = try Sidecar.load(r.sidecar)
        #expect(sidecar.units.textOffset.contains("UTF-16"))
        let text = try String(contentsOf: Corpus.file("text/pg11-alice-in-wonderland.txt"), encoding: .utf8)
        BookChecks.expectWordCoverage(input: text, sidecar)
    }

    @Test func statusJSONShowsTheSucceededRunWithCountsAndOutputs() throws {
        let r = try Self.render.get()
        let status = try JSONSerialization.jsonObject(with: Data(r.status.utf8)) as! [String: Any]
        let job = try #require((status["jobs"] as? [[String: Any]])?.first)
        #expect(job["name"] as? String == "alice")
        let run = try #require((job["runs"] as? [[String: Any]])?.first)
        #expect(run["state"] as? String == "succeeded")
        #expect(run["chapters"] as? Int == 12)
        #expect((run["words"] as? Int ?? 0) > 26000)
        #expect((run["paragraphs"] as? Int ?? 0) > 800)
        #expect(run["wordsDone"] as? Int == run["words"] as? Int)
        let outputs = run["outputs"] as? [String] ?? []
        #expect(outputs.contains(r.mp3.path))
        #expect(outputs.contains(r.sidecar.path))
    }
}
