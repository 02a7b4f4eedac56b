/// One key a manifest (or `Config/defaults.yml`) may hold, declared once in ``ManifestSchema``:
/// where it is, what it takes (``Values``: a typed range or choices), its default, how a
/// manifest's value meets the defaults', the source formats it applies to, its documentation
/// and — for a key whose value is one scalar — how it is read into a layer and merged
/// (``LayerField``), in the spirit of ArgumentParser's `@Option`.
public struct ManifestKey: Sendable {
    /// The shape of a key's value.
    public enum Kind: String, Sendable {
        case text, path, number, wholeNumber = "whole number", bool = "true or false", choice = "one of"
        case list, mapping, voice, textOrList = "text or list", choiceOrMapping = "word or mapping"
        case voiceOrName = "voice name or voice", cron = "cron expression", languageTag = "language tag"

        /// A value of another shape, which the parser refuses naming the key.
        public var wrongShape: String {
            switch self {
            case .mapping, .voice: return "7"
            case .list, .textOrList, .choiceOrMapping, .voiceOrName: return "[[nested, list]]"
            default: return "{ wrong: shape }"
            }
        }
    }

    /// How a manifest's value meets the one of `Config/defaults.yml` (and the built-in defaults).
    public enum Merge: String, Sendable, CaseIterable {
        /// The manifest's value replaces the defaults'.
        case replace
        /// Each field the manifest gives replaces the defaults' (a voice: another engine drops the name and model below).
        case fieldByField = "field by field"
        /// Each entry the manifest gives replaces the defaults' entry of that name; the others stay.
        case perEntry = "per entry"
        /// The defaults' entries, then the manifest's.
        case append
        /// The manifest's entries, then the defaults' (the first one wins).
        case prepend
        /// Part of the value above it, which merges as that says.
        case withParent = "with its parent"

        /// One line for the documentation.
        public var explanation: String {
            switch self {
            case .replace: return "the manifest's value replaces the defaults'"
            case .fieldByField: return "each field given replaces the defaults' (another engine drops the name and model below)"
            case .perEntry: return "each entry given replaces the defaults' entry of that name, the others stay"
            case .append: return "the defaults' entries, then the manifest's"
            case .prepend: return "the manifest's entries, then the defaults' (the first wins)"
            case .withParent: return "as part of the value above it"
            }
        }
    }

    /// The dotted path: `voice.rate`, `sources[].encoding`, `pauses.*.before` (`*`: any key of
    /// the mapping above, `[]`: each entry of the list above).
    public var path: String
    public var kind: Kind
    /// The values it takes: the parser's range or choices, and the documentation's.
    public var values: Values?
    /// The values it takes, as the documentation shows them (`0…1`, `sentences, captions`).
    public var range: String? { values?.documented }
    /// The default when neither the manifest nor the defaults give it, as the documentation shows it.
    public var defaultValue: String?
    /// What it does, in one line.
    public var doc: String
    /// More about it, for the README's reference and the manual (Markdown: `code`, no tables).
    public var details: String?
    public var merge: Merge
    /// The source formats it applies to (nil: all).
    public var formats: [Source.Format]?
    /// A value the parser accepts, in YAML's flow style (for `lectern init`'s template and the tests).
    public var example: String
    /// Whether only `Config/defaults.yml` may give it (about the host, not a book).
    public var onlyInDefaults = false
    /// How ``ManifestLayer/parse(yaml:file:presets:isDefaults:)`` reads its value and the merge
    /// meets it, when the generic reading does (nil: hand-written parsing reads it).
    var field: LayerField?

    /// Declares a key.
    ///
    /// - parameters:
    ///     - values: The values it takes, typed, when the parser checks them against a range or choices.
    ///     - range: The values it takes, in words, when its parser checks them in its own way.
    public init(_ path: String, _ kind: Kind, values: Values? = nil, range: String? = nil, default defaultValue: String? = nil, doc: String,
                details: String? = nil, merge: Merge = .replace, formats: [Source.Format]? = nil, example: String,
                onlyInDefaults: Bool = false) {
        self.path = path
        self.kind = kind
        self.values = values ?? range.map(Values.described)
        self.defaultValue = defaultValue
        self.doc = doc
        self.details = details
        self.merge = merge
        self.formats = formats
        self.example = example
        self.onlyInDefaults = onlyInDefaults
    }

    /// This key, read into a layer and merged by `field`.
    func reading(_ field: LayerField) -> ManifestKey {
        var key = self
        key.field = field
        return key
    }

    /// The path of the mapping or list it is in (`""` for a top-level key).
    public var parent: String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    /// Its own name within its parent (`rate` for `voice.rate`).
    public var name: String {
        guard let dot = path.lastIndex(of: ".") else { return path }
        return String(path[path.index(after: dot)...])
    }

    /// How deep it is: 0 for a top-level key.
    public var depth: Int { path.filter { $0 == "." }.count }
}
