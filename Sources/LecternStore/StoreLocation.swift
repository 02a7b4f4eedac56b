import Foundation

/// Where the job store (and the chunk cache beside it) lives when no `--db` is given, so that a
/// job finds its store and cache from whatever folder it is run: `$LECTERN_DB`; else the
/// `.lectern/lectern.sqlite` of the nearest folder, from the manifest's (or the current folder)
/// upwards, that has a `.lectern/` folder; else the per-user state folder
/// (`$XDG_STATE_HOME/lectern`, by default `~/.local/state/lectern`).
public enum StoreLocation {
    public static let folderName = ".lectern"
    public static let fileName = "lectern.sqlite"

    /// - parameters:
    ///   - explicit: `--db`, which wins.
    ///   - start: The folder to search upwards from (the first manifest's, or the current folder).
    public static func resolve(explicit: String?, start: URL,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let env = environment["LECTERN_DB"], !env.isEmpty { return URL(fileURLWithPath: env) }
        var folder = start.standardizedFileURL
        while true {
            let candidate = folder.appendingPathComponent(folderName)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), isFolder.boolValue {
                return candidate.appendingPathComponent(fileName)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return userStateFolder(environment).appendingPathComponent(fileName)
    }

    /// `$XDG_STATE_HOME/lectern`, else `$HOME/.local/state/lectern`.
    public static func userStateFolder(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("lectern")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/lectern")
    }
}
