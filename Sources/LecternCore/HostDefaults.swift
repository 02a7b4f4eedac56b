import Foundation
import Yams

/// What `Config/defaults.yml` says about this host rather than about books: the job store
/// (`store: sqlite:PATH | postgres://…`) and the chunk folder shared by hosts (`chunks: DIR`),
/// relative paths read from the Config folder. `--store`/`--chunks` and `$LECTERN_STORE`/
/// `$LECTERN_CHUNKS` win over them.
public struct HostDefaults: Sendable, Equatable {
    public var store: String?
    public var chunks: String?

    public init(store: String? = nil, chunks: String? = nil) {
        self.store = store
        self.chunks = chunks
    }

    /// Reads the Config folder found as manifests find it (`$LECTERN_CONFIG`, else walking up
    /// from `folder`); none: no host defaults.
    ///
    /// - throws: ``ManifestError`` naming defaults.yml, its line and the key when a value is not text.
    public static func load(near folder: URL) throws -> HostDefaults {
        guard let config = try ManifestLoader.findConfig(near: folder) else { return HostDefaults() }
        let url = config.appendingPathComponent("defaults.yml")
        guard let text = try? String(contentsOf: url, encoding: .utf8),
              let root = try ManifestLayer.composeChecked(text, file: url.path) else { return HostDefaults() }
        let top = try YAMLValue(node: root, key: "", file: url.path).mapping(schema: "", inDefaults: true)
        func path(_ key: String) throws -> String? {
            guard let value = try top[key]?.string(), !value.isEmpty else { return nil }
            if value.hasPrefix("/") || value.contains("://") || value.hasPrefix("sqlite:") && value.dropFirst(7).hasPrefix("/") { return value }
            if value.hasPrefix("sqlite:") { return "sqlite:" + config.appendingPathComponent(String(value.dropFirst(7))).standardizedFileURL.path }
            return config.appendingPathComponent((value as NSString).expandingTildeInPath).standardizedFileURL.path
        }
        return HostDefaults(store: try path("store"), chunks: try path("chunks"))
    }
}
