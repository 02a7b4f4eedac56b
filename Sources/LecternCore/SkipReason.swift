/// Why a passage of the input is not narrated: every reason the reading pass and the segmenter
/// give, each spelled once, in ``rawValue``.
///
/// The spelling is what the sidecar's `skipped` list, `lectern check`, `lectern init`'s comments
/// and a run's report show, so it never changes. A sidecar an earlier Lectern wrote may hold a
/// reason this one no longer gives: it is read as ``unrecognised(_:)``, spelled as it was.
/// (Not `RawRepresentable`: its default `==` and hashing go through `rawValue`, which looks the
/// reason up by hashing it.)
public enum SkipReason: Sendable, Hashable, Codable, CustomStringConvertible {
    // A Project Gutenberg plain-text book's furniture.
    case gutenbergHeader, gutenbergLicence, producersCredit, transcribersNote, transcribersNotation
    // Front and back matter found by its words (plain text, and HTML read as a stream).
    case titlePage, contentsList, illustrationsList, index, advertisements, colophon, errata, glossary
    // Marks and notes.
    case pageNumber, illustration, footnoteLabel, footnotesHeading, footnoteReference, footnote, backLink
    // Tables (`tables:`) and plain text's columns.
    case table, tableSkipped, tableHeader, tableSummarised
    // What an HTML or EPUB document shows but does not read.
    case contentsLinks, navigation, image, drawing, mathematics, runningHead, runningFoot
    // Markdown's code and markup.
    case codeBlock, rawHTML, inlineHTML, templateTag
    // Plays (`stage_directions: skip`); a speaker label not spoken (`speaker_labels: silent`, the
    // default with a cast); a block the segmenter finds no words to speak in.
    case stageDirection, silentSpeakerLabel, punctuationOnly
    /// Text before the first chapter heading.
    case frontMatter
    /// The text `start_at`'s pattern matched (it is not read; `start_after` reads on after it).
    case startMarker(pattern: String)
    /// The text `end_at`'s pattern matched.
    case endMarker(pattern: String)
    /// Before an excerpt's start, with the manifest key that set it when the plain-text reader
    /// names it (`start_at`, `start_after`).
    case beforeStartMarker(pattern: String, key: String?)
    /// After an excerpt's end, with the manifest key (`end_at`) when the plain-text reader names it.
    case afterEndMarker(pattern: String, key: String?)
    /// A paragraph one of the source's `skip` patterns matched.
    case skipPattern(String)
    /// Front or back matter an EPUB marks (`epub:type`, `doc-` roles, landmarks), skipped by
    /// `matter:`: the part as a reader says it ("copyright page") and its side (`front`, `back`).
    case matter(String, side: String)
    /// An EPUB content document that is not well-formed XHTML, with the parser's error.
    case malformedXHTML(path: String, error: String)
    /// A table-of-contents entry whose target (`path#id`) does not exist.
    case missingContentsTarget(String)
    /// A spine item marked `linear="no"`.
    case nonlinearSpineItem(path: String)
    /// An entity reference that is not an HTML entity.
    case unknownEntity(String)
    /// A chapter an override skips.
    case chapterOverride(number: Int, title: String)
    /// A reason read from a sidecar that this Lectern does not give: never made by the reading pass.
    case unrecognised(String)

    /// The reasons without parameters, each spelled as listed.
    static let fixed: [SkipReason: String] = [
        .gutenbergHeader: "Project Gutenberg header", .gutenbergLicence: "Project Gutenberg licence",
        .producersCredit: "producer's credit", .transcribersNote: "transcriber's note",
        .transcribersNotation: "transcriber's notation",
        .titlePage: "title page", .contentsList: "contents list", .illustrationsList: "list of illustrations",
        .index: "index", .advertisements: "advertisements", .colophon: "colophon", .errata: "errata",
        .glossary: "glossary (back matter)",
        .pageNumber: "page number", .illustration: "illustration", .footnoteLabel: "footnote label",
        .footnotesHeading: "footnotes heading", .footnoteReference: "footnote reference",
        .footnote: "footnote (footnotes: skip)", .backLink: "back-link",
        .table: "table", .tableSkipped: "table (tables: skip)", .tableHeader: "table header (read with each row)",
        .tableSummarised: "table (tables: summary)",
        .contentsLinks: "table of contents (links within the book)", .navigation: "navigation", .image: "image",
        .drawing: "drawing (SVG)", .mathematics: "mathematics (MathML)", .runningHead: "running head",
        .runningFoot: "running foot",
        .codeBlock: "code block", .rawHTML: "raw HTML", .inlineHTML: "inline HTML", .templateTag: "template tag",
        .stageDirection: "stage direction (stage_directions: skip)",
        .silentSpeakerLabel: "speaker label (silent: the voice says who speaks)",
        .punctuationOnly: "no words to speak (punctuation only)",
        .frontMatter: "front matter before the first chapter",
    ]

