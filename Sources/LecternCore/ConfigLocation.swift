import Foundation

/// Where Lectern looks for its `Config` folder (`defaults.yml`, `voices.yml`, lexicons, spoken
/// forms), in order: `$LECTERN_CONFIG`; a `Config/` folder in the manifest's folder or up to
/// seven above it (a project's own); `$XDG_CONFIG_HOME/lectern` (else `~/.config/lectern`, the
/// user's); `../share/lectern/Config` beside the running binary (what `make install` and the
/// Debian package put there). The first that has a `defaults.yml` is used, else the built-in
/// defaults.
public struct ConfigLocation: Sendable, Equatable {
    /// The folder found, or nil: the built-in defaults apply.
    public var folder: URL?
    /// Every place looked at, in order, for messages that must say where a file was looked for.
    public var searched: [String]

    public init(folder: URL?, searched: [String]) {
        self.folder = folder
        self.searched = searched
    }

    /// How many folders above the manifest's are searched for `Config/`.
    static let levelsUp = 7

    /// Finds the Config folder for a manifest in `folder`.
    ///
    /// - parameters:
    ///     - environment: Where `LECTERN_CONFIG`, `XDG_CONFIG_HOME` and `HOME` are read.
    ///     - executable: The running binary (its links resolved), whose `../share/lectern/Config`
    ///       is the installed one.
    /// - throws: ``ManifestError`` when `LECTERN_CONFIG` names something that is not a Config
    ///   folder or its `defaults.yml`.
    public static func find(near folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment,
                            executable: URL? = runningExecutable) throws -> ConfigLocation {
        if let env = environment["LECTERN_CONFIG"], !env.isEmpty {
            return ConfigLocation(folder: try explicit(env), searched: ["$LECTERN_CONFIG (\(env))"])
        }
        var searched: [String] = []
        func found(_ candidate: URL) -> Bool {
            searched.append(candidate.path)
            return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("defaults.yml").path)
        }
        var dir = folder.standardizedFileURL
        for _ in 0...levelsUp {
            let candidate = dir.appendingPathComponent("Config")
            if found(candidate) { return ConfigLocation(folder: candidate, searched: searched) }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        if let user = userFolder(environment), found(user) { return ConfigLocation(folder: user, searched: searched) }
        if let installed = installedFolder(executable: executable), found(installed) {
            return ConfigLocation(folder: installed, searched: searched)
        }
        return ConfigLocation(folder: nil, searched: searched)
    }

    /// `$XDG_CONFIG_HOME/lectern`, else `$HOME/.config/lectern`.
    static func userFolder(_ environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("lectern")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".config/lectern")
    }

    /// `PREFIX/share/lectern/Config` for a binary in `PREFIX/bin`.
    static func installedFolder(executable: URL?) -> URL? {
        guard let executable else { return nil }
        return executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/lectern/Config").standardizedFileURL
    }

    /// The running binary, its symbolic links resolved (so a link in `/usr/bin` to an
    /// installation elsewhere finds that installation's Config).
    public static var runningExecutable: URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// The folder `$LECTERN_CONFIG` names: the Config folder or its `defaults.yml`.
    private static func explicit(_ env: String) throws -> URL {
        let url = URL(fileURLWithPath: (env as NSString).expandingTildeInPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ManifestError(file: "LECTERN_CONFIG", message: "no such file or folder: \(url.path) (give the Config folder or its defaults.yml)")
        }
        if isDirectory.boolValue {
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("defaults.yml").path) else {
                throw ManifestError(file: "LECTERN_CONFIG", message: "\(url.path) has no defaults.yml (give the Config folder or its defaults.yml)")
            }
            return url
        }
        guard url.lastPathComponent == "defaults.yml" else {
            throw ManifestError(file: "LECTERN_CONFIG", message: "\(url.path) is neither a Config folder nor its defaults.yml")
        }
        return url.deletingLastPathComponent()
    }
}
