import Foundation
import Testing
import LecternCore
@testable import LecternRunner

/// No output of a job may be one of its inputs, however the two paths are written: generated
/// manifests whose outputs collide with each kind of input in each way a path can name a file
/// (the same name, a `..` path, a symbolic link, a hard link, a linked folder, a temporary's
/// name) are all refused, naming both paths and the key to change; the same manifests with the
/// output elsewhere pass.
struct OutputCollisionTests {
    enum Input: CaseIterable { case source, cover, lexicon, manifest, configFile }
    enum Way: CaseIterable { case sameName, dotDotPath, symbolicLink, hardLink, linkedFolder, temporaryName }

    /// File names as users write them: spaces, quotes, non-ASCII, a newline.
    static let names = ["book", "my book", "l'été", "\"quoted\"", "two\nlines", "-dash", "Ärger ü"]

    /// Deterministic (SplitMix64) so a failure can be replayed from its case number.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A job in a fresh folder: `Config/defaults.yml` above it, `books/` with a source, cover and
    /// lexicon, the manifest in `books/`, and the output folder `out/`.
    struct Job {
        let root: URL
        var books: URL { root.appendingPathComponent("books") }
        var out: URL { root.appendingPathComponent("out") }
        var config: URL { root.appendingPathComponent("Config") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("collision-\(UUID().uuidString)")
            for folder in ["books", "out", "Config"] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try Data("voice: { rate: 0.5 }\n".utf8).write(to: config.appendingPathComponent("defaults.yml"))
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// Makes the job so that the output `format` (nil: the MP3) collides with `input` in `way`;
    /// returns the manifest and the input's path, or nil when the way cannot apply (a cover is a
    /// .png, a manifest and a lexicon .yml: none can carry an output's name).
    static func make(_ job: Job, input: Input, way: Way, format: TimingFormat?, name: String, collide: Bool) throws -> (URL, URL)? {
        let fm = FileManager.default
        let outputName = format.map { "\(name).\($0.fileExtension)" } ?? "\(name).mp3"
        let carriesName = way == .sameName || way == .dotDotPath || way == .linkedFolder || way == .temporaryName
        if carriesName && (input == .cover || input == .manifest || input == .lexicon) { return nil }
        let temporary = ".\(outputName).4242.tmp"
        // Where the input lives and what it is called.
        let folder = input == .configFile ? job.config : job.books
        let inputName: String
        switch (input, carriesName) {
        case (_, true): inputName = way == .temporaryName ? temporary : outputName
        case (.cover, false): inputName = "cover.png"
        case (.manifest, false): inputName = "job.yml"
        case (.lexicon, false): inputName = "words.yml"
        case (.configFile, false): inputName = "voices.yml"
        case (.source, false): inputName = "text.txt"
        }
        let inputURL = folder.appendingPathComponent(inputName)
        let content: String
        switch input {
        case .source: content = "Once upon a time there was a story.\n"
        case .cover: content = "\u{89}PNG\r\n"
        case .lexicon: content = "words:\n  tomato: tomahto\n"
        case .configFile: content = "# a Config file\n"
        case .manifest: content = ""
        }
        if input != .manifest { try Data(content.utf8).write(to: inputURL) }
        let source = input == .source ? inputURL : job.books.appendingPathComponent("text.txt")
        if input != .source { try Data("Once upon a time there was a story.\n".utf8).write(to: source) }
        let cover = input == .cover ? inputURL : nil
        let lexicon = input == .lexicon ? inputURL : nil
        // Where the output goes, written as the way says.
        var output = job.out.path
        if collide {
            switch way {
            case .sameName, .temporaryName: output = folder.path
            case .dotDotPath: output = folder.appendingPathComponent("sub").path + "/../"
            case .linkedFolder:
                let link = job.root.appendingPathComponent("linked")
                try fm.createSymbolicLink(atPath: link.path, withDestinationPath: folder.path)
                output = link.path
            case .symbolicLink:
                try fm.createSymbolicLink(atPath: job.out.appendingPathComponent(outputName).path, withDestinationPath: inputURL.path)
            case .hardLink:
                if input != .manifest { try fm.linkItem(at: inputURL, to: job.out.appendingPathComponent(outputName)) }
            }
            if way == .dotDotPath { try fm.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true) }
        }
        let manifest = input == .manifest ? inputURL : job.books.appendingPathComponent("job.yml")
        var yaml = """
            title: Collision
            name: \(ManifestLoader.yamlQuoted(name))
            output: \(ManifestLoader.yamlQuoted(output))
            sources: [{ path: \(ManifestLoader.yamlQuoted(source.path)), format: text }]
            timings: [\(format.map { $0 == .json ? "json" : "json, \($0.rawValue)" } ?? "json")]

            """
        if let cover { yaml += "cover: \(ManifestLoader.yamlQuoted(cover.path))\n" }
        if let lexicon { yaml += "lexicons: [\(ManifestLoader.yamlQuoted(lexicon.path))]\n" }
        try Data(yaml.utf8).write(to: manifest)
        if collide && way == .hardLink && input == .manifest {
            try fm.linkItem(at: manifest, to: job.out.appendingPathComponent(outputName))
        }
        return (manifest, inputURL)
    }

