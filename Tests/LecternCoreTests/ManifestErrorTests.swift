import Foundation
import Testing
import LecternCore

/// Writes `yaml` as `book.yml` (and `files`) into a fresh temporary folder and returns the
/// ManifestError that loading it throws, with the manifest's path.
private func loadError(_ yaml: String, files: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> (ManifestError, String)? {
    let dir = try TempDir()
    defer { dir.remove() }
    for f in files { try dir.write(f) }
    let url = try dir.write("book.yml", yaml)
    do {
        _ = try ManifestLoader(configDirectory: nil).load(url)
        Issue.record("expected a ManifestError", sourceLocation: sourceLocation)
        return nil
    } catch let error as ManifestError {
        return (error, url.path)
    }
}

@Suite struct ManifestErrorTests {
    /// A line of 200,000 characters — a control character in it, a quote left open, a key, a
    /// value of the wrong kind — is quoted, if at all, as a short excerpt: the error stays one
    /// short line, not the line twice (400 KB).
    @Test(arguments: [
        "title: LONG\u{1}\nsources: [a.txt]\n",
        "sources: [a.txt]\ntitle: \"LONG\n",
        "sources: [a.txt]\ntitle: [LONG\n",
        "sources: [a.txt]\nLONG: 1\n",
        "sources: [a.txt]\nvoice:\n  rate: LONG\n",
        "sources: [a.txt]\nLONG\n",
    ])
    func aLongLineIsQuotedAsAnExcerpt(_ template: String) throws {
        let yaml = template.replacingOccurrences(of: "LONG", with: String(repeating: "w", count: 200_000))
        let (error, _) = try #require(try loadError(yaml, files: ["a.txt"]))
        #expect(error.description.utf8.count < 1_000, "\(error.description.utf8.count) bytes: \(error.description.prefix(300))")
        #expect(!error.description.contains("\n"), "\(error.description.prefix(300))")
    }

    @Test func unknownKeyNamesFileLineAndDottedKey() throws {
        let (error, file) = try #require(try loadError("""
            title: T
            sources: [a.txt]
            voice:
              rat: 0.5
            """, files: ["a.txt"]))
        #expect(error.file == file)
        #expect(error.line == 4)
        #expect(error.key == "voice.rat")
        #expect(error.message.contains("unknown key"))
        #expect(error.message.contains("rate"))  // lists the allowed keys
        #expect(error.description.hasPrefix("\(file):4: voice.rat: unknown key"))
    }

    @Test(arguments: [
        ("schedule: \"61 * * * *\"", "schedule", "minute field"),
        ("schedule: \"0 3 * *\"", "schedule", "5 fields"),
        ("schedule: \"0 0 * * FUN\"", "schedule", "day-of-week"),
        ("timezone: Europe/Atlantis", "timezone", "unknown time zone"),
        ("catchup: sometimes", "catchup", "once"),
        ("retry: { limit: 2, wait: 5 }", "retry.wait", "unknown key"),
        ("watch: maybe", "watch", "true"),
    ])
    func badSchedulingNamesLineAndKey(line: String, key: String, message: String) throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [a.txt]\n\(line)\n", files: ["a.txt"]))
        #expect(error.line == 3)
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func schedulingKeysAreRead() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        let url = try dir.write("book.yml", """
            title: T
            sources: [a.txt]
            schedule: "30 2 * * MON-FRI"
            timezone: America/New_York
            watch: true
            catchup: none
            retry: { limit: 5, delay: 10 }
            """)
        let manifest = try ManifestLoader(configDirectory: nil).load(url)
        #expect(manifest.schedule == "30 2 * * MON-FRI")
        #expect(manifest.scheduling.timeZone == "America/New_York")
        #expect(manifest.scheduling.watch)
        #expect(manifest.scheduling.catchUp == .skip)
        #expect(manifest.scheduling.retryLimit == 5 && manifest.scheduling.retryDelay == 10)
    }

    @Test func unknownTopLevelKeyIsReportedWithoutAPrefix() throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [a.txt]\nvoices: {}\n", files: ["a.txt"]))
        #expect(error.line == 3)
        #expect(error.key == "voices")
    }

    @Test func wrongTypeNamesLineKeyAndTheValueFound() throws {
        let (error, file) = try #require(try loadError("""
            title: T
            sources: [a.txt]
            voice:
              name: en
              rate: fast
            """, files: ["a.txt"]))
        #expect(error.line == 5)
        #expect(error.key == "voice.rate")
        #expect(error.message == "expected a number from 0 to 1, found \"fast\"")
        #expect(error.description == "\(file):5: voice.rate: expected a number from 0 to 1, found \"fast\"")
    }

    @Test func outOfRangePitchIsRejected() throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [a.txt]\nvoice: { pitch: 3 }\n", files: ["a.txt"]))
        #expect(error.line == 3)
        #expect(error.key == "voice.pitch")
        #expect(error.message == "expected a number from 0.5 to 2, found 3")
    }

    @Test func outOfRangeStyleRateNamesTheStyleKey() throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [a.txt]\nstyles:\n  quote:\n    rate: 1.5\n", files: ["a.txt"]))
        #expect(error.line == 5)
        #expect(error.key == "styles.quote.rate")
        #expect(error.message == "expected a number from 0 to 1, found 1.5")
    }

    @Test func rateAndWordsPerMinuteTogetherAreRejected() throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [a.txt]\nvoice:\n  rate: 0.5\n  wpm: 200\n", files: ["a.txt"]))
        #expect(error.key == "voice")
        #expect(error.line == 4)  // where the voice mapping starts
        #expect(error.message.contains("either rate or wpm"))
    }

    @Test func missingSourceFileNamesTheSourceByItsOneBasedIndex() throws {
        let (error, file) = try #require(try loadError("""
            title: T
            sources:
              - missing.txt
              - here.txt
            """, files: ["here.txt"]))
        #expect(error.file == file)
        #expect(error.line == 3)
        #expect(error.key == "sources[1]")
        #expect(error.message.hasPrefix("no such file: "))
        #expect(error.message.hasSuffix("/missing.txt"))
    }

    @Test func missingSecondSourceIsSourcesTwo() throws {
        let (error, _) = try #require(try loadError("title: T\nsources:\n  - here.txt\n  - path: gone.md\n    format: markdown\n",
                                                     files: ["here.txt"]))
        #expect(error.line == 4)
        #expect(error.key == "sources[2]")
    }

    @Test func aFolderAsSourceIsRejected() throws {
        let (error, _) = try #require(try loadError("title: T\nsources: [sub]\n", files: ["sub/a.txt"]))
        #expect(error.key == "sources[1]")
        #expect(error.message.contains("is a folder"))
    }

    @Test func missingTitleIsReportedWithoutALine() throws {
        let (error, file) = try #require(try loadError("author: Someone\nsources: [a.txt]\n", files: ["a.txt"]))
        #expect(error.file == file)
        #expect(error.line == nil)
        #expect(error.key == "title")
        #expect(error.description == "\(file): title: missing (every manifest needs a title, unless an EPUB source gives one)")
    }

    @Test func blankTitleCountsAsMissing() throws {
        let (error, _) = try #require(try loadError("title: \"   \"\nsources: [a.txt]\n", files: ["a.txt"]))
        #expect(error.key == "title")
    }

    @Test func missingSourcesNamesNoLineAndEmptySourcesNamesItsLine() throws {
        let (missing, _) = try #require(try loadError("title: T\n"))
        #expect(missing.key == "sources")
        #expect(missing.line == nil)
        let (empty, _) = try #require(try loadError("title: T\nauthor: A\nsources: []\n"))
        #expect(empty.key == "sources")
        #expect(empty.line == 3)
    }

    @Test func invalidYAMLNamesTheLineOfTheProblem() throws {
        let (error, file) = try #require(try loadError("title: T\nauthor: a: b\nsources: [a.txt]\n", files: ["a.txt"]))
        #expect(error.file == file)
        #expect(error.line == 2)
        #expect(error.key == nil)
        #expect(error.message.hasPrefix("not valid YAML: "))
        #expect(error.message.contains("mapping values are not allowed"))
    }

    @Test func duplicateKeyIsReported() throws {
        let (error, _) = try #require(try loadError("title: A\nsources: [a.txt]\ntitle: B\n", files: ["a.txt"]))
        #expect(error.key == "title")
        #expect(error.message == "key appears twice")
    }

    @Test func invalidChapterRegularExpressionIsRejected() throws {
        let (error, _) = try #require(try loadError("title: T\nsources:\n  - path: a.txt\n    chapters: { heading: \"[\" }\n",
                                                     files: ["a.txt"]))
        #expect(error.line == 4)
        #expect(error.key == "sources[1].chapters.heading")
        #expect(error.message.hasPrefix("not a valid regular expression"))
    }

    @Test func unsupportedBitrateAndUnknownPresetAndBadOverrideAreRejected() throws {
        let (bitrate, _) = try #require(try loadError("title: T\nsources: [a.txt]\naudio: { bitrate: 100 }\n", files: ["a.txt"]))
        #expect(bitrate.key == "audio.bitrate")
        #expect(bitrate.message.hasPrefix("100 is not an MP3 bitrate"))
        let (low, _) = try #require(try loadError("title: T\nsources: [a.txt]\naudio: { bitrate: 32 }\n", files: ["a.txt"]))
        #expect(low.key == "audio.bitrate" && low.message.contains("LAME tag"), "\(low.message)")
        let (preset, _) = try #require(try loadError("title: T\nsources: [a.txt]\nvoice: { preset: nobody }\n", files: ["a.txt"]))
        #expect(preset.key == "voice.preset")
        #expect(preset.message.contains("unknown voice preset \"nobody\""))
        let (zero, _) = try #require(try loadError("title: T\nsources: [a.txt]\noverrides:\n  - chapter: 0\n", files: ["a.txt"]))
        #expect(zero.line == 4)
        #expect(zero.key == "overrides[1].chapter")
        #expect(zero.message == "chapter numbers start at 1")
    }

    @Test func nameWithASlashIsRejected() throws {
        let (error, _) = try #require(try loadError("title: T\nname: a/b\nsources: [a.txt]\n", files: ["a.txt"]))
        #expect(error.line == 2)
        #expect(error.key == "name")
    }

    @Test(arguments: [".hidden", ".", "..", ".book.mp3"])
    func aNameStartingWithADotIsRejectedForItWouldWriteHiddenOutputs(_ name: String) throws {
        let (error, file) = try #require(try loadError("title: T\nsources: [a.txt]\nname: '\(name)'\n", files: ["a.txt"]))
        #expect(error.file == file && error.line == 3 && error.key == "name", "\(error)")
        #expect(error.message.hasPrefix("may not start with '.': the outputs (\(name).mp3 …) would be hidden files"), "\(error)")
    }

    @Test func aHiddenManifestWithoutANameWritesVisibleOutputs() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        _ = try dir.write("a.txt")
        let url = try dir.write(".book.yml", "title: T\nsources: [a.txt]\n")
        #expect(try ManifestLoader(configDirectory: nil).load(url).name == "book")
        let dots = try dir.write("..tale.yml", "title: T\nsources: [a.txt]\n")
        #expect(try ManifestLoader(configDirectory: nil).load(dots).name == "tale")
        let named = try dir.write(".named.yml", "title: T\nname: mine\nsources: [a.txt]\n")
        #expect(try ManifestLoader(configDirectory: nil).load(named).name == "mine")
    }

    @Test func aMissingLexiconOrOneOfAnotherKindNamesTheLine() throws {
        let (missing, file) = try #require(try loadError("title: T\nsources: [a.txt]\nlexicons: [names.yml]\n", files: ["a.txt"]))
        #expect(missing.description.hasPrefix("\(file):3: lexicons: no such file: "))
        let (kind, _) = try #require(try loadError("title: T\nsources: [a.txt]\nlexicons:\n  - a.txt\n", files: ["a.txt"]))
        #expect(kind.line == 4 && kind.message.contains("a lexicon is a .yml (Lectern's form) or .pls (W3C PLS) file"), "\(kind)")
    }
}
