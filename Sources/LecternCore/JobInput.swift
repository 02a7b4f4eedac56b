import Foundation

/// A file a job reads — its manifest, a source, the cover, a lexicon, a file of the `Config`
/// folder, a stylesheet or lexicon a document links — with what it is to the job, for messages
/// that say which input an output would replace.
public struct JobInput: Sendable, Equatable {
    public var url: URL
    /// What the file is to the job: "the manifest", "source sources[2]", "the cover" …
    public var role: String

    public init(url: URL, role: String) {
        self.url = url
        self.role = role
    }
}

extension Manifest {
    /// The most files of the `Config` folder listed as inputs (a folder of thousands is not a
    /// Config folder; its first files are still protected).
    static let configFileLimit = 2000

    /// Every file the job reads that the manifest names: the manifest, the sources, the cover,
    /// the lexicons and every file of the `Config` folder it was merged over (defaults, voices,
    /// spoken forms, lexicons). The documents' own links are ``Book/linkedFiles``.
    public var inputs: [JobInput] {
        var inputs = [JobInput(url: file, role: "the manifest")]
        for source in sources {
            inputs.append(JobInput(url: source.url, role: "source " + (source.origin?.key.map { "\($0) (\(source.displayPath))" } ?? source.displayPath)))
        }
        if let cover { inputs.append(JobInput(url: cover, role: "the cover")) }
        for lexicon in lexicons { inputs.append(JobInput(url: lexicon, role: "the lexicon \(lexicon.lastPathComponent)")) }
        if let configDirectory { inputs += Self.configFiles(in: configDirectory) }
        return inputs
    }

    /// Every file of a `Config` folder (the first ``configFileLimit``), as inputs.
    public static func configFiles(in configDirectory: URL) -> [JobInput] {
        let folder = configDirectory.standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var inputs: [JobInput] = []
        for case let url as URL in walker where inputs.count < configFileLimit {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            inputs.append(JobInput(url: url, role: "the Config file \(url.path.dropFirst(folder.path.count + 1))"))
        }
        return inputs
    }
}
