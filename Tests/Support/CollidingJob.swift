import Foundation
import LecternCore

/// A job made so that one of its outputs is one of its inputs — for the tests that no output
/// ever replaces an input, in-process and through the real binary.
///
/// A fresh folder: `Config/defaults.yml` above it, `books/` with a source, cover and lexicon, the
/// manifest in `books/`, the output folder `out/`; then the output `format` (nil: the MP3) is
/// made to name `input` in `way`.
public struct CollidingJob {
    public enum Input: CaseIterable, Sendable { case source, cover, lexicon, manifest, configFile }
    public enum Way: CaseIterable, Sendable { case sameName, dotDotPath, symbolicLink, hardLink, linkedFolder, temporaryName }

    /// File names as users write them: spaces, quotes, non-ASCII, a newline, a leading dash.
    public static let names = ["book", "my book", "l'été", "\"quoted\"", "two\nlines", "-dash", "Ärger ü"]

    public let root: URL
    public var books: URL { root.appendingPathComponent("books") }
    public var out: URL { root.appendingPathComponent("out") }
    public var config: URL { root.appendingPathComponent("Config") }
    /// The manifest and the input the output collides with (when `collide`).
    public private(set) var manifest: URL
    public private(set) var input: URL

    /// - returns: nil when the way cannot apply (a cover is a .png, a manifest and a lexicon a
    ///   .yml: none can carry an output's name).
    public init?(input kind: Input, way: Way, format: TimingFormat?, name: String, collide: Bool) throws {
        let fm = FileManager.default
        let carriesName = [.sameName, .dotDotPath, .linkedFolder, .temporaryName].contains(way)
        if carriesName && [.cover, .manifest, .lexicon].contains(kind) { return nil }
        root = fm.temporaryDirectory.appendingPathComponent("collision-\(UUID().uuidString)")
        for folder in ["books", "out", "Config"] {
            try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("voice: { rate: 0.5 }\n".utf8).write(to: root.appendingPathComponent("Config/defaults.yml"))
        let outputName = format.map { "\(name).\($0.fileExtension)" } ?? "\(name).mp3"
        let folder = kind == .configFile ? root.appendingPathComponent("Config") : root.appendingPathComponent("books")
        let inputName: String
        switch (kind, carriesName) {
        case (_, true): inputName = way == .temporaryName ? ".\(outputName).4242.tmp" : outputName
        case (.cover, false): inputName = "cover.png"
        case (.manifest, false): inputName = "job.yml"
        case (.lexicon, false): inputName = "words.yml"
        case (.configFile, false): inputName = "voices.yml"
        case (.source, false): inputName = "text.txt"
        }
        input = folder.appendingPathComponent(inputName)
        let books = root.appendingPathComponent("books"), out = root.appendingPathComponent("out")
        let story = "Once upon a time there was a story.\n"
        switch kind {
        case .source: try Data(story.utf8).write(to: input)
        // A complete 1×1 PNG.
        case .cover: try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!.write(to: input)
        case .lexicon: try Data("words:\n  tomato: tomahto\n".utf8).write(to: input)
        case .configFile: try Data("# a Config file\n".utf8).write(to: input)
        case .manifest: break
        }
        let source = kind == .source ? input : books.appendingPathComponent("text.txt")
        if kind != .source { try Data(story.utf8).write(to: source) }
        var output = out.path
        if collide {
            switch way {
            case .sameName, .temporaryName: output = folder.path
            case .dotDotPath:
                try fm.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
                output = folder.appendingPathComponent("sub").path + "/../"
            case .linkedFolder:
                let link = root.appendingPathComponent("linked")
                try fm.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
                output = link.path
            case .symbolicLink:
                try fm.createSymbolicLink(atPath: out.appendingPathComponent(outputName).path, withDestinationPath: input.path)
            case .hardLink: break  // below, once the manifest exists too
            }
        }
        manifest = kind == .manifest ? input : books.appendingPathComponent("job.yml")
        var yaml = """
            title: Collision
            name: \(ManifestLoader.yamlQuoted(name))
            output: \(ManifestLoader.yamlQuoted(output))
            sources: [{ path: \(ManifestLoader.yamlQuoted(source.path)), format: text }]
            timings: [\(format.map { $0 == .json ? "json" : "json, \($0.rawValue)" } ?? "json")]

            """
        if kind == .cover { yaml += "cover: \(ManifestLoader.yamlQuoted(input.path))\n" }
        if kind == .lexicon { yaml += "lexicons: [\(ManifestLoader.yamlQuoted(input.path))]\n" }
        try Data(yaml.utf8).write(to: manifest)
        if collide && way == .hardLink { try fm.linkItem(at: input, to: out.appendingPathComponent(outputName)) }
    }

    /// Every regular file under the job's folder (hidden ones included) with its bytes.
    public func snapshot() throws -> [String: Data] { try Self.snapshot(of: root) }

    /// Every regular file under `folder` (hidden ones included, links not followed) with its bytes.
    public static func snapshot(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files[url.path] = try Data(contentsOf: url)
        }
        return files
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}

/// A deterministic random number generator (SplitMix64), so a generated case can be replayed.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
