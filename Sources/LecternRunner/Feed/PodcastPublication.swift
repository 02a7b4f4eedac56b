import Foundation
import LecternCore
import LecternSpeech
import LecternStore
import LecternExport

/// A rendered book as a podcast: its episodes (the book's audio file, or one per chapter file
/// with `split: chapters`), each with its chapters and its transcript, and the RSS feed that
/// lists them — for `lectern feed` (a static folder, ``PodcastFolder``) and for a server that
/// serves the same files under a secret URL.
///
/// It reads only what the job's latest successful run left: the store's record of that run, the
/// audio files, the JSON sidecar (`NAME.timings.json`) and the cover the manifest names.
public struct PodcastPublication: Sendable {
    /// One episode: an audio file of the book.
    public struct Episode: Sendable {
        /// A URL-safe slug, the same from run to run: the job's name for the book, `01-title`
        /// for a chapter file.
        public var id: String
        public var title: String
        /// `itunes:episode`, from 1.
        public var number: Int
        /// The audio file as the run wrote it.
        public var audioFile: URL
        public var mediaType: String
        public var durationMs: Int
        public var byteCount: Int
        /// The episode's chapters, in milliseconds of its own audio (a chapter file starts at 0).
        public var chapters: [PodcastChapters.Chapter]
        /// Whether the episode has a transcript (the job writes the JSON sidecar).
        public var hasTranscript: Bool
        /// The sidecar's chapters the episode holds, and where its audio starts in the book's.
        var chapterNumbers: Set<Int>
        var offsetMs: Int

        /// The audio file's extension: `mp3`, `m4b` or `opus`.
        public var fileExtension: String { audioFile.pathExtension }
    }

    public let manifest: Manifest
    /// The run whose outputs the feed publishes.
    public let run: RunRecord
    public var title: String
    public var author: String?
    /// The feed's language (BCP 47): the manifest's, else its voice's.
    public var language: String
    public var description: String
    public var episodes: [Episode]
    /// The cover the manifest names (a JPEG or PNG file), if any.
    public var cover: URL?
    /// Whether the cover is a PNG (its signature), else a JPEG: what `run` accepts as a cover.
    var coverIsPNG = false
    /// `podcast:guid`; nil: the UUIDv5 of the feed's URL, as Podcasting 2.0 derives it.
    public var guid: String?
    let timings: TimingDocument?

    /// A chapter's span of the book's audio, in milliseconds (from the sidecar, else the store).
    struct Span {
        var number: Int
        var title: String
        var start: Int
        var end: Int
    }

    /// Loads the job's manifest and its latest succeeded run from the store.
    ///
    /// - parameters:
    ///   - store: The job store the job was rendered with.
    ///   - manifestURL: The job's manifest (or document), as given to `lectern run`.
    /// - throws: ``RunError`` when the store has no successful run of the job or its outputs
    ///   changed since; ``ExportError`` when an audio file or the sidecar cannot be read;
    ///   `ManifestError` when the manifest does not load.
    public init(store: any JobStore, manifestURL: URL, loader: ManifestLoader = ManifestLoader()) async throws {
        let url = manifestURL.standardizedFileURL
        manifest = try loader.load(url)
        let shown = UserText.escapingControls(url.path)
        guard let job = try await store.jobs().first(where: { $0.manifestPath == url.path }) else {
            throw RunError("\(shown) has never been rendered with the store \(store.name): render it first (lectern run \(shown))")
        }
        guard let run = try await store.latestRun(jobId: job.id!, states: [.succeeded]) else {
            throw RunError("\(shown) has no successful run in the store \(store.name): render it first (lectern run \(shown))")
        }
        self.run = run
        if let stamp = run.outputStamp, !Self.unchanged(Self.readFiles(of: manifest), since: stamp) {
            throw RunError("the outputs of \(shown) are not as its last successful run (run \(run.id ?? 0)) left them: "
                           + "render it again (lectern run \(shown))")
        }
        let sidecar = manifest.timings.contains(.json) ? manifest.timingsURL : nil
        timings = try sidecar.map(Self.readTimings)
        let chapters: [Span]
        if let timings {
            chapters = timings.chapters.map { Span(number: $0.number, title: $0.title, start: $0.start, end: $0.end) }
        } else {
            chapters = try await store.chapters(runId: run.id!).sorted { $0.startSample < $1.startSample }.map {
                Span(number: $0.number, title: $0.title, start: $0.startMs, end: $0.startMs + $0.durationMs)
            }
        }
        title = [timings?.title, job.title, manifest.title].compactMap { $0 }.first { !$0.isEmpty } ?? manifest.name
        author = timings?.author ?? manifest.author
        language = manifest.language ?? Segmenter.languageCode(manifest.voice.name) ?? "en"
        description = manifest.details.description ?? ([title] + (author.map { ["by \($0)"] } ?? [])).joined(separator: " ")
        cover = manifest.cover
        coverIsPNG = manifest.cover.map(Self.isPNG) ?? false
        episodes = try Self.episodes(of: manifest, run: run, chapters: chapters, title: title, hasTranscript: timings != nil)
    }

