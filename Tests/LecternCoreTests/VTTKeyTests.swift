import Foundation
import Testing
import LecternCore

/// The manifest's `vtt:` key: which cues the WebVTT export writes.
@Suite struct VTTKeyTests {
    func load(_ yaml: String) throws -> Manifest {
        let dir = try TempDir()
        defer { dir.remove() }
        try dir.write("a.txt")
        return try ManifestLoader(configDirectory: nil).load(try dir.write("book.yml", "title: T\nsources: [a.txt]\n" + yaml))
    }

    @Test func sentencesByDefaultCaptionsWhenAsked() throws {
        #expect(try load("timings: [vtt]\n").vtt == .sentences)
        #expect(try load("timings: [vtt]\nvtt: sentences\n").vtt == .sentences)
        #expect(try load("timings: [vtt]\nvtt: captions\n").vtt == .captions)
    }

    @Test func anUnknownValueNamesLineKeyAndTheChoices() throws {
        do {
            _ = try load("timings: [vtt]\nvtt: subtitles\n")
            Issue.record("expected a ManifestError")
        } catch let error as ManifestError {
            #expect(error.line == 4 && error.key == "vtt")
            #expect(error.message.contains("sentences") && error.message.contains("captions") && error.message.contains("\"subtitles\""), "\(error.message)")
        }
    }
}
