import Foundation
import Testing
import LecternRunner
import LecternTesting

/// `formats: [mp3, m4b, opus]` (issue #25, items 1–3): one render, three books, each read back by
/// tools nobody here wrote — the same chapters and times as the sidecar, every metadata field in
/// each format's own place, and a chapter file and playlist per format with `split: chapters`.
struct AudioFormatsTests {
    @Test func oneRenderMakesThreeBooksWithTheSameChaptersTimesAndTags() async throws {
        let job = try JobFolder("formats")
        try job.write("book.txt", FormatsBook.text)
        let manifest = try job.write("book.yml", FormatsBook.manifest)
        let rendered = try await job.run(manifest)
        let out = job.file("out/book")
        let sidecar = try Sidecar.load(out.appendingPathComponent("book.timings.json"))
        let rate = sidecar.sampleRate
        let picks = sidecar.chapters.enumerated().flatMap { c, chapter in (1..<chapter.paragraphs.count).map { (chapter: c, paragraph: $0) } }
        for format in ["mp3", "m4b", "opus"] {
            let file = out.appendingPathComponent("book.\(format)")
            // Chapters: every title, and times within a millisecond of the sidecar's.
            let chapters = try CheckTool.probe(file, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
            #expect(chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String } == sidecar.chapters.map(\.title), "\(format)")
            for (mark, chapter) in zip(chapters, sidecar.chapters) {
                let start = Double(mark["start_time"] as? String ?? "") ?? -1
                #expect(abs(start * 1000 - Double(chapter.start)) <= 1, "\(format): chapter \(chapter.number) starts at \(start) s, sidecar \(chapter.start) ms")
            }
            // Timing truth: the decoded book is the sidecar's length, its paragraphs start where it says.
            let pcm = try FormatsBook.decode(file, rate: rate)
            #expect(abs(pcm.count - sidecar.sampleCount) <= (format == "m4b" ? 1024 : 576), "\(format): \(pcm.count) samples, sidecar \(sidecar.sampleCount)")
            #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) == picks.count, "\(format)")
            // Metadata.
            let tags = try FormatsBook.tags(file)
            for (key, value) in FormatsBook.expectedTags { #expect(tags[key] == value, "\(format): \(key) is \(tags[key] ?? "missing")") }
            #expect(tags["date"]?.hasPrefix("2024") == true, "\(format): date \(tags["date"] ?? "missing")")
            #expect(tags.values.contains("Quay Press") && tags.values.contains("Coastal Tales") && tags.values.contains("9780306406157"),
                    "\(format): publisher, series and ISBN: \(tags)")
        }
        // What AtomicParsley and opusinfo, the formats' own tools, say.
        let atoms = try CheckTool.run("AtomicParsley", [out.appendingPathComponent("book.m4b").path, "-t"])
        #expect(atoms.stdout.contains("Audiobook") && atoms.stdout.contains("©wrt") && atoms.stdout.contains("desc"), "\(atoms.stdout)")
        let opus = try CheckTool.run("opusinfo", [out.appendingPathComponent("book.opus").path])
        #expect(opus.status == 0 && !opus.stdout.lowercased().contains("warning"), "\(opus.stdout)\(opus.stderr)")
        #expect(rendered.outputs.map(\.lastPathComponent).contains("book.mp3"))

        // A chapter file per chapter and format, and a playlist per format.
        let folder = out.appendingPathComponent("book-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files.count == 6, "\(files)")
        for (format, playlist) in [("mp3", "book.m3u8"), ("m4b", "book.m4b.m3u8"), ("opus", "book.opus.m3u8")] {
            let listed = try String(contentsOf: out.appendingPathComponent(playlist), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            #expect(listed == files.filter { $0.hasSuffix(".\(format)") }.map { "book-chapters/\($0)" }, "\(playlist): \(listed)")
            for (i, name) in files.filter({ $0.hasSuffix(".\(format)") }).enumerated() {
                let tags = try FormatsBook.tags(folder.appendingPathComponent(name))
                #expect(tags["title"] == sidecar.chapters[i].title && tags["album"] == "Harbour Days", "\(name): \(tags)")
                #expect(tags["track"]?.hasPrefix("\(i + 1)") == true, "\(name): track \(tags["track"] ?? "missing")")
            }
        }
    }
}
