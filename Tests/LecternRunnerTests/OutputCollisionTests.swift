import Foundation
import Testing
import LecternCore
import LecternTestSupport
@testable import LecternRunner

/// No output of a job may be one of its inputs, however the two paths are written: generated
/// manifests whose outputs collide with each kind of input in each way a path can name a file
/// (the same name, a `..` path, a symbolic link, a hard link, a linked folder, a temporary's
/// name) are all refused, naming both paths and the key to change; the same manifests with the
/// output elsewhere pass.
struct OutputCollisionTests {
    @Test func everyCollisionIsRefusedAndEveryOtherOutputPasses() throws {
        var random = SeededGenerator(seed: 22)
        var refused = 0
        for input in CollidingJob.Input.allCases {
            for way in CollidingJob.Way.allCases {
                for format in [nil] + TimingFormat.allCases.map(Optional.some) {
                    let name = CollidingJob.names.randomElement(using: &random)!
                    for collide in [true, false] {
                        guard let job = try CollidingJob(input: input, way: way, format: format, name: name, collide: collide) else { continue }
                        defer { job.remove() }
                        let what = "\(input) \(way) \(format.map(\.rawValue) ?? "mp3") name \(name.debugDescription) collide \(collide)"
                        let manifest = try ManifestLoader().load(job.manifest)
                        if collide {
                            let error = try #require(throws: ManifestError.self, "\(what)") { try OutputCollision.check(manifest) }
                            let text = error.description
                            #expect(text.contains(UserText.escapingControls(job.input.lastPathComponent)), "\(what): \(text)")
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("collision-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<p>Hello there.</p>".utf8).write(to: folder.appendingPathComponent("page.html"))
        let sheet = folder.appendingPathComponent("other.vtt")
        try Data("p { }".utf8).write(to: sheet)
        let manifestURL = folder.appendingPathComponent("page.yml")
        try Data("title: Page\noutput: .\nsources: [page.html]\ntimings: [json, vtt]\nname: other\n".utf8).write(to: manifestURL)
        let manifest = try ManifestLoader(configDirectory: nil).load(manifestURL)
        #expect(throws: Never.self) { try OutputCollision.check(manifest) }
        let error = try #require(throws: ManifestError.self) { try OutputCollision.check(manifest, linkedFiles: [sheet]) }
        #expect(error.description.contains("a file the documents link"), "\(error)")
    }
}
