import Foundation
import Testing
import LecternCore
import LecternExport
import LecternStore
@testable import LecternRunner

/// What a server answers under a feed's base URL (``PodcastPublication/resource(at:baseURL:)``),
/// for a job recorded in a real SQLite store with its outputs on disk: every path the feed names
/// and nothing else; a job never rendered, or whose outputs changed since, refused.
struct PodcastPublicationTests {
    /// A job in a fresh folder: its manifest, a source, and (once `record` runs) the outputs of a
    /// succeeded run — an MP3's bytes and a sidecar of two chapters written by the real writer.
    struct RecordedJob {
        let folder: URL
        let manifestURL: URL
        let manifest: Manifest
        let store: SQLiteJobStore

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-publication-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("Some text.\n".utf8).write(to: folder.appendingPathComponent("book.txt"))
            manifestURL = folder.appendingPathComponent("book.yml")
            try Data("title: A & B\nsources: [book.txt]\n".utf8).write(to: manifestURL)
            manifest = try ManifestLoader().load(manifestURL)
            store = try SQLiteJobStore(url: folder.appendingPathComponent("lectern.sqlite"))
        }

        func record() async throws {
            try FileManager.default.createDirectory(at: manifest.outputDirectory, withIntermediateDirectories: true)
            try Data(repeating: 0xFF, count: 1000).write(to: manifest.mp3URL)
            let timer = UtteranceTimer(sampleRate: 1000)
            let writer = try TimingSidecarWriter(url: manifest.timingsURL, title: "A & B", author: nil, audio: "book.mp3", sampleRate: 1000)
            for (i, title) in ["One", "Two"].enumerated() {
                try writer.beginChapter(number: i + 1, title: title, start: i * 1000, part: nil)
                try writer.append(timer.paragraph(kind: .paragraph, text: "Hello there.", voice: "en", marks: [(0, 0), (6, 300)],
                                                  speechStart: i * 1000 + 100, speechLength: 800))
                try writer.endChapter(end: i * 1000 + 1000)
            }
            try writer.commit(sampleCount: 2000, wordCount: 4, skipped: [])
            let job = try await store.job(manifestPath: manifestURL.path, name: manifest.name, title: manifest.title)
            var run = try await store.startRun(job: job)
            run.state = .succeeded
            run.endedAt = Date()
            run.durationMs = 2000
            run.outputStamp = OutputFiles.stamp(manifest.outputURLs)
            try await store.finish(run, chapters: [])
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func everyPathTheFeedNamesIsAnsweredAndNoOther() async throws {
        let job = try RecordedJob()
        defer { job.remove() }
        try await job.record()
        let publication = try await PodcastPublication(store: job.store, manifestURL: job.manifestURL)
        let base = URL(string: "http://127.0.0.1:8080/feeds/abc")!
        #expect(publication.paths == ["audio/book.mp3", "chapters/book.json", "transcripts/book.vtt", "feed.xml"])
        #expect(publication.episodes.map(\.byteCount) == [1000])
        #expect(publication.episodes.first?.chapters == [.init(title: "One", startMs: 0, endMs: 1000), .init(title: "Two", startMs: 1000, endMs: 2000)])
        #expect(try publication.resource(at: "audio/book.mp3", baseURL: base) == .file(job.manifest.mp3URL, contentType: "audio/mpeg"))
        #expect(try publication.resource(at: "chapters/book.json", baseURL: base)
                == .document(try publication.chaptersJSON(episode: "book"), contentType: "application/json+chapters"))
        guard case .document(let vtt, "text/vtt; charset=utf-8")? = try publication.resource(at: "transcripts/book.vtt", baseURL: base) else {
            Issue.record("no transcript")
            return
        }
        #expect(String(decoding: vtt, as: UTF8.self).hasPrefix("WEBVTT\n"))
        guard case .document(let xml, _)? = try publication.resource(at: "feed.xml", baseURL: base) else {
            Issue.record("no feed")
            return
        }
        #expect(String(decoding: xml, as: UTF8.self).contains("<enclosure url=\"http://127.0.0.1:8080/feeds/abc/audio/book.mp3\" length=\"1000\""))
        for path in ["", "/", "feed", "audio/book.opus", "audio/../feed.xml", "../book.mp3", "chapters/book.vtt", "transcripts/book.json",
                     "chapters/other.json", "cover.png", "audio/book.mp3/x", "book.yml"] {
            #expect(try publication.resource(at: path, baseURL: base) == nil, "\(path)")
        }
    }

    @Test func aJobNeverRenderedOrWhoseOutputsChangedIsRefused() async throws {
        let job = try RecordedJob()
        defer { job.remove() }
        let never = await #expect(throws: RunError.self) { try await PodcastPublication(store: job.store, manifestURL: job.manifestURL) }
        #expect(never?.message.contains("has never been rendered") == true, "\(String(describing: never))")
        try await job.record()
        try Data(repeating: 0, count: 10).write(to: job.manifest.mp3URL)
        let changed = await #expect(throws: RunError.self) { try await PodcastPublication(store: job.store, manifestURL: job.manifestURL) }
        #expect(changed?.message.contains("render it again") == true, "\(String(describing: changed))")
    }
}
