import Foundation
import Testing
import LecternCore

/// The Config folder is found in order — `$LECTERN_CONFIG`, a project's `Config/` at or above
/// the manifest, the user's `$XDG_CONFIG_HOME/lectern` (else `~/.config/lectern`), the installed
/// `../share/lectern/Config` beside the binary — and every place looked at is listed.
struct ConfigLocationTests {
    /// A temporary tree with a Config at each kind of place, each made only when asked.
    private struct Places {
        let root: URL
        var manifestFolder: URL { root.appendingPathComponent("books/novels") }
        var project: URL { root.appendingPathComponent("books/Config") }
        var xdg: URL { root.appendingPathComponent("xdg") }
        var home: URL { root.appendingPathComponent("home") }
        var binary: URL { root.appendingPathComponent("prefix/bin/lectern") }
        var installed: URL { root.appendingPathComponent("prefix/share/lectern/Config") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("config-location-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: manifestFolder, withIntermediateDirectories: true)
        }

        func makeConfig(at folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "voice: { name: en }\n".write(to: folder.appendingPathComponent("defaults.yml"), atomically: true, encoding: .utf8)
        }

        func find(xdg useXDG: Bool = true) throws -> ConfigLocation {
            var environment = ["HOME": home.path]
            if useXDG { environment["XDG_CONFIG_HOME"] = xdg.path }
            return try ConfigLocation.find(near: manifestFolder, environment: environment, executable: binary)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func theProjectsConfigWinsOverTheUsersAndTheInstalledOne() throws {
        let places = try Places()
        defer { places.remove() }
        try places.makeConfig(at: places.installed)
        try places.makeConfig(at: places.xdg.appendingPathComponent("lectern"))
        try places.makeConfig(at: places.project)
        #expect(try places.find().folder?.path == places.project.standardizedFileURL.path)
    }

    @Test func theUsersConfigWinsOverTheInstalledOne() throws {
        let places = try Places()
        defer { places.remove() }
        try places.makeConfig(at: places.installed)
        try places.makeConfig(at: places.xdg.appendingPathComponent("lectern"))
        #expect(try places.find().folder?.path == places.xdg.appendingPathComponent("lectern").path)
        // Without XDG_CONFIG_HOME, ~/.config/lectern is the user's.
        try places.makeConfig(at: places.home.appendingPathComponent(".config/lectern"))
        #expect(try places.find(xdg: false).folder?.path == places.home.appendingPathComponent(".config/lectern").path)
    }

    @Test func theInstalledConfigIsFoundBesideTheBinary() throws {
        let places = try Places()
        defer { places.remove() }
        try places.makeConfig(at: places.installed)
        let found = try places.find()
        #expect(found.folder?.path == places.installed.path)
    }

    @Test func withNoConfigAnywhereEveryPlaceLookedAtIsListedInOrder() throws {
        let places = try Places()
        defer { places.remove() }
        let found = try places.find()
        #expect(found.folder == nil)
        let searched = found.searched
        #expect(searched.first == places.manifestFolder.appendingPathComponent("Config").standardizedFileURL.path)
        #expect(searched.contains(places.project.standardizedFileURL.path))
        let user = try #require(searched.firstIndex(of: places.xdg.appendingPathComponent("lectern").path))
        let installed = try #require(searched.firstIndex(of: places.installed.path))
        #expect(user < installed && installed == searched.count - 1)
    }

    @Test func lecternConfigWinsAndAWrongOneIsAnError() throws {
        let places = try Places()
        defer { places.remove() }
        try places.makeConfig(at: places.project)
        let own = places.root.appendingPathComponent("mine")
        try places.makeConfig(at: own)
        let found = try ConfigLocation.find(near: places.manifestFolder, environment: ["LECTERN_CONFIG": own.path], executable: places.binary)
        #expect(found.folder?.path == own.path)
        #expect(throws: ManifestError.self) {
            try ConfigLocation.find(near: places.manifestFolder, environment: ["LECTERN_CONFIG": places.root.appendingPathComponent("none").path])
        }
    }
}
