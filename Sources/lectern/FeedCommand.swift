import ArgumentParser
import Foundation
import LecternCore
import LecternRunner

/// `lectern feed MANIFEST --base-url URL --out DIR`: the job's last successful render as a
/// podcast feed in a static folder (``PodcastFolder``): RSS 2.0 with the iTunes and Podcasting
/// 2.0 namespaces, an episode for the book (or one per chapter file with `split: chapters`),
/// each with its chapters (JSON) and transcript (WebVTT), every URL under the base URL.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Write a rendered job's podcast feed (RSS, audio, chapters, transcripts) into a folder.",
        discussion: """
            Example: lectern feed Jobs/alice.yml --base-url https://h.example/a --out feed
            (writes feed/feed.xml, audio/, chapters/, transcripts/ and cover.*, to be served at the base URL)
            """
    )

    @Argument(help: "The job's manifest (or document), as rendered by `lectern run`.")
    var manifest: String

    @Option(help: ArgumentHelp("Where the folder will be served: every URL in the feed is under it.", valueName: "url"))
    var baseURL: String

    @Option(help: ArgumentHelp("The folder to write the feed into (created; it may hold none of the job's files).", valueName: "dir"))
    var out: String

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw ValidationError("--base-url must be an http or https URL with a host and no query, such as https://example.org/feeds/book "
                                  + "(not '\(UserText.escapingControls(baseURL))')")
        }
        if out.isEmpty { throw ValidationError("--out names no folder") }
    }

    func run() async throws {
        await reportingErrors {
            try ArgumentCheck.requireFiles([manifest], what: "manifest or document")
            let manifestURL = URL(fileURLWithPath: manifest).standardizedFileURL
            let opened = try await store.open(near: manifestURL.deletingLastPathComponent())
            let publication = try await PodcastPublication(store: opened.store, manifestURL: manifestURL)
            let folder = URL(fileURLWithPath: out).standardizedFileURL
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
                throw ValidationError("--out \(UserText.escapingControls(out)) is a file, not a folder")
            }
            try PodcastFolder.write(publication, baseURL: URL(string: baseURL)!, to: folder)
            let episodes = publication.episodes.count
            print("wrote \(folder.appendingPathComponent("feed.xml").path) (\(episodes) episode\(episodes == 1 ? "" : "s"))")
        }
    }
}
