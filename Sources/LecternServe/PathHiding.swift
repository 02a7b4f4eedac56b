import Foundation
import LecternCore

/// Takes the server's folders out of a message before it leaves the service, in an error's
/// answer, a run's error (the API, the runs list, the event stream) or a warning: a file of a
/// job by its name in the job (`jobs/ID/input/alice.yml` → `alice.yml`), the Config folder as
/// `Config`, every other place in the data folder as `…`, and the places searched for a Config
/// folder by their last name.
struct PathHiding: Sendable {
    /// The job folders' parents (`jobs/`, `staging/`), each as written and resolved.
    private let jobParents: [String]
    /// Other folders and what they become, longest first.
    private let replacements: [(folder: String, name: String)]

    /// - parameters:
    ///     - folders: The data folder.
    ///     - configDirectory: The Config folder the service was given, if any; else the one a
    ///       job's manifest finds (and every place looked at for it).
    init(folders: ServiceFolders, configDirectory: URL?) {
        func spellings(_ url: URL) -> [String] {
            Array(Set([url.standardizedFileURL.path, url.resolvingSymlinksInPath().path])).filter { $0.count > 1 }
        }
        jobParents = [folders.jobs, folders.staging].flatMap(spellings)
        var pairs: [(String, String)] = []
        let location = configDirectory.map { ConfigLocation(folder: $0, searched: []) }
            ?? (try? ConfigLocation.find(near: folders.jobs.appendingPathComponent("job/input")))
        for searched in location?.searched ?? [] where searched.hasPrefix("/") {
            pairs += spellings(URL(fileURLWithPath: searched)).map { ($0, URL(fileURLWithPath: searched).lastPathComponent) }
        }
        if let config = location?.folder { pairs += spellings(config).map { ($0, "Config") } }
        pairs += spellings(folders.root).map { ($0, "…") }
        replacements = pairs.sorted { $0.0.count > $1.0.count }
    }

    func callAsFunction(_ message: String) -> String {
        var text = message
        for parent in jobParents {
            // jobs/ID/input/alice.yml → alice.yml
            while let range = text.range(of: parent + "/") {
                let inner = text[range.upperBound...].split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
                let skip = inner.count == 3 ? inner[0].count + inner[1].count + 2 : 0
                text.replaceSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: skip), with: "")
            }
        }
        for (folder, name) in replacements {
            text = text.replacingOccurrences(of: folder, with: name)
        }
        return text
    }
}
