import Foundation
import Testing
import LecternCore

/// Loads `yaml` written as `name` into a fresh temporary folder that has no `Config/`, so the
/// built-in defaults apply. `files` are created beside it first.
private func load(_ yaml: String, name: String = "book.yml", files: [String] = [], in dir: TempDir) throws -> Manifest {
    for f in files { try dir.write(f) }
    let url = try dir.write(name, yaml)
    return try ManifestLoader(configDirectory: nil).load(url)
}

/// The ManifestError thrown by loading `yaml`, or nil (with a recorded issue) if none was thrown.
private func loadError(_ yaml: String, files: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> (ManifestError, String)? {
    let dir = try TempDir()
    defer { dir.remove() }
    do {
        _ = try load(yaml, files: files, in: dir)
        Issue.record("expected a ManifestError", sourceLocation: sourceLocation)
        return nil
    } catch let error as ManifestError {
        return (error, dir.url.appendingPathComponent("book.yml").path)
    }
}

@Suite struct ManifestLoaderTests {
    @Test func validManifestResolvesPathsAgainstTheManifestsFolderAndAppliesDefaults() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("docs/shared.txt")
        let manifest = try load("""
            title: Test Book
            author: A. Writer
            sources:
              - text/one.txt
              - path: two.md
                title: Second
              - path: ../docs/shared.txt
                format: markdown
            voice:
              name: en-gb
              rate: 0.6
            """, name: "jobs/book.yml", files: ["jobs/text/one.txt", "jobs/two.md"], in: dir)
        let jobs = dir.url.appendingPathComponent("jobs")
        #expect(manifest.title == "Test Book")
        #expect(manifest.author == "A. Writer")
        #expect(manifest.name == "book")
        #expect(manifest.sources.map(\.url.path) == [
            jobs.appendingPathComponent("text/one.txt").path,
            jobs.appendingPathComponent("two.md").path,
            dir.url.appendingPathComponent("docs/shared.txt").path,
        ])
        #expect(manifest.sources.map(\.displayPath) == ["text/one.txt", "two.md", "../docs/shared.txt"])
        #expect(manifest.sources.map(\.format) == [.text, .markdown, .markdown])
        #expect(manifest.sources[1].chapters.title == "Second")
        #expect(manifest.outputDirectory.path == jobs.appendingPathComponent("out/book").path)
        #expect(manifest.mp3URL.lastPathComponent == "book.mp3")
        // The manifest's voice over the built-in one (en, 0.5, 1.0, 1.0).
        #expect(manifest.voice == VoiceSettings(name: "en-gb", rate: 0.6, pitch: 1.0, volume: 1.0))
        #expect(manifest.pauses.pause(for: .paragraph) == Pause(before: 0, after: 0.5))
        #expect(manifest.pauses.pause(for: .heading) == Pause(before: 0.5, after: 1.0))
        #expect(manifest.pauses.chapter == Pause(before: 0, after: 2.0))
        #expect(manifest.audio == AudioSettings(bitrate: 64, quality: 7, loudness: .standard))
        #expect(manifest.timings == [.json])
        #expect(manifest.overrides.isEmpty)
    }

    @Test func manifestPausesMergePerSideOverTheDefaults() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let manifest = try load("""
            title: T
            sources: [a.txt]
            pauses:
              quote: { after: 1.25 }
              chapter: { before: 3 }
            audio: { bitrate: 128, quality: 2 }
            """, files: ["a.txt"], in: dir)
        #expect(manifest.pauses.pause(for: .quote) == Pause(before: 0.2, after: 1.25))
        #expect(manifest.pauses.chapter == Pause(before: 3, after: 2.0))
        #expect(manifest.audio == AudioSettings(bitrate: 128, quality: 2, loudness: .standard))
    }

    /// The default LAME quality is the one `make bench BENCH=quality` chose (docs/BENCHMARKS.md), from
    /// the built-in defaults and from the repository's Config/defaults.yml alike, at every bitrate;
    /// `audio.quality` still wins.
    @Test func theDefaultQualityIsTheMeasuredOneAndTheManifestKeyStillWins() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        let repoConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config")
        #expect(AudioSettings.defaultQuality == 7)
        #expect(AudioSettings().quality == 7)
        for config in [nil, repoConfig] {
            let loader = ManifestLoader(configDirectory: config)
            for bitrate in AudioSettings.validBitrates {
                let url = try dir.write("b\(bitrate).yml", "title: T\nsources: [a.txt]\naudio: { bitrate: \(bitrate) }\n")
                #expect(try loader.load(url).audio == AudioSettings(bitrate: bitrate, quality: 7, loudness: .standard), "\(bitrate) kbit/s, config \(config?.path ?? "built in")")
            }
            let url = try dir.write("q.yml", "title: T\nsources: [a.txt]\naudio: { bitrate: 160, quality: 3 }\n")
            #expect(try loader.load(url).audio == AudioSettings(bitrate: 160, quality: 3, loudness: .standard))
        }
    }

    @Test func aManifestInAJobsFolderWritesToTheSiblingOutFolderAndNameAndOutputAreHonoured() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let a = try load("title: T\nsources: [a.txt]\n", name: "Jobs/alice.yml", files: ["Jobs/a.txt"], in: dir)
        #expect(a.name == "alice")
        #expect(a.outputDirectory.path == dir.url.appendingPathComponent("out/alice").path)
        let b = try load("title: T\nname: wonder\noutput: ../elsewhere\nsources: [a.txt]\n", name: "Jobs/b.yml", in: dir)
        #expect(b.name == "wonder")
        #expect(b.outputDirectory.path == dir.url.appendingPathComponent("elsewhere").path)
        #expect(b.timingsURL.lastPathComponent == "wonder.timings.json")
    }

    @Test func globSourceExpandsToMatchingFilesSortedByName() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let manifest = try load("title: T\nsources:\n  - path: ch/*.md\n    chapters: { level: 2 }\n",
                                files: ["ch/b.md", "ch/c.md", "ch/a.md", "ch/notes.txt"], in: dir)
        #expect(manifest.sources.map(\.displayPath) == ["a.md", "b.md", "c.md"])
        #expect(manifest.sources.map(\.url.lastPathComponent) == ["a.md", "b.md", "c.md"])
        #expect(manifest.sources.allSatisfy { $0.format == .markdown && $0.chapters.level == 2 })
    }

    @Test func epubChaptersComeFromTheTOCALevelOrASelector() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let yaml = "title: T\nsources:\n  - {path: a.epub, chapters: toc}\n  - {path: b.epub, chapters: {level: 2}}\n"
            + "  - {path: c.epub, chapters: {selector: 'div.sect1 > p.titre'}}\n  - {path: d.html, chapters: {selector: 'p.x'}}\n"
        let manifest = try load(yaml, files: ["a.epub", "b.epub", "c.epub", "d.html"], in: dir)
        let rules = manifest.sources.map(\.chapters)
        #expect(rules[0].detection == .toc && rules[0].selector == nil && !rules[0].levelGiven)
        #expect(rules[1].level == 2 && rules[1].levelGiven)
        #expect(rules[2].selector == "div.sect1 > p.titre" && !rules[2].levelGiven)
        #expect(rules[3].selector == "p.x")
        let (both, _) = try #require(try loadError("title: T\nsources:\n  - {path: a.epub, chapters: {level: 2, selector: p}}\n", files: ["a.epub"]))
        #expect(both.message.contains("either level or selector"))
        let (heading, _) = try #require(try loadError("title: T\nsources:\n  - {path: a.epub, chapters: {heading: x}}\n", files: ["a.epub"]))
        #expect(heading.key == "sources[1].chapters.heading")
        let (toc, _) = try #require(try loadError("title: T\nsources:\n  - {path: a.txt, chapters: toc}\n", files: ["a.txt"]))
        #expect(toc.key == "sources[1].chapters.toc")
    }

    @Test func globSortsNumberedFilesInNumericOrder() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let manifest = try load("title: T\nsources: [\"ch*.md\"]\n", files: ["ch10.md", "ch2.md", "ch1.md"], in: dir)
        #expect(manifest.sources.map(\.displayPath) == ["ch1.md", "ch2.md", "ch10.md"])
    }

    @Test func globMatchingNothingIsAnError() throws {
        let (error, file) = try #require(try loadError("title: T\nsources:\n  - none/*.md\n"))
        #expect(error.file == file)
        #expect(error.line == 3)
        #expect(error.key == "sources[1]")
        #expect(error.message.hasPrefix("no file matches"))
    }
}
