import Foundation
import LecternExport

extension PodcastPublication {
    /// What a feed's path under its base URL names: a file to send as it is (the audio, the
    /// cover) or a document made on request (the feed, chapters, a transcript).
    public enum Resource: Sendable, Equatable {
        case file(URL, contentType: String)
        case document(Data, contentType: String)
    }

    /// Every path the feed names under its base URL, `feed.xml` last.
    public var paths: [String] {
        episodes.flatMap { e in
            [audioPath(of: e), "chapters/\(e.id).json"] + (e.hasTranscript ? ["transcripts/\(e.id).vtt"] : [])
        } + (coverFileName.map { [$0] } ?? []) + ["feed.xml"]
    }

    /// The resource at `path` under the base URL (`feed.xml`, `audio/ID.EXT`, `chapters/ID.json`,
    /// `transcripts/ID.vtt`, `cover.EXT`), or nil when the feed has none there — what a server
    /// answers for `BASE/PATH`.
    /// - throws: ``ExportError`` when the feed names the path but cannot make it.
    public func resource(at path: String, baseURL: URL) throws -> Resource? {
        if path == "feed.xml" { return .document(Data(rss(baseURL: baseURL).utf8), contentType: "application/rss+xml; charset=utf-8") }
        if let cover, path == coverFileName {
            return .file(cover, contentType: coverMediaType)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let (folder, name) = (String(parts[0]), String(parts[1]))
        switch folder {
        case "audio":
            return episodes.first { audioPath(of: $0) == path }.map { .file($0.audioFile, contentType: $0.mediaType) }
        case "chapters":
            guard name.hasSuffix(".json"), let e = episodes.first(where: { $0.id == name.dropLast(5) }) else { return nil }
            return .document(try chaptersJSON(episode: e.id), contentType: "application/json+chapters")
        case "transcripts":
            guard name.hasSuffix(".vtt"), let e = episodes.first(where: { $0.id == name.dropLast(4) }), e.hasTranscript else { return nil }
            return .document(Data(try transcript(episode: e.id).utf8), contentType: "text/vtt; charset=utf-8")
        default:
            return nil
        }
    }
}
