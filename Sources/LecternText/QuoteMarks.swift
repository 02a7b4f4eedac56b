/// The quotation marks of a language as ``DialogueQuotes`` reads them: which marks open a
/// quotation, which close it, which do both (straight quotes), and the family each belongs to.
///
/// A language's table settles the marks that languages use the other way round: `»Hallo«` in
/// German and Danish, `«Bonjour»` in French; `„Hallo“` closes with the mark English opens with;
/// Swedish and Finnish open and close with `”` and `»`. Every other mark means what it does in
/// English.
public struct QuoteMarks: Sendable {
    /// The kinds of quotation mark. A book quotes speech with one family (``DialogueQuotes/outer``)
    /// and quotes inside speech with another.
    public enum Family: String, Sendable, CaseIterable {
        /// `“…”`, `"…"`, `„…“`
        case double
        /// `‘…’`, `'…'`, `‚…‘`
        case single
        /// `«…»`, `»…«`
        case guillemet
        /// `‹…›`, `›…‹`
        case singleGuillemet
    }

    /// The closing marks of each opening mark (UTF-16 code units).
    let closers: [UInt16: Set<UInt16>]
    /// Marks that open and close (straight quotes; `”` in Swedish).
    let symmetric: Set<UInt16>

    static let straightDouble: UInt16 = 0x22, straightSingle: UInt16 = 0x27
    static let leftSingle: UInt16 = 0x2018, rightSingle: UInt16 = 0x2019, lowSingle: UInt16 = 0x201A
    static let leftDouble: UInt16 = 0x201C, rightDouble: UInt16 = 0x201D, lowDouble: UInt16 = 0x201E
    static let leftGuillemet: UInt16 = 0xAB, rightGuillemet: UInt16 = 0xBB
    static let leftSingleGuillemet: UInt16 = 0x2039, rightSingleGuillemet: UInt16 = 0x203A

    /// The marks of the language whose primary subtag is `language` (`en`, `de`, `fr` …; nil or
    /// unknown: English's, with `„…“` and `«…»` as well).
    public init(language: String?) {
        let primary = language.map { String($0.lowercased().prefix { $0 != "-" && $0 != "_" }) } ?? "en"
        switch primary {
        case "de", "da", "cs", "sk", "sl", "hr", "is", "lt", "et", "lv":
            closers = [Self.lowDouble: [Self.leftDouble], Self.lowSingle: [Self.leftSingle],
                       Self.rightGuillemet: [Self.leftGuillemet], Self.rightSingleGuillemet: [Self.leftSingleGuillemet]]
            symmetric = [Self.straightDouble, Self.straightSingle]
        case "sv", "fi":
            closers = [Self.leftDouble: [Self.rightDouble], Self.leftSingle: [Self.rightSingle]]
            symmetric = [Self.straightDouble, Self.straightSingle, Self.rightDouble, Self.rightGuillemet, Self.rightSingle]
        case "pl", "hu", "ro", "nl", "bg":
            closers = [Self.lowDouble: [Self.rightDouble, Self.leftDouble], Self.lowSingle: [Self.rightSingle, Self.leftSingle],
                       Self.leftDouble: [Self.rightDouble], Self.leftSingle: [Self.rightSingle],
                       Self.leftGuillemet: [Self.rightGuillemet], Self.leftSingleGuillemet: [Self.rightSingleGuillemet]]
            symmetric = [Self.straightDouble, Self.straightSingle]
        default:
            closers = [Self.leftDouble: [Self.rightDouble], Self.leftSingle: [Self.rightSingle],
                       Self.lowDouble: [Self.leftDouble, Self.rightDouble], Self.lowSingle: [Self.leftSingle, Self.rightSingle],
                       Self.leftGuillemet: [Self.rightGuillemet], Self.leftSingleGuillemet: [Self.rightSingleGuillemet]]
            symmetric = [Self.straightDouble, Self.straightSingle]
        }
    }

    /// Whether `unit` is a quotation mark of any family.
    static func isMark(_ unit: UInt16) -> Bool { family(unit) != nil }

    /// The family of a quotation mark, or nil for any other character.
    static func family(_ unit: UInt16) -> Family? {
        switch unit {
        case straightDouble, leftDouble, rightDouble, lowDouble: .double
        case straightSingle, leftSingle, rightSingle, lowSingle: .single
        case leftGuillemet, rightGuillemet: .guillemet
        case leftSingleGuillemet, rightSingleGuillemet: .singleGuillemet
        default: nil
        }
    }

    /// Whether `unit` may open a quotation in this language.
    func opens(_ unit: UInt16) -> Bool { closers[unit] != nil || symmetric.contains(unit) }

    /// Whether `unit` closes a quotation opened with `opener`.
    func closes(_ unit: UInt16, opener: UInt16) -> Bool {
        (closers[opener]?.contains(unit) ?? false) || (unit == opener && symmetric.contains(unit))
    }

    /// Whether `unit` may also be an apostrophe (`don't`, `’tis`, `dogs’`).
    static func mayBeApostrophe(_ unit: UInt16) -> Bool {
        unit == straightSingle || unit == rightSingle || unit == leftSingle
    }
}
