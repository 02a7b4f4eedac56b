import Foundation
import Testing

/// `lectern check --acx FOLDER` on the real binary: Lectern's own MP3 (22,050 Hz, 64 kbit/s) fails
/// ACX's format rules, rule by rule, while a file made to ACX's spec with ffmpeg passes every rule.
struct ACXCheckEndToEndTests {
    /// A compliant file: 44.1 kHz mono, 192 kbit/s CBR, pink noise at −65 dB RMS as room tone
    /// (0.75 s before, 2.75 s after) and a 220 Hz tone at about −20 dB RMS, peaking at −16 dB.
    static func compliantMP3(_ url: URL) throws {
        let graph = "anoisesrc=color=pink:amplitude=0.003:seed=7:sample_rate=44100:duration=8.5[n];"
            + "sine=frequency=220:sample_rate=44100:duration=5,volume=1.344,adelay=750|750[t];"
            + "[n][t]amix=inputs=2:duration=first:normalize=0"
        let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-filter_complex", graph, "-ac", "1", "-c:a", "libmp3lame", "-b:a", "192k", url.path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
    }

    @Test func lecternsOwnMP3FailsTheFormatRulesAndAnACXFilePassesEveryRule() throws {
        let ws = try Workspace("acx")
        try ws.write("tale.txt", "CHAPTER I. The Start\n\nIt was a bright cold day in April, and the clocks were striking thirteen.\n")
        let manifest = try ws.write("tale.yml", "title: Tale\nsources: [tale.txt]\nvoice: { name: en-us, wpm: 300 }\n")
        let job = try RenderedJob.run(ws, manifest)
        let folder = ws.url.appendingPathComponent("submission")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: job.mp3, to: folder.appendingPathComponent("01-lectern.mp3"))
        try Self.compliantMP3(folder.appendingPathComponent("02-acx.mp3"))

