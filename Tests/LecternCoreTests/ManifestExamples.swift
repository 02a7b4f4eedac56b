import Foundation
import LecternCore

/// Manifests that give one key of ``ManifestSchema`` a value, for the tests that go through
/// every key: a workspace with the files the keys' examples name, and a manifest around a key.
enum ManifestExamples {
    /// A folder with a `Config` (a voice preset), the files the examples name, and a source of each format.
    static func workspace() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("Config/defaults.yml", "voice: { name: en }\n")
        try dir.write("Config/voices.yml", "narrator: { name: en-gb, rate: 0.4 }\n")
        for file in ["a.txt", "a.md", "a.html", "a.epub", "book.txt", "cover.jpg", "names.yml", "voices/my-voice.onnx"] {
            try dir.write(file, file == "names.yml" ? "words:\n  Lectern: lecturn\n" : "Some text.\n")
        }
        return dir
    }

    /// A manifest giving `key` the YAML `value` (flow style, on the last line), with what it needs
    /// beside it: a title, a source (of a format the key applies to), an override's chapter.
    static func manifest(_ key: ManifestKey, value: String) -> String {
        let ext = formats(of: key).map { ["text": "txt", "markdown": "md", "html": "html", "epub": "epub"][$0[0].rawValue]! } ?? "txt"
        func entry(_ parts: ArraySlice<String>) -> String {
            let first = parts.first!, rest = parts.dropFirst()
            switch first {
            case "sources[]": return "sources: [{ " + (rest == ["path"] ? "path: \(value)" : "path: a.\(ext), " + entry(rest)) + " }]"
            case "overrides[]": return "overrides: [{ " + (rest == ["chapter"] ? "chapter: \(value)" : "chapter: 1, " + entry(rest)) + " }]"
            default:
                let name = first == "*" ? (key.path.hasPrefix("languages") ? "fr" : "paragraph") : first
                return rest.isEmpty ? "\(name): \(value)" : "\(name): { \(entry(rest)) }"
            }
        }
        var lines: [String] = []
        if key.path != "title" { lines.append("title: T") }
        if !key.path.hasPrefix("sources") { lines.append("sources: [a.txt]") }
        if key.path == "series_index" { lines.append("series: S") }
        lines.append(entry(key.path.components(separatedBy: ".")[...]))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The formats a key, or the nearest key above it, applies to (nil: all).
    static func formats(of key: ManifestKey) -> [Source.Format]? {
        var path = key.path
        while true {
            if let formats = path == key.path ? key.formats : ManifestSchema.key(path)?.formats { return formats }
            guard let dot = path.lastIndex(of: ".") else { return nil }
            path = String(path[..<dot])
        }
    }

    /// The key's path with a concrete entry for `[]` and `*`, as errors name it.
    static func concretePath(_ key: ManifestKey) -> String {
        key.path.replacingOccurrences(of: "[]", with: "[1]")
            .replacingOccurrences(of: "*", with: key.path.hasPrefix("languages") ? "fr" : "paragraph")
    }

    static func load(_ yaml: String, in dir: TempDir) throws -> Manifest {
        let url = try dir.write("book.yml", yaml)
        return try ManifestLoader(configDirectory: dir.url.appendingPathComponent("Config")).load(url)
    }
}
