import Foundation
import Testing
import LecternTesting

/// Bad input gets a one-line error naming the file (and line and key where they apply), a
/// non-zero exit, no output file and no succeeded run.
struct BadInputTests {
    /// Runs a manifest expected to fail and checks everything a failure must (and must not) leave.
    func expectFailure(_ manifest: String, files: [String: [UInt8]] = [:], mentions: [String]) throws {
        let ws = try Workspace("bad")
        try ws.write("story.txt", "Once upon a time.\n\nThe end.\n")
        for (name, bytes) in files { try Data(bytes).write(to: ws.url.appendingPathComponent(name)) }
        let file = try ws.write("job.yml", manifest)
        let result = try Tool.lectern(["run", file.path], db: ws.db)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line on stderr, got: \(result.stderr)")
        for needle in mentions {
            #expect(result.stderr.contains(needle), "\"\(needle)\" missing from: \(result.stderr)")
        }
        #expect(!ws.exists("out/job/job.mp3"))
        #expect(!ws.exists("out/job/job.timings.json"))
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: ws.url.appendingPathComponent("out/job").path)) ?? []
        #expect(leftovers.isEmpty, "files left behind: \(leftovers)")

        let status = try Tool.lectern(["status", "--json"], db: ws.db)
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let runs = (json?["jobs"] as? [[String: Any]] ?? []).flatMap { $0["runs"] as? [[String: Any]] ?? [] }
        #expect(!runs.contains { $0["state"] as? String == "succeeded" })
        #expect(runs.allSatisfy { $0["state"] as? String == "failed" && ($0["error"] as? String)?.isEmpty == false })
    }

    @Test func unknownKeyNamesFileLineAndKey() throws {
        try expectFailure("""
            title: Story
            sources: [story.txt]
            voice:
              name: en
              rat: 0.5
            """, mentions: ["job.yml:5:", "voice.rat", "unknown key"])
    }

    @Test func wrongTypeNamesFileLineAndKey() throws {
        try expectFailure("""
            title: Story
            sources: [story.txt]
            voice: { name: en, rate: fast }
            """, mentions: ["job.yml:3:", "voice.rate", "expected a number"])
    }

    @Test func outOfRangeValueNamesFileLineAndKey() throws {
        try expectFailure("""
            title: Story
            sources: [story.txt]
            audio:
              bitrate: 65
            """, mentions: ["job.yml:4:", "audio.bitrate"])
    }

    @Test func missingSourceFileNamesTheManifestAndTheSource() throws {
        try expectFailure("""
            title: Story
            sources:
              - story.txt
              - path: missing-chapter.txt
            """, mentions: ["job.yml:4:", "sources[2]", "missing-chapter.txt"])
    }

    @Test func unknownVoiceNamesTheManifestAndKey() throws {
        try expectFailure("""
            title: Story
            sources: [story.txt]
            voice: { name: xx-nosuchvoice }
            """, mentions: ["job.yml:3:", "voice.name", "xx-nosuchvoice"])
    }

    @Test func invalidUTF8NamesTheDocumentAndByteOffset() throws {
        var bytes = Array("Good text here.\n\nThen a bad byte: ".utf8)
        let offset = bytes.count
        bytes += [0xC3, 0x28] + Array(" and more.\n".utf8)
        try expectFailure("""
            title: Story
            sources: [{ path: latin1.txt, encoding: utf-8 }]
            """, files: ["latin1.txt": bytes], mentions: ["latin1.txt", "invalid UTF-8", "byte offset \(offset)"])
    }

    /// With `encoding: auto` (the default) the same file is read, with a warning naming the byte.
    @Test func aStrayByteInUTF8IsReadWithAWarningNamingItsOffset() throws {
        let ws = try Workspace("stray")
        var bytes = Array("Good text here, café.\n\nThen a Latin-1 byte: ".utf8)
        let offset = bytes.count
        bytes += [0xE9] + Array(" and more.\n".utf8)
        try Data(bytes).write(to: ws.url.appendingPathComponent("stray.txt"))
        let manifest = try ws.write("job.yml", "title: Story\nsources: [stray.txt]\n")
        let result = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("lectern: warning: "), "\(result.stderr)")
        #expect(result.stderr.contains("stray.txt") && result.stderr.contains("byte offset \(offset)"), "\(result.stderr)")
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/job/job.timings.json"))
        #expect(sidecar.chapters.flatMap(\.paragraphs).map(\.text) == ["Good text here, café.", "Then a Latin-1 byte: é and more."])
    }

    @Test func invalidYAMLNamesTheLine() throws {
        try expectFailure("""
            title: Story
            sources: [story.txt
            voice: { name: en }
            """, mentions: ["job.yml:", "not valid YAML"])
    }

    @Test func missingManifestIsAnError() throws {
        let ws = try Workspace("bad")
        let result = try Tool.lectern(["run", ws.url.appendingPathComponent("nope.yml").path], db: ws.db)
        #expect(result.status != 0)
        #expect(result.stderr.contains("nope.yml"))
    }
}
