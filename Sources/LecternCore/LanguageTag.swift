import Foundation

/// BCP 47 language tags as documents (`lang`, `xml:lang`, `dc:language`) and manifests
/// (`languages:`) write them, matched the way RFC 4647 "lookup" does: the whole tag, then ever
/// shorter prefixes down to the language subtag, case-insensitively.
public enum LanguageTag {
    /// The tags that name no language to switch to: undetermined, several, no linguistic content.
    public static let unswitched: Set<String> = ["und", "mul", "zxx"]

    /// The tag lowercased with `_` read as `-`, or nil when it names no language a voice could
    /// speak: empty, `und`, `mul`, `zxx`, or private use (`x-…`).
    public static func meaningful(_ tag: String?) -> String? {
        guard let tag else { return nil }
        let t = tag.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().replacingOccurrences(of: "_", with: "-")
        let primary = self.primary(t)
        guard !t.isEmpty, !unswitched.contains(primary), primary != "x", primary != "i",
              primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return t
    }

    /// The language subtag, lowercased (`de-AT` → `de`).
    public static func primary(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// The tag and its shorter forms, longest first (`zh-hant-tw`, `zh-hant`, `zh`); a
    /// single-letter subtag (an extension or private use) goes with everything after it.
    public static func lookup(_ tag: String) -> [String] {
        var parts = tag.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        if let single = parts.indices.dropFirst().first(where: { parts[$0].count == 1 }) { parts = Array(parts[..<single]) }
        var result: [String] = []
        while !parts.isEmpty {
            result.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        return result
    }
}
