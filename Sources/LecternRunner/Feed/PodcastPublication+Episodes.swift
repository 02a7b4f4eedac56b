import Foundation
import LecternCore
import LecternStore
import LecternExport

extension PodcastPublication {
    /// The formats a feed prefers, best first: MP3 plays in every podcast app.
    static let preferredFormats: [AudioFormat] = [.mp3, .m4b, .opus]

    /// The enclosure's media type of a format.
    public static func mediaType(of format: AudioFormat) -> String {
        switch format {
        case .mp3: "audio/mpeg"
        case .m4b: "audio/mp4"
        case .opus: "audio/ogg"
        }
    }

    /// The book's episodes: one per chapter file when the job splits the book into chapters,
    /// else the book's file; in the format the feed prefers among those the job writes.
    static func episodes(of manifest: Manifest, run: RunRecord, chapters: [Span], title: String,
                         hasTranscript: Bool) throws -> [Episode] {
        guard let format = preferredFormats.first(where: manifest.formats.contains) else {
            throw ExportError("\(manifest.name) writes no audio format a feed can carry")
        }
        let splitFiles = manifest.split.writesChapters && manifest.profile != .acx
        guard splitFiles || manifest.split.writesBook else {
            // ACX's chapter files are cut at its 120-minute limit, so they are not the sidecar's chapters.
            throw ExportError("\(manifest.name) writes its book only as ACX's chapter files (profile: acx, split: chapters-only): "
                              + "a feed needs the book's file (split: chapters) or chapter files without profile: acx")
        }
        guard splitFiles else {
            let file = manifest.url(for: format)
            let duration = run.durationMs ?? chapters.last?.end ?? 0
            return [Episode(id: slug(manifest.name, fallback: "book"), title: title, number: 1, audioFile: file,
                            mediaType: mediaType(of: format), durationMs: duration, byteCount: try byteCount(file),
                            chapters: chapters.map { PodcastChapters.Chapter(title: $0.title, startMs: $0.start, endMs: $0.end) }, hasTranscript: hasTranscript,
                            chapterNumbers: Set(chapters.map(\.number)), offsetMs: 0)]
        }
        let names = ChapterFiles.fileNames(chapters.map(\.title))
        let digits = max(2, String(chapters.count).count)
        return try zip(chapters, names).enumerated().map { i, pair in
            let (chapter, name) = pair
            let file = manifest.chaptersFolderURL.appendingPathComponent("\(name).\(format.fileExtension)")
            let number = String(repeating: "0", count: max(0, digits - String(i + 1).count)) + String(i + 1)
            let duration = chapter.end - chapter.start
            let words = slug(chapter.title, fallback: "")
            return Episode(id: words.isEmpty ? number : "\(number)-\(words)", title: chapter.title, number: i + 1,
                           audioFile: file, mediaType: mediaType(of: format), durationMs: duration, byteCount: try byteCount(file),
                           chapters: [PodcastChapters.Chapter(title: chapter.title, startMs: 0, endMs: duration)],
                           hasTranscript: hasTranscript, chapterNumbers: [chapter.number], offsetMs: chapter.start)
        }
    }

    /// `text` as a URL-safe slug: ASCII letters (accents dropped) and digits, lower-case, runs of
    /// anything else as one `-`, at most 60 characters; `fallback` when nothing is left.
    static func slug(_ text: String, fallback: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
            }
        }
        out = String(out.prefix(60))
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? fallback : out.lowercased()
    }

    private static func byteCount(_ file: URL) throws -> Int {
        var info = stat()
        guard stat(file.path, &info) == 0 else {
            throw ExportError("the audio \(UserText.escapingControls(file.path)) is missing: render the job again")
        }
        return Int(info.st_size)
    }
}
