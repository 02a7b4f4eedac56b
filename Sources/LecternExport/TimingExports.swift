import Foundation
import Logging
import LecternCore
import LecternAudio

/// Writes the timing exports other than the JSON sidecar (WebVTT, SRT, the read-along page, the
/// narrated EPUB) from the finished sidecar, each synced under a temporary name, to be renamed
/// into place with the MP3.
public enum TimingExports {
    /// What the narrated EPUB needs besides the sidecar.
    public struct Book {
        public var chapterAudio: [ChapterAudio]
        public var sampleRate: Int
        /// The book's BCP 47 language.
        public var language: String
        /// A folder for the chapter MP3s, removed after the run.
        public var workDirectory: URL
        /// The manifest's cover (checked), for the narrated EPUB.
        public var cover: ID3Tag.Picture?
        public var logger: Logger

        public init(chapterAudio: [ChapterAudio], sampleRate: Int, language: String, workDirectory: URL,
                    cover: ID3Tag.Picture?, logger: Logger) {
            self.chapterAudio = chapterAudio
            self.sampleRate = sampleRate
            self.language = language
            self.workDirectory = workDirectory
            self.cover = cover
            self.logger = logger
        }
    }

    /// - parameters:
    ///     - formats: The manifest's `timings`.
    ///     - sidecar: The finished (prepared, not yet committed) JSON sidecar.
    /// - returns: The prepared files, in `formats` order, for the caller to commit or discard.
    public static func prepare(_ formats: [TimingFormat], from sidecar: TimingSidecarWriter, manifest: Manifest, book: Book) throws -> [AtomicFile] {
        let others = formats.filter { $0 != .json }
        guard !others.isEmpty else { return [] }
        let document = try JSONDecoder().decode(TimingDocument.self, from: Data(contentsOf: sidecar.temporaryURL))
        var files: [AtomicFile] = []
        do {
            for format in others {
                let text: String
                switch format {
                case .json: continue
                case .epub:
                    let epub = NarratedEPUB(document: document, manifest: manifest, language: book.language, chapterAudio: book.chapterAudio,
                                            sampleRate: book.sampleRate, workDirectory: book.workDirectory,
                                            modified: inputsDate(manifest), cover: book.cover, logger: book.logger)
                    let file = try epub.write(to: manifest.url(for: .epub))
                    files.append(file)
                    try file.prepare()
                    continue
                case .vtt: text = WebVTTWriter.render(document, cues: manifest.vtt)
                case .srt: text = SRTWriter.render(document)
                case .html: text = ReadAlongPage.html(for: document, audio: manifest.listeningURL.lastPathComponent, language: book.language)
                }
                let file = try AtomicFile(manifest.url(for: format))
                files.append(file)
                try file.write(Data(text.utf8))
                try file.prepare()
            }
        } catch {
            files.forEach { $0.discard() }
            throw error
        }
        return files
    }

    /// The date a narrated EPUB states as `dcterms:modified` and on its entries: `SOURCE_DATE_EPOCH`
    /// when set (the reproducible-builds convention), else the newest modification time of the
    /// job's inputs (manifest, sources, lexicons, cover) — never the clock, so the same inputs
    /// give the same bytes.
    static func inputsDate(_ manifest: Manifest, environment: [String: String] = ProcessInfo.processInfo.environment) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init) { return Date(timeIntervalSince1970: epoch) }
        let inputs = [manifest.file] + manifest.sources.map(\.url) + manifest.lexicons + (manifest.cover.map { [$0] } ?? [])
        let dates = inputs.compactMap { url -> Date? in
            var info = stat()
            return stat(url.path, &info) == 0 ? Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)) : nil
        }
        return dates.max() ?? Date(timeIntervalSince1970: 0)
    }
}
