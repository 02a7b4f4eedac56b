import Foundation

/// Where the Piper engine's parts are: onnxruntime's library and the prepared voices, which
/// `make piper` installs into `.piper/` of the checkout (`LECTERN_PIPER_HOME` names another folder).
public struct PiperInstallation: Sendable, Equatable {
    /// The folder `make piper` installs into.
    public var folder: URL

    public init(folder: URL) { self.folder = folder }

    /// `$LECTERN_PIPER_HOME`, else `.piper/` of the checkout this file was built from.
    public static var `default`: PiperInstallation {
        if let home = ProcessInfo.processInfo.environment["LECTERN_PIPER_HOME"], !home.isEmpty {
            return PiperInstallation(folder: URL(fileURLWithPath: home, isDirectory: true))
        }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return PiperInstallation(folder: checkout.appendingPathComponent(".piper", isDirectory: true))
    }

    /// onnxruntime's library (with its C API), as the pinned PyPI wheel sherpa-onnx-core ships it
    /// (see docs/SPEECH.md, "The Piper engine", for why that wheel).
    public var library: URL { folder.appendingPathComponent("sherpa_onnx/lib/libonnxruntime.so") }
    /// The voices prepared by Scripts/prepare-piper-voice.py: `NAME.onnx` and `NAME.onnx.json`.
    public var voicesFolder: URL { folder.appendingPathComponent("voices", isDirectory: true) }

    /// The model of the prepared voice `name` (e.g. `en_US-joe-medium`).
    public func model(named name: String) -> URL { voicesFolder.appendingPathComponent(name + ".onnx") }

    /// The names of the prepared voices, sorted.
    public func voiceNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: voicesFolder.path)) ?? []
        return files.filter { $0.hasSuffix(".onnx") }.map { String($0.dropLast(".onnx".count)) }.sorted()
    }

    /// Why the Piper engine cannot run here, or nil when it can: onnxruntime is not installed.
    public var problem: String? {
        guard FileManager.default.fileExists(atPath: library.path) else {
            return "the Piper engine is not installed: \(library.path) is missing (run `make piper`)"
        }
        return nil
    }
}
