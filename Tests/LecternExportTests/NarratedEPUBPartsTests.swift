import Foundation
import Logging
import Testing
import LecternCore
import LecternAudio
@testable import LecternExport

/// The narrated EPUB generated for a book in parts (not from an EPUB source): its nav lists a
/// part's chapters in an `li` under the part's `span`, and epubcheck finds nothing wrong with
/// the whole book. (No reader makes parts yet, so the sidecar and the chapter audio are made
/// here: a second of tone per chapter.)
@Suite struct NarratedEPUBPartsTests {
    static let chapters: [(title: String, part: String?)] = [
        ("Prologue", nil), ("Arrival", "Book I & <Dawn>"), ("Night", "Book I & <Dawn>"), ("Return", "Book II"), ("Epilogue", nil),
    ]
    static let rate = 22050

    @Test func navNestsThePartsAndTheBookPassesEPUBCheck() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epub-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# Prologue\n\nHello there.\n".utf8).write(to: folder.appendingPathComponent("novel.md"))
        try Data("title: Novel\nsources:\n  - novel.md\ntimings: [json, epub]\n".utf8).write(to: folder.appendingPathComponent("novel.yml"))
        let manifest = try ManifestLoader().load(folder.appendingPathComponent("novel.yml"))

        let sidecar = folder.appendingPathComponent("novel.timings.json")
        let timer = UtteranceTimer(sampleRate: Self.rate)
        let writer = try TimingSidecarWriter(url: sidecar, title: "Novel", author: "A. Author", audio: "novel.mp3", sampleRate: Self.rate)
        var audio: [ChapterAudio] = []
        for (index, chapter) in Self.chapters.enumerated() {
            let start = index * Self.rate
            try writer.beginChapter(number: index + 1, title: chapter.title, start: timer.ms(start), part: chapter.part)
            try writer.append(timer.paragraph(kind: .paragraph, text: "Hello there.", voice: "en", marks: [(0, 0), (6, 6615)],
                                              speechStart: start + 2205, speechLength: 17640))
            try writer.endChapter(end: timer.ms(start + Self.rate))
            audio.append(try Self.tone(folder.appendingPathComponent("chapter-\(index).mp3"), startSample: start))
        }
        try writer.commit(sampleCount: Self.chapters.count * Self.rate, wordCount: 10, skipped: [])
        let document = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: sidecar))

        let epub = folder.appendingPathComponent("novel.epub")
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let file = try NarratedEPUB(document: document, manifest: manifest, language: "en", chapterAudio: audio, sampleRate: Self.rate,
                                    workDirectory: work, modified: Date(), cover: nil, logger: Logger(label: "test")).write(to: epub)
        try file.commit()

        let nav = try run("unzip", ["-p", epub.path, "EPUB/nav.xhtml"])
        try #require(nav.status == 0, "unzip: \(nav.output)")
        #expect(nav.output.contains("""
            <ol>
            <li><a href="text/chapter-001.xhtml">Prologue</a></li>
            <li><span>Book I &amp; &lt;Dawn&gt;</span>
            <ol>
            <li><a href="text/chapter-002.xhtml">Arrival</a></li>
            <li><a href="text/chapter-003.xhtml">Night</a></li>
            </ol></li>
            <li><span>Book II</span>
            <ol>
            <li><a href="text/chapter-004.xhtml">Return</a></li>
            </ol></li>
            <li><a href="text/chapter-005.xhtml">Epilogue</a></li>
            </ol>
            """), "nav: \(nav.output)")

        // epubcheck walks an overlay's references recursively: give Java a larger stack.
        let check = try run("java", ["-Xss512m", "-jar", "/usr/share/java/epubcheck.jar", epub.path])
        #expect(check.status == 0 && check.output.contains("No errors or warnings detected"), "epubcheck: \(check.output)")
    }

    /// A second of tone as a chapter's one chunk stream.
    static func tone(_ url: URL, startSample: Int) throws -> ChapterAudio {
        let writer = try MP3StreamWriter(url: url, sampleRate: rate, settings: AudioSettings())
        try writer.write((0..<rate).map { Int16((sin(2 * Double.pi * 440 * Double($0) / Double(rate)) * 8000).rounded()) })
        try writer.finish()
        let (frames, bytes, tagBytes) = try MP3Frames.count(in: url)
        let padding = (frames - 1) * writer.samplesPerFrame - writer.encoderDelay - rate
        return ChapterAudio(parts: [MP3BookAssembler.Part(url: url, audioFrames: frames - 1, bytes: bytes, tagBytes: tagBytes)],
                                         startSample: startSample, endPadding: padding, sampleCount: rate)
    }

    /// Runs a program from PATH and returns its exit status and its stdout and stderr together.
    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
