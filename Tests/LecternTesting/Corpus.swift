import Foundation

/// The shared corpus beside the clone (`../shared/corpus`); tests that need it are skipped without it.
public enum Corpus {
    /// The package's folder (this file is in `Tests/LecternTesting/`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    public static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) }
    public static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}