    /// The RSS document; every URL in it is under `baseURL`: `feed.xml`, `audio/ID.EXT`,
    /// `chapters/ID.json`, `transcripts/ID.vtt` and `cover.EXT`.
    public func rss(baseURL: URL) -> String {
        let base = Self.trimmed(baseURL)
        let at = { (path: String) in URL(string: base + "/" + path)! }
        let feedURL = at("feed.xml")
        let channel = PodcastFeedXML.Channel(
            title: title, description: description, language: language, link: URL(string: base + "/")!, feedURL: feedURL,
            author: author, image: coverFileName.map(at), guid: guid ?? Self.podcastGUID(feedURL: feedURL),
            copyright: manifest.details.copyright)
        let published = run.endedAt ?? run.startedAt
        let items = episodes.map { e in
            PodcastFeedXML.Item(title: e.title, guid: "lectern:\(manifest.name):\(e.id)", published: published,
                                enclosure: at(audioPath(of: e)), length: e.byteCount, mediaType: e.mediaType, durationMs: e.durationMs,
                                episode: e.number, chapters: at("chapters/\(e.id).json"),
                                transcript: e.hasTranscript ? at("transcripts/\(e.id).vtt") : nil,
                                description: episodes.count > 1 ? "\(e.title) (\(e.number) of \(episodes.count)), from \(title)" : description)
        }
        return PodcastFeedXML(channel: channel, items: items).render()
    }

    /// The episode's Podcasting 2.0 chapters file.
    /// - throws: ``ExportError`` when there is no episode `id`.
    public func chaptersJSON(episode id: String) throws -> Data {
        let e = try episode(id)
        return PodcastChapters(title: e.title, podcastName: title, chapters: e.chapters).json()
    }

    /// The episode's WebVTT transcript, in the job's `vtt:` form, timed to the episode's audio.
    /// - throws: ``ExportError`` when there is no episode `id`, or the job writes no JSON sidecar.
    public func transcript(episode id: String) throws -> String {
        let e = try episode(id)
        guard let timings else {
            throw ExportError("\(manifest.name) has no word timings to make a transcript from: add json to its `timings:` and render it again")
        }
        return PodcastTranscript.webVTT(timings, chapters: e.chapterNumbers, offsetMs: e.offsetMs, cues: manifest.vtt)
    }

    /// The episode's audio under the base URL: `audio/ID.EXT`.
    public func audioPath(of episode: Episode) -> String { "audio/\(episode.id).\(episode.fileExtension)" }

    /// The cover under the base URL: `cover.png` or `cover.jpg`, by what the file is (nil: no cover).
    public var coverFileName: String? { cover.map { _ in coverIsPNG ? "cover.png" : "cover.jpg" } }

    /// The cover's media type.
    public var coverMediaType: String { coverIsPNG ? "image/png" : "image/jpeg" }

    /// Every file the feed is made from: the audio files, the sidecar and the cover.
    public var sourceFiles: [URL] {
        episodes.map(\.audioFile) + (timings == nil ? [] : [manifest.timingsURL]) + (cover.map { [$0] } ?? [])
    }

    public func episode(_ id: String) throws -> Episode {
        guard let e = episodes.first(where: { $0.id == id }) else {
            throw ExportError("the feed of \(manifest.name) has no episode \(UserText.escapingControls(id))")
        }
        return e
    }

    /// Podcasting 2.0's `podcast:guid`: the UUIDv5 of the feed's URL without its scheme and
    /// trailing slashes.
    static func podcastGUID(feedURL: URL) -> String {
        var address = feedURL.absoluteString
        if let scheme = address.range(of: "://") { address = String(address[scheme.upperBound...]) }
        while address.hasSuffix("/") { address.removeLast() }
        return NameBasedUUID.v5(namespace: NameBasedUUID.podcastNamespace, name: address)
    }

    static func trimmed(_ url: URL) -> String {
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The outputs a feed is made from: the book in each format, the chapters' folder and the
    /// sidecar (not the other exports a run may have added, such as `--readalong`'s page).
    static func readFiles(of manifest: Manifest) -> [URL] {
        manifest.bookAudioURLs + (manifest.split.writesChapters ? [manifest.chaptersFolderURL] : [])
            + (manifest.timings.contains(.json) ? [manifest.timingsURL] : [])
    }

    /// Whether each of `files` is as the run's output stamp recorded it (size and modification time).
    static func unchanged(_ files: [URL], since stamp: String) -> Bool {
        let recorded = Set(stamp.split(separator: "\n").map(String.init))
        return OutputFiles.stamp(files).split(separator: "\n").allSatisfy { recorded.contains(String($0)) }
    }

    /// Whether the file starts with PNG's signature.
    private static func isPNG(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    private static func readTimings(_ url: URL) throws -> TimingDocument {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ExportError("cannot read the word timings \(UserText.escapingControls(url.path)): \(FileError.reason(error))")
        }
        do { return try JSONDecoder().decode(TimingDocument.self, from: data) } catch {
            throw ExportError("the word timings \(UserText.escapingControls(url.path)) are not a Lectern sidecar: \(error)")
        }
    }
}
