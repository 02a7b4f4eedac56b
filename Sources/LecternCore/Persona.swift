/// Who speaks a play's speech: a persona found by its speaker label (`LADY MACBETH.`, an HTML
/// `span.speaker`, a Standard Ebooks `z3998:persona`), with the one name every spelling of the
/// label shares and the name a reader is shown.
public struct Persona: Sendable, Hashable, Codable {
    /// The label normalised (``key(_:)``): `LADY MACBETH.`, `Lady Macbeth` and `LADY  MACBETH`
    /// are all `LADY MACBETH`. Casts and pools are keyed by it.
    public var key: String
    /// The name shown in outputs (``displayName(_:)``): `Lady Macbeth`.
    public var name: String

    /// The persona a speaker label names, or nil for a label with no letters.
    public init?(label: String) {
        let key = Self.key(label)
        guard key.contains(where: \.isLetter) else { return nil }
        self.key = key
        name = Self.displayName(label)
    }

    public init(key: String, name: String) {
        self.key = key
        self.name = name
    }

    /// The label as one persona's name: its final period or colon (and any brackets around it)
    /// gone, whitespace collapsed, curly apostrophes straight, upper case.
    public static func key(_ label: String) -> String {
        trimmed(label).replacingOccurrences(of: "’", with: "'").uppercased()
    }

    /// The label as a name to show: a label written in capitals (`MRS. UPJOHN.`) in title case
    /// (`Mrs. Upjohn`, `O'Brien`, `Jean-Paul`, `Some of the Others`), one written otherwise as it
    /// is; its final period gone.
    public static func displayName(_ label: String) -> String {
        let text = trimmed(label)
        guard !text.contains(where: \.isLowercase) else { return text }
        var out = ""
        var startOfWord = true
        var previous: Character = " "
        var wordLength = 0
        for ch in text {
            if ch.isLetter {
                // `O'BRIEN`, `D'ARCY`: a single letter and an apostrophe start a name of their own.
                let afterElision = (previous == "'" || previous == "’") && wordLength == 2
                out += startOfWord || afterElision ? String(ch).uppercased() : String(ch).lowercased()
                startOfWord = false
                wordLength += 1
            } else {
                out.append(ch)
                startOfWord = ch == " " || ch == "-"
                wordLength = startOfWord ? 0 : wordLength + 1
            }
            previous = ch
        }
        // English title case keeps its little words small, but the first.
        let words = out.split(separator: " ", omittingEmptySubsequences: false)
        return words.enumerated().map { i, word in
            i > 0 && Self.smallWords.contains(word.lowercased()) ? word.lowercased() : String(word)
        }.joined(separator: " ")
    }

    /// Articles, conjunctions and short prepositions, lower case inside a title-cased name.
    static let smallWords: Set<String> = ["a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to", "with"]

    private static func trimmed(_ label: String) -> String {
        var text = label.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let trailing: Set<Character> = [".", ":", " ", "]", ")", "—", "-"]
        while let last = text.last, trailing.contains(last) { text.removeLast() }
        while let first = text.first, first == "[" || first == "(" || first == " " { text.removeFirst() }
        return text
    }
}
