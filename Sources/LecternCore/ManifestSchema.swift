/// The manifest's keys in one table (``table``), each declared once: what the parser allows
/// where, the ranges and choices it checks, how a scalar key is read and merged (``LayerField``),
/// which source formats a key applies to, the unknown-key error's suggestion, and the generated
/// documentation (``ManifestReference``) all come from it.
public enum ManifestSchema {
    /// Every key, in the documentation's order.
    public static var keys: [ManifestKey] { table }

    /// The key at `path` (`voice.rate`, `sources[].encoding`), if there is one.
    public static func key(_ path: String) -> ManifestKey? { table.first { $0.path == path } }

    /// The keys allowed in the mapping at `parent` (`""` for the top level, `sources[]`,
    /// `pauses.*`; any voice — `styles.heading`, `overrides[].voice`, `languages.fr`, a preset —
    /// has the keys of `voice`), in the table's order. `Config/defaults.yml` also allows the
    /// host's keys (`inDefaults`).
    public static func names(in parent: String, inDefaults: Bool = false) -> [String] {
        table.filter { $0.parent == parent && !$0.name.contains("*") && (inDefaults || !$0.onlyInDefaults) }.map(\.name)
    }

    /// The keys of `Config/defaults.yml` that a manifest may not give.
    public static var defaultsOnlyNames: [String] { table.filter(\.onlyInDefaults).map(\.path) }

    /// The pause kinds of `pauses:`, with their built-in defaults and what they are.
    static let pauseKinds: [(kind: String, defaults: String, doc: String)] = [
        ("paragraph", "`{ before: 0.0, after: 0.5 }`", "around a paragraph"),
        ("heading", "`{ before: 0.5, after: 1.0 }`", "around a heading"),
        ("quote", "`{ before: 0.2, after: 0.6 }`", "around a block quotation"),
        ("list_item", "`{ before: 0.0, after: 0.4 }`", "around an item of a list"),
        ("speaker", "`{ before: 0.3, after: 0.3 }`", "around a play's speaker label (`ROPER.`)"),
        ("stage_direction", "`{ before: 0.3, after: 0.5 }`", "around a play's stage direction"),
        ("chapter", "`{ before: 0.0, after: 2.0 }`", "at the start and end of every chapter, outside its blocks' own"),
        ("section", "`{ before: 1.5, after: 0.0 }`", "at a section break (`* * *`): its `before` replaces the next block's own, when longer"),
    ]

    /// Which formats each source key applies to, by its path within the source (`encoding`,
    /// `chapters.level`); a key not listed applies to all.
    static let sourceKeyFormats: [String: [Source.Format]] = {
        var formats: [String: [Source.Format]] = [:]
        for key in table where key.path.hasPrefix(sourcePrefix) {
            if let f = key.formats { formats[String(key.path.dropFirst(sourcePrefix.count))] = f }
        }
        // A value rather than a key: `chapters: toc` takes an EPUB's table of contents.
        formats["chapters.toc"] = [.epub]
        return formats
    }()

    private static let sourcePrefix = "sources[]."

    /// The message for a key not in `allowed` (the names of the mapping at `parent`): the
    /// closest allowed key, or where a host's key belongs, and the keys allowed.
    static func unknownKeyMessage(_ name: String, allowed: [String], parent: String) -> String {
        let list = "expected one of: \(allowed.joined(separator: ", "))"
        if parent.isEmpty, defaultsOnlyNames.contains(name) {
            return "unknown key in a manifest (\(name) is about this host: give it in Config/defaults.yml; \(list))"
        }
        if let close = suggestion(for: name, among: allowed) { return "unknown key; did you mean \(close)? (\(list))" }
        return "unknown key (\(list))"
    }

    /// The allowed key closest to `unknown` in spelling (edit distance at most a third of its
    /// length, at least 1), or nil.
    public static func suggestion(for unknown: String, among allowed: [String]) -> String? {
        guard unknown.count <= 64 else { return nil }
        let limit = max(1, unknown.count / 3)
        let scored = allowed.map { ($0, editDistance(unknown.lowercased(), $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The edit distance of `a` and `b`: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters (`titel` → `title` is 1), by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
