import Foundation
import Testing
import LecternTesting
import LecternTestSupport

/// `formats: [mp3, m4b, opus]` (issue #25, items 1–3 and 5): one render, three books, each read
/// back by tools nobody here wrote — the same chapters and times as the sidecar, every metadata
/// field in each format's own place, the same bytes for any worker count, an edit re-rendering
/// only its own chunks, and a chapter file and playlist per format with `split: chapters`.
struct AudioFormatsTests {
    static let text = """
        CHAPTER 1. The Harbour

        The boats came in at dawn, low in the water and loud with gulls.

        Nobody on the quay said a word until the last rope was tied.

        CHAPTER 2. The Market

        By noon the fish were sold, the stalls were washed, and the square was quiet again.

        Only the cats stayed, patient as judges, under the empty tables.
        """

    static let manifest = """
        title: Harbour Days
        author: A. Writer
        narrator: N. Reader
        description: Two short chapters about a harbour.
        genre: Fiction
        date: 2024-05-17
        publisher: Quay Press
        copyright: © 2024 A. Writer
        series: Coastal Tales
        series_index: 2
        isbn: 9780306406157
        language: en-GB
        formats: [mp3, m4b, opus]
        split: chapters
        sources:
          - path: book.txt
        """

    /// Decodes any file to 16-bit mono at `rate` with ffmpeg.
    static func decode(_ file: URL, rate: Int) throws -> [Int16] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("formats-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let result = try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", file.path, "-f", "s16le", "-acodec", "pcm_s16le", "-ac", "1",
                                             "-ar", "\(rate)", raw.path])
        guard result.status == 0 else { throw TestFailure("ffmpeg could not decode \(file.path): \(result.stderr)") }
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Every metadata field as ffprobe names it, in every format (each writer puts it where its
    /// format's readers look; ffprobe maps them back to these names).
    static let expectedTags: [String: String] = [
        "title": "Harbour Days", "album": "Harbour Days", "artist": "A. Writer", "composer": "N. Reader",
        "genre": "Fiction", "copyright": "© 2024 A. Writer",
    ]

    /// A file's tags as ffprobe reads them, by lowercased key: the format's and (Ogg puts its
    /// comments there) the first stream's.
    static func tags(_ file: URL) throws -> [String: String] {
        let probe = try Tool.probe(file, ["-show_format", "-show_streams"])
        let format = (probe["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        let stream = ((probe["streams"] as? [[String: Any]])?.first?["tags"] as? [String: Any]) ?? [:]
        return stream.merging(format) { $1 }.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value as? String }
    }

    @Test func oneRenderMakesThreeBooksWithTheSameChaptersTimesAndTags() throws {
        let ws = try Workspace("formats")
        try ws.write("book.txt", Self.text)
        let manifest = try ws.write("book.yml", Self.manifest)
        let rendered = try RenderedJob.run(ws, manifest, arguments: ["--workers", "2"])
        let out = ws.url.appendingPathComponent("out/book")
        let sidecar = try Sidecar.load(out.appendingPathComponent("book.timings.json"))
        let rate = sidecar.sampleRate
        let picks = sidecar.chapters.enumerated().flatMap { c, chapter in (1..<chapter.paragraphs.count).map { (chapter: c, paragraph: $0) } }
        for format in ["mp3", "m4b", "opus"] {
            let file = out.appendingPathComponent("book.\(format)")
            // Chapters: every title, and times within a millisecond of the sidecar's.
            let chapters = try Tool.probe(file, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
            #expect(chapters.compactMap { ($0["tags"] as? [String: Any])?["title"] as? String } == sidecar.chapters.map(\.title), "\(format)")
            for (mark, chapter) in zip(chapters, sidecar.chapters) {
                let start = Double(mark["start_time"] as? String ?? "") ?? -1
                #expect(abs(start * 1000 - Double(chapter.start)) <= 1, "\(format): chapter \(chapter.number) starts at \(start) s, sidecar \(chapter.start) ms")
            }
            // Timing truth: the decoded book is the sidecar's length, its paragraphs start where it says.
            let pcm = try Self.decode(file, rate: rate)
            #expect(abs(pcm.count - sidecar.sampleCount) <= (format == "m4b" ? 1024 : 576), "\(format): \(pcm.count) samples, sidecar \(sidecar.sampleCount)")
            #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: picks) == picks.count, "\(format)")
            // Metadata.
            let tags = try Self.tags(file)
            for (key, value) in Self.expectedTags { #expect(tags[key] == value, "\(format): \(key) is \(tags[key] ?? "missing")") }
            #expect(tags["date"]?.hasPrefix("2024") == true, "\(format): date \(tags["date"] ?? "missing")")
            #expect(tags.values.contains("Quay Press") && tags.values.contains("Coastal Tales") && tags.values.contains("9780306406157"),
                    "\(format): publisher, series and ISBN: \(tags)")
        }
        // What AtomicParsley and opusinfo, the formats' own tools, say.
        let atoms = try Tool.run("AtomicParsley", [out.appendingPathComponent("book.m4b").path, "-t"])
        #expect(atoms.stdout.contains("Audiobook") && atoms.stdout.contains("©wrt") && atoms.stdout.contains("desc"), "\(atoms.stdout)")
        let opus = try Tool.run("opusinfo", [out.appendingPathComponent("book.opus").path])
        #expect(opus.status == 0 && !opus.stdout.lowercased().contains("warning"), "\(opus.stdout)\(opus.stderr)")
        #expect(rendered.mp3.lastPathComponent == "book.mp3")

        // A chapter file per chapter and format, and a playlist per format.
        let folder = out.appendingPathComponent("book-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files.count == 6, "\(files)")
        for (format, playlist) in [("mp3", "book.m3u8"), ("m4b", "book.m4b.m3u8"), ("opus", "book.opus.m3u8")] {
            let listed = try String(contentsOf: out.appendingPathComponent(playlist), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            #expect(listed == files.filter { $0.hasSuffix(".\(format)") }.map { "book-chapters/\($0)" }, "\(playlist): \(listed)")
            for (i, name) in files.filter({ $0.hasSuffix(".\(format)") }).enumerated() {
                let tags = try Self.tags(folder.appendingPathComponent(name))
                #expect(tags["title"] == sidecar.chapters[i].title && tags["album"] == "Harbour Days", "\(name): \(tags)")
                #expect(tags["track"]?.hasPrefix("\(i + 1)") == true, "\(name): track \(tags["track"] ?? "missing")")
            }
        }
    }

    @Test func theSameBytesForAnyWorkerCountAndAnEditReRendersOnlyItsChunks() throws {
        var books: [[String: Data]] = []
        for workers in ["1", "2"] {
            let ws = try Workspace("formats-det")
            try ws.write("book.txt", Self.text)
            let manifest = try ws.write("book.yml", Self.manifest.replacingOccurrences(of: "split: chapters\n", with: ""))
            _ = try RenderedJob.run(ws, manifest, arguments: ["--workers", workers])
            let out = ws.url.appendingPathComponent("out/book")
            books.append(try ["m4b", "opus"].reduce(into: [:]) { $0[$1] = try Data(contentsOf: out.appendingPathComponent("book.\($1)")) })
            guard workers == "2" else { continue }
            // An edited paragraph: only its chunk is rendered again, and the M4B and Opus follow.
            try ws.write("book.txt", Self.text.replacingOccurrences(of: "patient as judges", with: "patient as owls"))
            let (run, rendered) = try IncrementalTests.render(ws, manifest)
            #expect(rendered == [2] && run.chunksRendered < run.chunkCount ?? 0, "rendered chunks of chapters \(rendered)")
            let sidecar = try Sidecar.load(out.appendingPathComponent("book.timings.json"))
            for format in ["m4b", "opus"] {
                let file = out.appendingPathComponent("book.\(format)")
                #expect(try Data(contentsOf: file) != books[1][format], "\(format) changed with its text")
                let pcm = try Self.decode(file, rate: sidecar.sampleRate)
                #expect(BookChecks.expectOnsetsMatch(pcm, sidecar, picks: [(1, 1)]) == 1, "\(format) after the edit")
            }
        }
        #expect(books[0]["m4b"] == books[1]["m4b"], "M4B bytes differ between 1 and 2 workers")
        #expect(books[0]["opus"] == books[1]["opus"], "Opus bytes differ between 1 and 2 workers")
    }
}
