import Foundation
import LecternCore

/// Loads the lexicon files a manifest lists: Lectern's YAML form (`.yml`, `.yaml`) or W3C PLS (`.pls`).
public enum LexiconFile {
    /// - throws: ``ManifestError`` for a malformed YAML lexicon (file, line, key), ``DocumentError``
    ///   for an unreadable file or a malformed PLS document.
    public static func load(_ url: URL) throws -> Lexicon {
        let data: Data
        do { data = try LinkedFile(roots: [], maxBytes: PLSLexicon.maxInput).read(url) } catch {
            throw DocumentError(document: url.path, message: "cannot read the lexicon: it \(error.reason)")
        }
        if url.pathExtension.lowercased() == "pls" { return try PLSLexicon.parse(data, name: url.path) }
        guard let yaml = String(data: data, encoding: .utf8) else {
            throw DocumentError(document: url.path, message: "the lexicon is not valid UTF-8")
        }
        do { return try Lexicon.parse(yaml: yaml, file: url.path) } catch let problem as PronunciationProblem {
            throw DocumentError(document: url.path, message: problem.reason)
        }
    }

    public static func load(_ urls: [URL]) throws -> [Lexicon] { try urls.map(load) }
}
