import Foundation

/// What a transcriber's note says its codes stand for, when it names a letter: `[/o] = ø`,
/// `[)a] = a with breve`, `[=e]: e with a macron`, `[ae] represents the ae-ligature`,
/// `o with stroke is shown as [/o]`. A code so defined is read as that letter, never silenced
/// together with it. Also whether the book writes `o/` for ø (``AccentCodes``).
enum AccentDefinitions {
    /// `[code] = description`, `[code] represents …`, `[code] stands for …`.
    static let forward = LinePattern(
        #"\[([^\[\]\n]{1,6})\]\s*(?:=|:|represents|stands\s+for|is\s+used\s+for|for)\s*([^,;\n\[\]]{1,40})"#,
        caseInsensitive: true)
    /// `description is shown as [code]`, `… represented by [code]`.
    static let backward = LinePattern(
        #"(?:^|[,;.(]\s*|\b(?:an?|the)\s+)([^,;.\n\[\]]{1,40}?)\s+(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+)?(?:shown|represented|written|transcribed|indicated|rendered)\s+(?:as|by|with)\s+\[([^\[\]\n]{1,6})\]"#,
        caseInsensitive: true)
    /// `a with breve`, `o-umlaut`, `e with an acute accent`, `n with tilde above`.
    static let described = LinePattern(
        #"^([A-Za-z])(?:\s+with\s+(?:an?\s+|the\s+)?|[- ])(double\s+acute|acute|grave|circumflex|dia?e?resis|umlaut|tilde|cedilla|macron|breve|caron|h[aá][cč]ek|ring|dot|stroke|slash|bar|ogonek)(\s+(?:accent\s+)?below)?\b"#,
        caseInsensitive: true)
    static let ligature = LinePattern(#"^(?:(ae|oe)[- ]ligature|ligature\s+(?:of\s+)?(ae|oe)|(ae|oe)\s+diphthong)\b"#, caseInsensitive: true)
    /// A mark's name → the notation's mark for it.
    static let marks: [String: String] = [
        "acute": "'", "grave": "`", "circumflex": "^", "diaeresis": ":", "dieresis": ":", "diresis": ":", "diaresis": ":",
        "umlaut": ":", "tilde": "~", "cedilla": ",", "ogonek": ",", "macron": "=", "breve": ")", "caron": "v",
        "hacek": "v", "háček": "v", "hácek": "v", "hačék": "v", "ring": "*", "dot": ".", "stroke": "/", "slash": "/",
        "bar": "/", "double acute": "''",
    ]

    /// Bracket content → the letter the notes say it stands for.
    static func letters(in notes: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for note in notes where note.contains("[") {
            let ns = note as NSString
            for m in forward.allMatches(note) {
                if let letter = letter(described: ns.substring(with: m.range(at: 2))) { result[ns.substring(with: m.range(at: 1))] = letter }
            }
            for m in backward.allMatches(note) {
                let code = ns.substring(with: m.range(at: 2))
                if result[code] == nil, let letter = letter(described: ns.substring(with: m.range(at: 1))) { result[code] = letter }
            }
        }
        return result
    }

    /// The letter a description names: `ø`, `o with stroke`, `ae-ligature`; nil if it names none.
    static func letter(described raw: String) -> String? {
        var text = TextLines.trim(raw)
        // `a with breve` names the letter a; `a macron`, `the letter ø`, `small ae ligature` begin with words to drop.
        if !described.matches(text) {
            for word in ["an ", "a ", "the ", "letter ", "small ", "capital "] where text.lowercased().hasPrefix(word) { text = String(text.dropFirst(word.count)) }
        }
        if let first = text.unicodeScalars.first, !first.isASCII, first.properties.isAlphabetic {
            let letter = String(text.prefix(1))
            if text.dropFirst().first.map({ !$0.isLetter }) ?? true { return AccentCodes.isSpeakable(letter) ? letter : nil }
        }
        let ns = text as NSString
        if let m = ligature.firstMatch(text) {
            let pair = (1...3).lazy.compactMap { m.range(at: $0).location == NSNotFound ? nil : ns.substring(with: m.range(at: $0)) }.first ?? ""
            return AccentCodes.ligatures[pair] ?? AccentCodes.ligatures[pair.lowercased()]
        }
        guard let m = described.firstMatch(text) else { return nil }
        let base = Character(ns.substring(with: m.range(at: 1)))
        let name = ns.substring(with: m.range(at: 2)).lowercased().replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        guard let mark = marks[name] else { return nil }
        return AccentCodes.letter(base: base, mark: mark, isAbove: m.range(at: 3).location == NSNotFound)
    }

    /// Whether the book writes `o/` for ø: a transcriber's note says so, or the text writes it in at least five
    /// words and these are three in four of its words with a slash between letters (not `and/or`, `he/she`).
    static func writesSlashO(notes: [String], lines: ArraySlice<String>) -> Bool {
        if notes.contains(where: { $0.contains("o/") && (letters(in: [$0.replacingOccurrences(of: "o/", with: "[o/]")])["o/"] == "ø") }) {
            return true
        }
        var slashO = Set<String>()
        var (slashed, written) = (0, 0)
        for line in lines where line.contains("/") {
            for word in line.split(whereSeparator: \.isWhitespace) where word.contains("/") {
                let core = word.trimmingCharacters(in: .punctuationCharacters)
                guard let slash = core.firstIndex(of: "/"), slash > core.startIndex, core[core.index(before: slash)].isLetter else { continue }
                slashed += 1
                if AccentCodes.slashOCode.matches(String(core)) {
                    slashO.insert(String(core))
                    written += 1
                }
            }
        }
        return slashO.count >= 5 && written * 4 >= slashed * 3
    }
}
