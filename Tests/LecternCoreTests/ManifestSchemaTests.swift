import Foundation
import Testing
import LecternCore

/// The schema (``ManifestSchema``) and the parser agree: every key in the table is read, every key
/// the parser allows is in the table, an unknown key names the closest one, merging follows each
/// key's rule, and the documentation generated from the table is the one committed.
@Suite struct ManifestSchemaTests {
    private static let manifestKeys = ManifestSchema.keys.filter { !$0.onlyInDefaults }

    @Test(arguments: manifestKeys.map(\.path))
    func everyKeyOfTheTableIsAccepted(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        let yaml = ManifestExamples.manifest(key, value: key.example)
        #expect(throws: Never.self, "\(yaml)") { try ManifestExamples.load(yaml, in: dir) }
    }

    /// A value of the wrong shape is refused naming the key and its line: the parser reads it.
    @Test(arguments: manifestKeys.map(\.path))
    func everyKeyOfTheTableIsRead(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        let yaml = ManifestExamples.manifest(key, value: key.kind.wrongShape)
        do {
            _ = try ManifestExamples.load(yaml, in: dir)
            Issue.record("accepted \(key.kind.wrongShape) for \(path):\n\(yaml)")
        } catch let error as ManifestError {
            #expect(error.key?.hasPrefix(ManifestExamples.concretePath(key)) == true, "\(error) for:\n\(yaml)")
            #expect(error.line == yaml.split(separator: "\n").count, "\(error)")
        }
    }

    @Test func theHostKeysAreReadFromTheDefaultsOnly() throws {
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        for key in ManifestSchema.keys where key.onlyInDefaults {
            try dir.write("Config/defaults.yml", "\(key.name): \(key.example)\n")
            let host = try HostDefaults.load(near: dir.url)
            #expect(host.store != nil || host.chunks != nil, "\(key.path)")
            _ = try ManifestExamples.load("title: T\nsources: [a.txt]\n", in: dir)
            try dir.write("Config/defaults.yml", "voice: { name: en }\n\(key.name): \(key.kind.wrongShape)\n")
            #expect(throws: ManifestError.self, "\(key.path)") { try HostDefaults.load(near: dir.url) }
            do {
                _ = try ManifestExamples.load("title: T\nsources: [a.txt]\n\(key.name): \(key.example)\n", in: dir)
                Issue.record("a manifest accepted \(key.path)")
            } catch let error as ManifestError {
                #expect(error.key == key.name && error.line == 3 && error.message.contains("Config/defaults.yml"), "\(error)")
            }
        }
    }

    /// Every mapping the parser reads allows exactly the keys the table lists there.
    @Test(arguments: Set(ManifestSchema.keys.map(\.parent)).sorted())
    func everyKeyTheParserAllowsIsInTheTable(parent: String) throws {
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        // `languages` takes any language tag.
        guard let sibling = ManifestSchema.keys.first(where: { $0.parent == parent && !$0.onlyInDefaults && $0.name != "*" }) else { return }
        let unknown = ManifestKey(parent.isEmpty ? "zzzz_unknown" : parent + ".zzzz_unknown", .text, doc: "", example: "1")
        var probe = unknown
        probe.formats = sibling.formats
        let yaml = ManifestExamples.manifest(probe, value: "1")
        do {
            _ = try ManifestExamples.load(yaml, in: dir)
            Issue.record("an unknown key was accepted:\n\(yaml)")
        } catch let error as ManifestError {
            let listed = try #require(error.message.range(of: "expected one of: "), "\(error)")
            let names = error.message[listed.upperBound...].dropLast().components(separatedBy: ", ")
            #expect(names == ManifestSchema.names(in: parent), "\(parent): \(error)")
            #expect(error.key == ManifestExamples.concretePath(unknown), "\(error)")
        }
    }

    @Test(arguments: [
        ("title: T\nsources: [a.txt]\nvoice:\n  rat: 0.5\n", 4, "voice.rat", "rate"),
        ("titel: T\nsources: [a.txt]\n", 1, "titel", "title"),
        ("title: T\nsources:\n  - { path: a.txt, encodin: auto }\n", 3, "sources[1].encodin", "encoding"),
        ("title: T\nsources: [a.txt]\npauses: { paragraph: { afterr: 1 } }\n", 3, "pauses.paragraph.afterr", "after"),
        ("title: T\nsources: [a.txt]\nretry: { max_dealy: 60 }\n", 3, "retry.max_dealy", "max_delay"),
    ])
    func anUnknownKeyNamesTheClosestOne(yaml: String, line: Int, key: String, suggested: String) throws {
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        do {
            _ = try ManifestExamples.load(yaml, in: dir)
            Issue.record("accepted:\n\(yaml)")
        } catch let error as ManifestError {
            #expect(error.file == dir.url.appendingPathComponent("book.yml").path)
            #expect(error.line == line && error.key == key, "\(error)")
            #expect(error.message.hasPrefix("unknown key; did you mean \(suggested)? (expected one of: "), "\(error)")
            #expect(error.description.contains("book.yml:\(line): \(key): unknown key"), "\(error)")
        }
    }

