import Foundation
import Testing
@testable import LecternServe

@Suite struct PathHidingTests {
    @Test func aJobsFilesByTheirNamesAndTheConfigFolderAsConfig() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hiding-\(UUID().uuidString)")
        let config = root.appendingPathComponent("Config")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: config.appendingPathComponent("defaults.yml"))
        defer { try? FileManager.default.removeItem(at: root) }
        let folders = ServiceFolders(root: root.appendingPathComponent("data"))
        let hiding = PathHiding(folders: folders, configDirectory: nil)
        let job = folders.input("0d2c").appendingPathComponent("alice.txt").path
        #expect(hiding("cannot read \(job): no such file") == "cannot read alice.txt: no such file")
        #expect(hiding("no preset (the presets of \(config.path)/voices.yml)") == "no preset (the presets of Config/voices.yml)")
        #expect(hiding("cannot write \(folders.auditions.path)/x.mp3") == "cannot write …/auditions/x.mp3")
        #expect(hiding("GET /api/v1/voices lists them") == "GET /api/v1/voices lists them")
    }
}
