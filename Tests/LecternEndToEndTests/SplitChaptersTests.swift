import Foundation
import Testing
import LecternTestSupport

/// `split: chapters` (issue #25, item 5, for MP3): a file per chapter beside the book, each the
/// chapter's own audio as ffmpeg decodes it and tagged as a track of the book, a playlist that
/// lists them with their lengths, no stale file after a chapter is removed, and a folder that
/// holds an input refused before anything is rendered.
struct SplitChaptersTests {
    static func book(chapters: [String]) -> String {
        chapters.enumerated().map { i, title in
            "CHAPTER \(i + 1). \(title)\n\nThe \(title.lowercased()) begins here, and it goes on for a sentence or two more."
        }.joined(separator: "\n\n")
    }

    static let manifest = """
        title: Split Book
        author: A. Writer
        narrator: N. Reader
        split: chapters
        sources:
          - path: book.txt
        """

    @Test func eachChapterIsATaggedFileOfItsOwnListedInThePlaylist() throws {
        let ws = try Workspace("split")
        try ws.write("book.txt", Self.book(chapters: ["The Start", "Where/What?", "The End"]))
        let manifest = try ws.write("book.yml", Self.manifest)
        let rendered = try RenderedJob.run(ws, manifest)
        let folder = ws.url.appendingPathComponent("out/book/book-chapters")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == ["01 - CHAPTER 1. The Start.mp3", "02 - CHAPTER 2. Where What.mp3", "03 - CHAPTER 3. The End.mp3"])

        let sidecarChapters = rendered.sidecar["chapters"] as? [[String: Any]] ?? []
        let sampleRate = rendered.sidecar["sampleRate"] as? Int ?? 22050
        var total = 0
        for (i, name) in files.enumerated() {
            let file = folder.appendingPathComponent(name)
            let tags = (try Tool.probe(file, ["-show_format"])["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
            #expect(tags["title"] as? String == sidecarChapters[i]["title"] as? String)
            #expect(tags["album"] as? String == "Split Book")
            #expect(tags["artist"] as? String == "A. Writer")
            #expect(tags["composer"] as? String == "N. Reader")
            #expect(tags["track"] as? String == "\(i + 1)/3")
            #expect((try Tool.probe(file, ["-show_chapters"])["chapters"] as? [[String: Any]])?.isEmpty == true, "a chapter file has no chapter marks")
            // The file is the chapter's span of the book but for its first chunk's encoder delay and
            // its last chunk's padding, which its own LAME tag drops: less than two MP3 frames.
            let samples = try Tool.decodedSampleCount(file)
            let span = ((sidecarChapters[i]["end"] as? Int ?? 0) - (sidecarChapters[i]["start"] as? Int ?? 0)) * sampleRate / 1000
            #expect(samples <= span + sampleRate / 500 && span - samples < 2 * 576, "\(name): \(samples) samples, the sidecar's span \(span)")
            total += samples
            let check = try Tool.run("mp3val", [file.path])
            #expect(!check.stdout.contains("WARNING") && !check.stdout.contains("PROBLEM"), "\(check.stdout)")
        }
        let book = try Tool.decodedSampleCount(rendered.mp3)
        #expect(total <= book && book - total < files.count * 2 * 576, "the chapters add up to the book: \(total) of \(book) samples")

        let playlist = try String(contentsOf: ws.url.appendingPathComponent("out/book/book.m3u8"), encoding: .utf8)
        let lines = playlist.split(separator: "\n").map(String.init)
        #expect(lines.first == "#EXTM3U")
        #expect(lines.filter { !$0.hasPrefix("#") } == files.map { "book-chapters/\($0)" })
        #expect(lines.filter { $0.hasPrefix("#EXTINF:") }.map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) }
                == sidecarChapters.map { $0["title"] as? String })

        // A chapter removed: the folder holds the chapters there are now, nothing else.
        try ws.write("book.txt", Self.book(chapters: ["The Start", "The End"]))
        _ = try RenderedJob.run(ws, manifest)
        let after = try FileManager.default.contentsOfDirectory(atPath: ws.url.appendingPathComponent("out/book").path).sorted()
        #expect(after.filter { $0.hasPrefix(".") }.isEmpty, "a temporary or old folder was left: \(after)")
        #expect(Set(after).isSuperset(of: ["book-chapters", "book.m3u8", "book.mp3", "book.timings.json"]), "\(after)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted() == ["01 - CHAPTER 1. The Start.mp3", "02 - CHAPTER 2. The End.mp3"])
    }