    @Test func everyCollisionIsRefusedAndEveryOtherOutputPasses() throws {
        var random = Generator(state: 22)
        var refused = 0
        for input in Input.allCases {
            for way in Way.allCases {
                for format in [nil] + TimingFormat.allCases.map(Optional.some) {
                    let name = Self.names.randomElement(using: &random)!
                    for collide in [true, false] {
                        let job = try Job()
                        defer { job.remove() }
                        guard let (manifestURL, inputURL) = try Self.make(job, input: input, way: way, format: format, name: name, collide: collide)
                        else { continue }
                        let what = "\(input) \(way) \(format.map(\.rawValue) ?? "mp3") name \(name.debugDescription) collide \(collide)"
                        let manifest = try ManifestLoader().load(manifestURL)
                        if collide {
                            let error = try #require(throws: ManifestError.self, "\(what)") { try OutputCollision.check(manifest) }
                            let text = error.description
                            #expect(text.contains(UserText.escapingControls(inputURL.lastPathComponent)), "\(what): \(text)")
                            #expect(error.key == "output", "\(what): \(text)")
                            #expect(!text.contains("\n"), "\(what): a newline in the message: \(text)")
                            refused += 1
                        } else {
                            #expect(throws: Never.self, "\(what)") { try OutputCollision.check(manifest) }
                        }
                    }
                }
            }
        }
        #expect(refused > 100, "only \(refused) collisions were generated")
    }

    /// A stylesheet or lexicon an HTML page links is an input too.
    @Test func aFileTheDocumentsLinkIsAnInput() throws {
        let job = try Job()
        defer { job.remove() }
        let page = job.books.appendingPathComponent("page.html")
        try Data("<p>Hello there.</p>".utf8).write(to: page)
        let linked = job.books.appendingPathComponent("page.vtt")
        try Data("p { }".utf8).write(to: linked)
        let manifestURL = job.books.appendingPathComponent("page.yml")
        try Data("title: Page\noutput: .\nsources: [page.html]\ntimings: [json, vtt]\nname: other\n".utf8).write(to: manifestURL)
        let manifest = try ManifestLoader().load(manifestURL)
        #expect(throws: Never.self) { try OutputCollision.check(manifest, linkedFiles: [linked]) }
        try FileManager.default.moveItem(at: linked, to: job.books.appendingPathComponent("other.vtt"))
        let error = try #require(throws: ManifestError.self) {
            try OutputCollision.check(manifest, linkedFiles: [job.books.appendingPathComponent("other.vtt")])
        }
        #expect(error.description.contains("a file the documents link"), "\(error)")
    }
}
