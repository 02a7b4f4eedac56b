import Foundation
import LecternCore

extension SpokenForms {
    /// The spoken-form rules in `configDirectory/spoken/*.yml` (one file per language, named by
    /// its language: `en.yml`), read once. With no config folder, or one without a `spoken`
    /// folder, the built-in English rules (``builtInEnglish``, a copy of `Config/spoken/en.yml`).
    ///
    /// - throws: ``ManifestError`` naming the file, line and key of a malformed rule.
    public static func load(configDirectory: URL?, urls: URLReading = .domain) throws -> SpokenForms {
        let folder = configDirectory?.appendingPathComponent("spoken")
        var isDirectory: ObjCBool = false
        guard let folder, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return SpokenForms(rules: [try SpokenRules.parse(yaml: builtInEnglish, file: "built-in spoken forms (en)", language: "en")], urls: urls)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") && ["yml", "yaml"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        var rules: [SpokenRules] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                throw ManifestError(file: url.path, message: "cannot read the spoken-form rules (not readable or not UTF-8)")
            }
            rules.append(try SpokenRules.parse(yaml: text, file: url.path, language: (name as NSString).deletingPathExtension))
        }
        return SpokenForms(rules: rules, urls: urls)
    }
}