        let json = try Tool.run(Tool.lectern, ["check", "--acx", folder.path, "--json"])
        #expect(json.status == 1, "a failing rule is a non-zero exit")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let report = try #require(parsed, "\(json.stderr)")
        #expect(report["passed"] as? Bool == false)
        let files = report["files"] as? [[String: Any]] ?? []
        func results(_ i: Int) -> [String: [String: Any]] {
            Dictionary(uniqueKeysWithValues: (files[i]["results"] as? [[String: Any]] ?? []).map { ($0["rule"] as? String ?? "", $0) })
        }
        #expect(files.count == 2)
        guard files.count == 2 else { return }
        let lectern = results(0), acx = results(1)
        #expect(Set(lectern.keys) == ["sample-rate", "bitrate", "cbr", "duration", "rms", "peak", "noise-floor",
                                      "no-digital-silence", "head-room-tone", "tail-room-tone"])
        #expect(lectern["sample-rate"]?["passed"] as? Bool == false)
        #expect(lectern["sample-rate"]?["measured"] as? String == "22050 Hz")
        #expect(lectern["bitrate"]?["passed"] as? Bool == false)
        #expect(lectern["bitrate"]?["measured"] as? String == "64 kbit/s")
        #expect(lectern["cbr"]?["passed"] as? Bool == true, "Lectern writes CBR")
        #expect(lectern["duration"]?["passed"] as? Bool == true)
        #expect(files[0]["passed"] as? Bool == false)
        for (rule, result) in acx {
            #expect(result["passed"] as? Bool == true, "the ACX file fails \(rule): \(result)")
        }
        #expect(acx["rms"]?["value"] as? Double ?? 0 < -18 && acx["rms"]?["value"] as? Double ?? 0 > -23)
        #expect((report["folderResults"] as? [[String: Any]])?.first?["passed"] as? Bool == true, "both files are mono")

        let table = try Tool.run(Tool.lectern, ["check", "--acx", folder.path])
        #expect(table.status == 1)
        #expect(table.stdout.contains("01-lectern.mp3: FAIL"))
        #expect(table.stdout.contains("02-acx.mp3: pass"))
        #expect(table.stdout.contains("FAIL  sample-rate          22050 Hz"))
        #expect(table.stdout.contains("2 files, 1 failing"))

        // The compliant file alone passes: exit 0.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("01-lectern.mp3"))
        let alone = try Tool.run(Tool.lectern, ["check", "--acx", folder.path])
        #expect(alone.status == 0, "\(alone.stdout)\(alone.stderr)")
        #expect(alone.stdout.contains("every ACX rule passes"))
    }

    @Test func aFolderWithoutMP3AndAMisusedCommandLineAreClearErrors() throws {
        let ws = try Workspace("acx-empty")
        try ws.write("empty/readme.txt", "no audio here\n")
        let empty = try Tool.run(Tool.lectern, ["check", "--acx", ws.url.appendingPathComponent("empty").path])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("holds no .mp3 file to check"), "\(empty.stderr)")
        let missing = try Tool.run(Tool.lectern, ["check", "--acx", ws.url.appendingPathComponent("nowhere").path])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no such folder"))
        let both = try Tool.run(Tool.lectern, ["check", "book.txt", "--acx", ws.url.path])
        #expect(both.status == 64)
        let neither = try Tool.run(Tool.lectern, ["check"])
        #expect(neither.status == 64)
        #expect(neither.stderr.contains("--acx"))
    }

    /// The peak resident memory of `lectern check --acx folder`, in KB (GNU time's `%M`).
    static func peakMemory(_ ws: Workspace, _ folder: URL) throws -> Int {
        let timing = ws.url.appendingPathComponent("time-\(folder.lastPathComponent).txt")
        let run = try Tool.run("/usr/bin/time", ["-f", "%M", "-o", timing.path, Tool.lectern, "check", "--acx", folder.path])
        try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        return try #require(Int(try String(contentsOf: timing, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func memoryDoesNotGrowWithTheFile() throws {
        let ws = try Workspace("acx-memory")
        let short = ws.url.appendingPathComponent("short"), long = ws.url.appendingPathComponent("long")
        for folder in [short, long] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Self.compliantMP3(short.appendingPathComponent("clip.mp3"))
        // 141 copies of the 8.5 s clip's frames: 20 minutes, 29 MB, each copy with its room tone.
        let looped = try Tool.run("ffmpeg", ["-v", "error", "-y", "-stream_loop", "140", "-i", short.appendingPathComponent("clip.mp3").path,
                                             "-c", "copy", long.appendingPathComponent("book.mp3").path])
        try #require(looped.status == 0, "ffmpeg: \(looped.stderr)")
        let small = try Self.peakMemory(ws, short), large = try Self.peakMemory(ws, long)
        #expect(large - small < 8_000, "\(small) KB for 8.5 s, \(large) KB for 20 minutes")
    }

    /// `profile: acx` (issue #25, item 6): a folder of chapter MP3s — opening and closing credits
    /// as files of their own — that passes every ACX rule as `lectern check --acx` measures it,
    /// no book file beside it, and a playlist that lists them.
    @Test func theACXProfileDeliversAFolderThatPassesEveryRule() throws {
        let ws = try Workspace("acx-profile")
        try ws.write("tale.txt", """
            CHAPTER I. The Start

            It was a bright cold day in April, and the clocks were striking thirteen.

            CHAPTER II. The End

            By evening the rain had stopped, and the streets were quiet again.
            """)
        let manifest = try ws.write("tale.yml", """
            title: Tale
            author: A. Writer
            narrator: N. Reader
            profile: acx
            sources: [tale.txt]
            """)
        let job = try RenderedJob.run(ws, manifest)
        let out = ws.url.appendingPathComponent("out/tale")
        let folder = out.appendingPathComponent("tale-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == ["01 - Opening Credits.mp3", "02 - CHAPTER I. The Start.mp3", "03 - CHAPTER II. The End.mp3",
                          "04 - Closing Credits.mp3"], "\(files)")
        #expect(!FileManager.default.fileExists(atPath: job.mp3.path), "split: chapters-only writes no book file")
        let opening = (job.sidecar["chapters"] as? [[String: Any]])?.first?["paragraphs"] as? [[String: Any]]
        #expect(opening?.first?["text"] as? String == "Tale, written by A. Writer, narrated by N. Reader.", "\(opening ?? [])")
        let check = try Tool.run(Tool.lectern, ["check", "--acx", folder.path])
        #expect(check.status == 0 && check.stdout.contains("every ACX rule passes"), "\(check.stdout)\(check.stderr)")
        let listed = try String(contentsOf: out.appendingPathComponent("tale.m3u8"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(listed == files.map { "tale-chapters/\($0)" })
        let facts = try Tool.probe(folder.appendingPathComponent(files[1]), ["-show_streams", "-show_format"])
        let stream = (facts["streams"] as? [[String: Any]])?.first ?? [:]
        #expect(stream["sample_rate"] as? String == "44100" && stream["bit_rate"] as? String == "192000", "\(stream)")
        let tags = (facts["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        #expect(tags["album"] as? String == "Tale" && tags["track"] as? String == "2/4", "\(tags)")
    }
}