    @Test func aKeyFarFromEveryAllowedOneGetsNoGuess() throws {
        #expect(ManifestSchema.suggestion(for: "colour_scheme", among: ManifestSchema.names(in: "")) == nil)
        #expect(ManifestSchema.suggestion(for: "narator", among: ManifestSchema.names(in: "")) == "narrator")
    }

    /// The defaults (`Config/defaults.yml`) and a manifest each give a value; what the job gets is
    /// what the key's merge rule in the table says.
    @Test func mergingFollowsEachKeysRule() throws {
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        try dir.write("names2.yml", "words:\n  Lectern: lecktern\n")
        try dir.write("Config/defaults.yml", """
            title: Default
            voice: { name: en-gb, rate: 0.3 }
            pauses: { paragraph: { before: 0.1, after: 0.9 }, heading: { after: 2 } }
            styles: { heading: { rate: 0.2 }, quote: { volume: 0.5 } }
            audio: { bitrate: 96, quality: 3 }
            languages: { fr: fr-fr, de: de }
            overrides: [{ chapter: 1, skip: true }]
            lexicons: [../names.yml]
            retry: { limit: 7, delay: 5 }
            vtt: captions

            """)
        let m = try ManifestExamples.load("""
            title: Mine
            sources: [a.txt]
            voice: { pitch: 1.2 }
            pauses: { paragraph: { after: 0.4 } }
            styles: { heading: { pitch: 1.1 } }
            audio: { quality: 5 }
            languages: { de: de-de }
            overrides: [{ chapter: 2, title: Two }]
            lexicons: [names2.yml]
            retry: { delay: 9 }

            """, in: dir)
        func rule(_ path: String) -> ManifestKey.Merge? { ManifestSchema.key(path)?.merge }
        // (The built-in defaults are a layer below Config/defaults.yml: a heading's pause before is 0.5.)
        // replace: the manifest's value; left out, the defaults'.
        #expect(rule("title") == .replace && m.title == "Mine")
        #expect(rule("vtt") == .replace && m.vtt == .captions)
        // field by field: a voice keeps the fields the manifest leaves out.
        #expect(rule("voice") == .fieldByField && m.voice.name == "en-gb" && m.voice.rate == 0.3 && m.voice.pitch == 1.2)
        #expect(rule("pauses.paragraph") == .fieldByField && m.pauses.pause(for: .paragraph) == Pause(before: 0.1, after: 0.4))
        #expect(rule("styles.heading") == .fieldByField && m.styles[.heading] == VoiceSettings(rate: 0.2, pitch: 1.1))
        // per entry: the entries the manifest gives replace the defaults' of that name, the others stay.
        #expect(rule("pauses") == .perEntry && m.pauses.pause(for: .heading) == Pause(before: 0.5, after: 2))
        #expect(rule("styles") == .perEntry && m.styles[.quote] == VoiceSettings(volume: 0.5))
        #expect(rule("audio") == .perEntry && m.audio == AudioSettings(bitrate: 96, quality: 5, loudness: .standard))
        #expect(rule("retry") == .perEntry && m.scheduling.retryLimit == 7 && m.scheduling.retryDelay == 9)
        #expect(rule("languages") == .perEntry && m.languages["fr"]?.name == "fr-fr" && m.languages["de"]?.name == "de-de")
        // append: the defaults' entries, then the manifest's.
        #expect(rule("overrides") == .append && m.overrides.map(\.chapter) == [.number(1), .number(2)])
        // prepend: the manifest's entries first (the first wins).
        #expect(rule("lexicons") == .prepend && m.lexicons.map(\.lastPathComponent) == ["names2.yml", "names.yml"])
    }

    /// Every rule a top-level key has is one `mergingFollowsEachKeysRule` exercises.
    @Test func everyTopLevelRuleIsExercised() {
        let exercised: Set<ManifestKey.Merge> = [.replace, .fieldByField, .perEntry, .append, .prepend]
        for key in ManifestSchema.keys where key.depth == 0 {
            #expect(exercised.contains(key.merge), "\(key.path): \(key.merge)")
        }
    }

    /// Which source formats a key applies to comes from the table: a key given for another format
    /// is refused naming it.
    @Test(arguments: ManifestSchema.keys.filter { $0.formats != nil && $0.path.hasPrefix("sources[].") }.map(\.path))
    func aSourceKeyForAnotherFormatIsRefused(path: String) throws {
        let key = try #require(ManifestSchema.key(path))
        let other = try #require(Source.Format.allCases.first { !(key.formats ?? []).contains($0) })
        var probe = key
        probe.formats = [other]
        let dir = try ManifestExamples.workspace()
        defer { dir.remove() }
        do {
            _ = try ManifestExamples.load(ManifestExamples.manifest(probe, value: key.example), in: dir)
            Issue.record("\(path) accepted for \(other)")
        } catch let error as ManifestError {
            #expect(error.key == ManifestExamples.concretePath(key) && error.message.hasPrefix("applies to "), "\(error)")
        }
    }
}