    @Test func aChaptersFolderHoldingAnInputIsRefusedBeforeRendering() throws {
        let ws = try Workspace("split-input")
        try ws.write("out/book/book-chapters/book.txt", Self.book(chapters: ["One", "Two"]))
        let manifest = try ws.write("book.yml", Self.manifest.replacingOccurrences(of: "path: book.txt", with: "path: out/book/book-chapters/book.txt"))
        for result in [try Tool.run(Tool.lectern, ["check", manifest.path]), try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)] {
            #expect(result.status != 0)
            #expect(result.stderr.contains("the chapters' folder") && result.stderr.contains("book-chapters/book.txt"), "\(result.stderr)")
        }
        #expect(ws.exists("out/book/book-chapters/book.txt"))
        #expect(!ws.exists("out/book/book.mp3"))
    }

    /// `check` and `run` on `manifest` both refuse, naming `named`, before any audio is made.
    static func expectRefused(_ ws: Workspace, _ manifest: URL, naming named: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for result in [try Tool.run(Tool.lectern, ["check", manifest.path]), try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)] {
            #expect(result.status != 0, sourceLocation: sourceLocation)
            #expect(result.stderr.contains("the chapters' folder") && result.stderr.contains(named) && result.stderr.contains("did not"),
                    "\(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Issue #38, item 1: a run deletes only what it wrote. A file of the user's in the chapters'
    /// folder — before the first run, or put there after one — is refused by `check` and `run`,
    /// naming it, and stays; so are a file or a link where the folder goes. A folder an earlier
    /// Lectern wrote (chapter files only, no list) is replaced as before.
    @Test func aChaptersFolderHoldingAFileLecternDidNotWriteIsRefusedAndKept() throws {
        let ws = try Workspace("split-owned")
        try ws.write("book.txt", Self.book(chapters: ["One", "Two"]))
        let manifest = try ws.write("book.yml", Self.manifest)
        try ws.write("out/book/book-chapters/notes.txt", "my own notes")
        try Self.expectRefused(ws, manifest, naming: "notes.txt")
        #expect(try String(contentsOf: ws.url.appendingPathComponent("out/book/book-chapters/notes.txt"), encoding: .utf8) == "my own notes")
        #expect(!ws.exists("out/book/book.mp3"), "refused before anything was rendered")

        // Without the user's file, the folder is written and lists its files.
        try FileManager.default.removeItem(at: ws.url.appendingPathComponent("out/book/book-chapters"))
        _ = try RenderedJob.run(ws, manifest)
        let folder = ws.url.appendingPathComponent("out/book/book-chapters")
        let list = try String(contentsOf: folder.appendingPathComponent(".lectern-files"), encoding: .utf8)
        #expect(list.split(separator: "\n").map(String.init) == ["01 - CHAPTER 1. One.mp3", "02 - CHAPTER 2. Two.mp3"])

        // A file put there after the run, a subfolder, a file with a chapter file's name: each refused.
        for (path, isFolder) in [("cover art.jpg", false), ("extras", true), ("03 - CHAPTER 3. Mine.mp3", false)] {
            let url = folder.appendingPathComponent(path)
            if isFolder { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } else { try Data("mine".utf8).write(to: url) }
            try Self.expectRefused(ws, manifest, naming: path)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(path) was removed")
            try FileManager.default.removeItem(at: url)
        }

        // A folder an earlier Lectern wrote: chapter files only, no list — replaced.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(".lectern-files"))
        try Data("old".utf8).write(to: folder.appendingPathComponent("07 - CHAPTER 7. Gone.mp3"))
        _ = try RenderedJob.run(ws, manifest)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
                == ["01 - CHAPTER 1. One.mp3", "02 - CHAPTER 2. Two.mp3"])

        // A file, or a link to a folder of the user's, where the chapters' folder goes.
        try FileManager.default.removeItem(at: folder)
        try ws.write("out/book/book-chapters", "a file of the user's")
        try Self.expectRefused(ws, manifest, naming: "a file that Lectern did not make")
        #expect(try String(contentsOf: folder, encoding: .utf8) == "a file of the user's")
        try FileManager.default.removeItem(at: folder)
        try ws.write("mine/keep.txt", "kept")
        try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: ws.url.appendingPathComponent("mine").path)
        try Self.expectRefused(ws, manifest, naming: "a link that Lectern did not make")
        #expect(ws.exists("mine/keep.txt") && (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path)) != nil)
    }
}