    private static let byText = Dictionary(uniqueKeysWithValues: fixed.map { ($0.value, $0.key) })

    /// The reason as the sidecar, `lectern check` and the report spell it.
    public var rawValue: String {
        if let text = Self.fixed[self] { return text }
        switch self {
        case .startMarker(let p): return "start marker /\(p)/"
        case .endMarker(let p): return "end marker /\(p)/"
        case .beforeStartMarker(let p, let key): return "before the start marker /\(p)/" + (key.map { " (\($0))" } ?? "")
        case .afterEndMarker(let p, let key): return "after the end marker /\(p)/" + (key.map { " (\($0))" } ?? "")
        case .skipPattern(let p): return "matches skip pattern /\(p)/"
        case .matter(let part, let side): return "\(part) (matter: \(side))"
        case .malformedXHTML(let path, let error): return "malformed XHTML in \(path), \(error)"
        case .missingContentsTarget(let target): return "the table of contents points at \(target), which does not exist"
        case .nonlinearSpineItem(let path): return "spine item \(path) is marked linear=\"no\" (nonlinear: skip)"
        case .unknownEntity(let name): return "entity &\(name); is not an HTML entity and is not expanded"
        case .chapterOverride(let number, let title): return "chapter \(number) (\(title)) skipped by an override"
        case .unrecognised(let text): return text
        default: preconditionFailure("\(Self.self) has no spelling for a reason without parameters")
        }
    }

    /// The reason `text` spells; a text no reason spells is ``unrecognised(_:)``.
    public init(rawValue text: String) {
        if let reason = Self.byText[text] {
            self = reason
        } else if let reason = Self.parameterised(text) {
            self = reason
        } else {
            self = .unrecognised(text)
        }
    }

    private static func parameterised(_ text: String) -> SkipReason? {
        func inner(_ prefix: String, _ suffix: String) -> String? {
            guard text.hasPrefix(prefix), text.hasSuffix(suffix), text.count >= prefix.count + suffix.count else { return nil }
            return String(text.dropFirst(prefix.count).dropLast(suffix.count))
        }
        /// A marker's pattern and the key after it: `/P/` or `/P/ (key)`.
        func marker(_ prefix: String) -> (String, String?)? {
            guard let rest = inner(prefix + "/", "") else { return nil }
            if rest.hasSuffix(")"), let open = rest.range(of: "/ (", options: .backwards) {
                return (String(rest[..<open.lowerBound]), String(rest[open.upperBound...].dropLast()))
            }
            return rest.hasSuffix("/") ? (String(rest.dropLast()), nil) : nil
        }
        if let p = inner("start marker /", "/") { return .startMarker(pattern: p) }
        if let p = inner("end marker /", "/") { return .endMarker(pattern: p) }
        if case let (p, key)? = marker("before the start marker ") { return .beforeStartMarker(pattern: p, key: key) }
        if case let (p, key)? = marker("after the end marker ") { return .afterEndMarker(pattern: p, key: key) }
        if let p = inner("matches skip pattern /", "/") { return .skipPattern(p) }
        for side in ["front", "back"] {
            if let part = inner("", " (matter: \(side))") { return .matter(part, side: side) }
        }
        if let rest = inner("malformed XHTML in ", ""), let comma = rest.range(of: ", ") {
            return .malformedXHTML(path: String(rest[..<comma.lowerBound]), error: String(rest[comma.upperBound...]))
        }
        if let target = inner("the table of contents points at ", ", which does not exist") { return .missingContentsTarget(target) }
        if let path = inner("spine item ", " is marked linear=\"no\" (nonlinear: skip)") { return .nonlinearSpineItem(path: path) }
        if let name = inner("entity &", "; is not an HTML entity and is not expanded") { return .unknownEntity(name) }
        if let rest = inner("chapter ", ") skipped by an override"), let open = rest.range(of: " ("),
           let number = Int(rest[..<open.lowerBound]) {
            return .chapterOverride(number: number, title: String(rest[open.upperBound...]))
        }
        return nil
    }

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
