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

    /// Whether `tag` has the shape of a BCP 47 language tag: a language subtag of 2–3 letters,
    /// then optionally extended languages (3 letters), a script (4 letters), a region (2 letters
    /// or 3 digits), variants (5–8 characters, or a digit and 3), extensions and private use.
    /// `no-such-voice-xyz` is not one; `de-DE`, `zh-Hant-TW`, `sr-Latn`, `es-419` are.
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.lowercased().replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        let letters = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isLetter } }
        let digits = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        let alnum = { (s: Substring) in s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        var stage = 0  // 0: extlang, 1: script, 2: region, 3: variants
        for part in parts.dropFirst() {
            if part.count == 1 { return alnum(part) }  // extensions and private use: anything after
            if stage == 0, part.count == 3, letters(part) { continue }
            if stage <= 1, part.count == 4, letters(part) { stage = 2; continue }
            if stage <= 2, (part.count == 2 && letters(part)) || (part.count == 3 && digits(part)) { stage = 3; continue }
            if (5...8).contains(part.count) && alnum(part) || part.count == 4 && part.first!.isNumber && alnum(part) { stage = 3; continue }
            return false
        }
        return true
    }

    /// The tag and its shorter forms, longest first (`zh-hant-tw`, `zh-hant`, `zh`); a
    /// single-letter subtag (an extension or private use) goes with everything after it. A
    /// string that is not a well-formed tag (a voice name such as `no-such-voice`) is only itself.
    public static func lookup(_ tag: String) -> [String] {
        guard isWellFormed(tag) else { return [tag.lowercased()] }
        let whole = tag.lowercased().replacingOccurrences(of: "_", with: "-")
        var parts = whole.split(separator: "-").map(String.init)
        if let single = parts.indices.dropFirst().first(where: { parts[$0].count == 1 }) { parts = Array(parts[..<single]) }
        var result = [whole]
        while !parts.isEmpty {
            let shorter = parts.joined(separator: "-")
            if shorter != whole { result.append(shorter) }
            parts.removeLast()
        }
        return result
    }
}
