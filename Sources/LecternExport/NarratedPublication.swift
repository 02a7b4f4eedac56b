import Foundation
import LecternCore

/// What a narrated EPUB says about itself that its source does not: an identifier of its own
/// (derived from its content, so the same book gives the same one), the source's identifiers as
/// `dc:source`, its narrator, and the accessibility metadata a reading system and Ace by DAISY
/// look for (`schema:accessMode`, `accessModeSufficient`, `accessibilityFeature`,
/// `accessibilityHazard`, `accessibilitySummary`).
public struct NarratedPublication: Sendable, Equatable {
    /// `urn:uuid:…`, the package's unique identifier.
    public var identifier: String
    /// The source's identifiers (its `dc:identifier`, `urn:isbn:…`), for `dc:source`.
    public var sources: [String]
    /// `media:narrator`.
    public var narrator: String
    /// Whether the publication holds a picture (its cover), which makes `visual` an access mode.
    public var hasCover: Bool

    public init(identifier: String, sources: [String], narrator: String, hasCover: Bool) {
        self.identifier = identifier
        self.sources = sources
        self.narrator = narrator
        self.hasCover = hasCover
    }

    /// The publication for a manifest's book: its own identifier from `contentHash` (hex), the
    /// source identifier and ISBN as sources, the manifest's narrator or the speech engine.
    public init(contentHash: String, details: BookDetails, hasCover: Bool) {
        var sources: [String] = []
        if let id = details.sourceIdentifier { sources.append(id) }
        if let isbn = details.isbn, !sources.contains(where: { BookDetails.isbn($0) == isbn }) { sources.append("urn:isbn:\(isbn)") }
        self.init(identifier: Self.uuid(contentHash), sources: sources, narrator: details.narrator ?? BookDetails.speechEngineNarrator,
                  hasCover: hasCover)
    }

    /// A name-based (version 5 layout) `urn:uuid:` made of the first 128 bits of a hex digest.
    public static func uuid(_ hex: String) -> String {
        var digits = Array(hex.lowercased().filter(\.isHexDigit).prefix(32))
        while digits.count < 32 { digits.append("0") }
        digits[12] = "5"
        let variant = Int(String(digits[16]), radix: 16)! & 0x3 | 0x8
        digits[16] = Character(String(variant, radix: 16))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }
        return "urn:uuid:" + groups.joined(separator: "-")
    }

    /// The sentence `schema:accessibilitySummary` states.
    public static let summary = "The full text with synchronized narration: every sentence and word of the text is highlighted "
        + "as the recorded speech reads it (EPUB media overlays), in reading order, with a table of contents and headings for "
        + "navigation. The speech is synthesized (eSpeak NG). No flashing, sound or motion hazards."

    /// The accessibility metadata as (property, value) pairs, in the order they are written.
    public var accessibility: [(property: String, value: String)] {
        var metas: [(String, String)] = [("schema:accessMode", "textual"), ("schema:accessMode", "auditory")]
        if hasCover { metas.append(("schema:accessMode", "visual")) }
        metas += [("schema:accessModeSufficient", "textual"), ("schema:accessModeSufficient", "auditory"),
                  ("schema:accessModeSufficient", "textual,auditory")]
        metas += ["synchronizedAudioText", "readingOrder", "tableOfContents", "structuralNavigation"].map { ("schema:accessibilityFeature", $0) }
        metas += [("schema:accessibilityHazard", "none"), ("schema:accessibilitySummary", Self.summary)]
        return metas
    }
}
