import Foundation
import LecternCore

/// Spoken-form normalisation: what a careful narrator says for the text's Roman numerals,
/// abbreviations, URLs and symbol runs, as ``Pronunciation``s over whole words (as
/// ``WordTokenizer`` defines them), so every word's timing still points at the written text.
///
/// - Roman numerals are cardinals (said as digits) at the start of a heading (`XIV.`, `I`), at
///   the start of a list paragraph (`IV. The…`), and after a cardinal word (`CHAPTER XIV.`,
///   `Book ii`); ordinals after a capitalised name (`Charles II.` → "Charles the Second"), a
///   single letter only after a king's or pope's name with evidence (``RegnalEvidence``: `James
///   I.`, `Henry V`); the pronoun "I" only becomes "one" in a heading or right after a
///   capitalised cardinal word at the end of a phrase (`Chapter I.`); single letters other than
///   I, V and X never.
/// - Abbreviations match whole words in any case.
/// - Years, sums of money and chemical formulas are read as ``YearReading``, ``MoneyReading``
///   and ``FormulaReading`` say.
/// - URLs and e-mail addresses are read as ``URLReading`` says.
/// - Runs of pause symbols (`***`, `* * *`, `~~~`) standing alone are read as a pause.
public struct SpokenForms: Sendable {
    /// How URLs and e-mail addresses are read.
    public var urls: URLReading
    /// The rules, by primary language.
    public let rules: [String: SpokenRules]
    private let compiled: [String: Compiled]

    public init(rules: [SpokenRules], urls: URLReading = .domain) {
        self.urls = urls
        var byLanguage: [String: SpokenRules] = [:]
        for r in rules where byLanguage[Self.primary(r.language)] == nil { byLanguage[Self.primary(r.language)] = r }
        self.rules = byLanguage
        self.compiled = byLanguage.mapValues(Compiled.init)
    }

    /// What is said before a note labelled `label` in `language` ("Note 3."), or nil when the
    /// language's rules say nothing (the note is read without announcement).
    public func noteAnnouncement(_ label: String, language: String?) -> String? {
        guard let language, let template = rules[Self.primary(language)]?.note else { return nil }
        guard label.isEmpty else { return template.replacingOccurrences(of: "{n}", with: label) }
        // A note with no label a listener could use: announced as a note, unnumbered ("Note.").
        return template.replacingOccurrences(of: " {n}", with: "").replacingOccurrences(of: "{n}", with: "")
    }

    /// No rules: nothing is changed.
    public static let empty = SpokenForms(rules: [])

    static func primary(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// The spoken forms in `text` (a block of `kind` in `language`), sorted and not overlapping.
    /// A language without rules (or nil) gets none but a heading's Roman numeral as digits
    /// (``HeadingNumerals``), which every voice reads as a number in its language.
    public func pronunciations(in text: String, kind: BlockKind, language: String?) -> [Pronunciation] {
        guard let language, let c = compiled[Self.primary(language)] else {
            return kind == .heading ? HeadingNumerals.pronunciations(in: text) : []
        }
        let units = Array(text.utf16)
        let tokens = WordTokenizer.tokens(in: text)
        var result: [Pronunciation] = []
        var covered = [Bool](repeating: false, count: tokens.count)
        let (addresses, symbols) = Self.chunks(units, compiled: c)
        if urls != .read, !addresses.isEmpty {
            for p in urlPronunciations(text, units: units, tokens: tokens, rules: c.rules, chunks: addresses) {
                for (i, t) in tokens.enumerated() where t.start < p.end && p.offset < t.end { covered[i] = true }
                result.append(p)
            }
        }
        result += symbols.map { Pronunciation(offset: $0.lowerBound, length: $0.count, spoken: Self.rating($0, units, c.rules) ?? c.rules.pause) }
        let words = Words(units: units, tokens: tokens)
        var i = 0
        var lastYear = -1, lastMoney = -1
        while i < words.count {
            if covered[i] { i += 1; continue }
            // A sum ("£70", "17s.") or a year ("in 1896"): words that start with a sign or four digits.
            let sum = c.money.flatMap { $0.mayBeMoney(tokens[i], units) ? $0.reading(at: i, words: words, afterMoney: lastMoney == i - 1) : nil }
            let year = sum != nil ? nil : c.years.flatMap {
                YearReading.mayBeYear(tokens[i], units) ? $0.reading(at: i, words: words, afterYear: lastYear == i - 2) : nil
            }
            if let (p, count) = sum {
                result.append(p)
                lastMoney = i + count - 1
                i += count
                continue
            }
            if let p = year {
                result.append(p)
                lastYear = i
                i += 1
                continue
            }
            // A chemical formula: "H2SO4", "CO2", "NaCl".
            if let f = c.formulas, FormulaReading.mayBeFormula(tokens[i], units), let p = f.reading(at: i, words: words) {
                result.append(p)
                i += 1
                continue
            }
            // Most words can be neither: decided on the UTF-16 units, before making a `Word`.
            let (mayAbbreviate, mayBeNumeral) = c.candidate(tokens[i], units)
            if mayAbbreviate, let (p, count) = c.abbreviation(at: i, words: words, units: units, covered: covered) {
                result.append(p)
                i += count
                continue
            }
            if mayBeNumeral, let p = c.numeral(at: i, words: words, kind: kind) { result.append(p) }
            i += 1
        }
        return Pronunciation.merging([], result)
    }

    // MARK: URLs

    private static let urlExpression = try! NSRegularExpression(
        pattern: #"(?i)(?<![\p{L}\p{N}@.])(?:(?:https?|ftp)://|mailto:|www\.)[^\s<>"“”\u2013\u2014\u2015]+|(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+"#)

    private func urlPronunciations(_ text: String, units: [UInt16], tokens: [WordTokenizer.Token], rules: SpokenRules,
                                   chunks: [NSRange]) -> [Pronunciation] {
        guard !chunks.isEmpty else { return [] }
        var result: [Pronunciation] = []
        for match in chunks.flatMap({ Self.urlExpression.matches(in: text, range: $0) }) {
            var start = match.range.location
            var end = match.range.location + match.range.length
            // Trailing punctuation belongs to the sentence.
            while end > start, let s = Unicode.Scalar(units[end - 1]), ".,;:!?)]}'\"’”".unicodeScalars.contains(s) { end -= 1 }
            guard end > start else { continue }
            let written = String(decoding: units[start..<end], as: UTF16.self)
            let reading: String
            switch urls {
            case .read: continue
            case .skip: reading = " "
            case .domain: reading = Self.domainReading(written, rules: rules)
            }
            // Cover the whole words the address is part of.
            let inside = tokens.filter { $0.start < end && start < $0.end }
            guard let first = inside.first, let last = inside.last, first.start <= start, last.end >= end else { continue }
            let lead = String(decoding: units[first.start..<start], as: UTF16.self)
            let trail = String(decoding: units[end..<last.end], as: UTF16.self)
            start = first.start
            end = last.end
            let spoken = (lead + reading + trail)
            result.append(Pronunciation(offset: start, length: end - start,
                                        spoken: spoken.trimmingCharacters(in: .whitespaces).isEmpty ? " " : spoken))
        }
        return result
    }

    /// "gutenberg dot net" for `http://www.gutenberg.net/etext/`, "someone at example dot org"
    /// for `mailto:someone@example.org`.
    static func domainReading(_ written: String, rules: SpokenRules) -> String {
        var s = Substring(written)
        if s.lowercased().hasPrefix("mailto:") { s = s.dropFirst(7) }
        if let scheme = s.range(of: "://") { s = s[scheme.upperBound...] }
        let dot = " \(rules.urlDot) "
        if let at = s.firstIndex(of: "@"), !s[..<at].contains("/") {
            let local = s[..<at].split(separator: ".").joined(separator: dot)
            let domain = s[s.index(after: at)...].prefix { !"/?#:".contains($0) }
            return local + " \(rules.urlAt) " + domain.split(separator: ".").joined(separator: dot)
        }
        var host = s.prefix { !"/?#".contains($0) }
        if let userInfo = host.lastIndex(of: "@") { host = host[host.index(after: userInfo)...] }
        host = host.prefix { $0 != ":" }
        var labels = host.split(separator: ".")
        if labels.count > 2, labels[0].lowercased().hasPrefix("www") { labels.removeFirst() }
        return labels.joined(separator: dot)
    }

    // MARK: Symbol runs

    /// A rating's words when `run` is 1 to 5 stars, unspaced, standing alone right after a word
    /// (`Hôtel du Port **`, `Le Relais ★★★`) and the rules say how ratings are read; else nil.
    private static func rating(_ run: Range<Int>, _ units: [UInt16], _ rules: SpokenRules) -> String? {
        guard !rules.stars.isEmpty, (1...5).contains(run.count), run.allSatisfy({ units[$0] == 0x2A || units[$0] == 0x2605 }) else { return nil }
        var before = run.lowerBound - 1
        while before >= 0, units[before] == 0x20 || units[before] == 0xA0 { before -= 1 }
        guard before >= 0, before < run.lowerBound - 1, let scalar = Unicode.Scalar(units[before]),
              CharacterSet.alphanumerics.contains(scalar) else { return nil }
        guard let template = rules.stars[run.count] ?? rules.stars[0] else { return nil }
        return template.replacingOccurrences(of: "{n}", with: String(run.count))
    }

    /// The space-separated chunks of `units` that may hold an address (with "@", "://" or
    /// "www."), and the runs of chunks made only of pause symbols, in one pass.
    private static func chunks(_ units: [UInt16], compiled c: Compiled) -> (addresses: [NSRange], symbols: [Range<Int>]) {
        var addresses: [NSRange] = []
        var symbols: [Range<Int>] = []
        units.withUnsafeBufferPointer { u in
            let n = u.count
            var run: Range<Int>?
            var i = 0
            while i < n {
                let x = u[i]
                if x == 0x20 || (x >= 0x09 && x <= 0x0D) || x == 0xA0 { i += 1; continue }
                var j = i
                var allSymbols = true
                var address = false
                while j < n {
                    let y = u[j]
                    if y == 0x20 || (y >= 0x09 && y <= 0x0D) || y == 0xA0 { break }
                    if allSymbols, !c.isPauseSymbol(y) { allSymbols = false }
                    if !address {
                        address = y == 0x40 || (y == 0x3A && j + 2 < n && u[j + 1] == 0x2F && u[j + 2] == 0x2F)
                            || ((y | 0x20) == 0x77 && j + 3 < n && (u[j + 1] | 0x20) == 0x77 && (u[j + 2] | 0x20) == 0x77 && u[j + 3] == 0x2E)
                    }
                    j += 1
                }
                if address { addresses.append(NSRange(location: i, length: j - i)) }
                if allSymbols {
                    run = (run?.lowerBound ?? i)..<j
                } else if let r = run {
                    symbols.append(r)
                    run = nil
                }
                i = j
            }
            if let r = run { symbols.append(r) }
        }
        return (addresses, symbols)
    }
}

/// A word of the text and its parts: opening punctuation, the word proper, a possessive `'s`,
/// closing punctuation.
struct Word {
    let token: WordTokenizer.Token
    let text: String
    let lead: Substring
    let core: Substring
    let possessive: Substring
    let trail: Substring

    init(_ text: String, _ token: WordTokenizer.Token) {
        self.token = token
        self.text = text
        var start = text.startIndex
        while start < text.endIndex, !Word.isWordCharacter(text[start]), text[start] != "&" { start = text.index(after: start) }
        var end = text.endIndex
        while end > start, !Word.isWordCharacter(text[text.index(before: end)]) { end = text.index(before: end) }
        var core = text[start..<end]
        var possessive = Substring("")
        if core.count > 2, core.last == "s" || core.last == "S" {
            let apostrophe = core[core.index(core.endIndex, offsetBy: -2)]
            if apostrophe == "'" || apostrophe == "’" {
                possessive = core[core.index(core.endIndex, offsetBy: -2)...]
                core = core[..<core.index(core.endIndex, offsetBy: -2)]
            }
        }
        lead = text[..<start]
        self.core = core
        self.possessive = possessive
        trail = text[end...]
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    /// Starts with a capital letter.
    var isCapitalised: Bool { core.first?.isUppercase == true }

    /// A name-like word: capitalised, letters only (and inner hyphens or apostrophes), two or more.
    var isNameLike: Bool {
        isCapitalised && core.count >= 2 && core.allSatisfy { $0.isLetter || $0 == "-" || $0 == "'" || $0 == "’" }
    }

    var endsSentence: Bool { trail.contains { ".!?".contains($0) } }
}

/// The words of a text, made when first asked for.
final class Words {
    let units: [UInt16]
    let tokens: [WordTokenizer.Token]
    private var made: [Word?]

    init(units: [UInt16], tokens: [WordTokenizer.Token]) {
        self.units = units
        self.tokens = tokens
        made = [Word?](repeating: nil, count: tokens.count)
    }

    var count: Int { tokens.count }

    subscript(i: Int) -> Word {
        if let w = made[i] { return w }
        let t = tokens[i]
        let w = Word(String(decoding: units[t.start..<t.end], as: UTF16.self), t)
        made[i] = w
        return w
    }
}

/// One language's rules, prepared for matching.
private struct Compiled: Sendable {
    let rules: SpokenRules
    /// Single-word abbreviations (and multi-part ones written together), by lower-case form.
    let single: [String: SpokenRules.Abbreviation]
    /// Abbreviations of several words, by their lower-case first word.
    let multi: [String: [(parts: [String], abbreviation: SpokenRules.Abbreviation)]]
    let keywords: Set<String>
    let longestKeyword: Int
    let notNames: Set<String>
    let pauseSymbols: Set<UInt16>
    let suffixes: [(suffix: String, template: String)]
    let years: YearReading?
    let money: MoneyReading?
    let regnalNames: RegnalEvidence?
    let formulas: FormulaReading?
    /// Abbreviations (lower case) whose period may also end the sentence.
    let mayEndSentence: Set<String>

    init(_ rules: SpokenRules) {
        self.rules = rules
        years = rules.years.map(YearReading.init)
        money = rules.money.map(MoneyReading.init)
        regnalNames = rules.regnalNames.map(RegnalEvidence.init)
        formulas = rules.formulas.map(FormulaReading.init)
        mayEndSentence = Set(rules.mayEndSentence.map { $0.lowercased() })
        var single: [String: SpokenRules.Abbreviation] = [:]
        var multi: [String: [(parts: [String], abbreviation: SpokenRules.Abbreviation)]] = [:]
        for a in rules.abbreviations {
            let parts = a.written.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            guard let first = parts.first else { continue }
            if parts.count == 1 {
                if single[first] == nil { single[first] = a }
            } else {
                multi[first, default: []].append((parts, a))
                let together = parts.joined()
                if single[together] == nil { single[together] = a }
            }
        }
        self.single = single
        self.multi = multi.mapValues { $0.sorted { $0.parts.count > $1.parts.count } }
        keywords = Set(rules.cardinalWords.map { Self.key($0) })
        longestKeyword = keywords.map(\.utf16.count).max() ?? 0
        notNames = Set(rules.notNames.map { $0.lowercased() })
        pauseSymbols = Set(rules.pauseSymbols.utf16)
        suffixes = rules.ordinalSuffixes.map { ($0.key, $0.value) }.sorted { $0.suffix.count > $1.suffix.count }
        var ascii = [Bool](repeating: false, count: 128)
        for u in rules.pauseSymbols.utf16 where u < 0x80 { ascii[Int(u)] = true }
        asciiPauseSymbols = ascii
        let keys = single.keys
        abbreviationStarts = Set(keys.compactMap { $0.utf16.first }.map(Self.lower))
        longestWithoutPeriod = keys.filter { !$0.contains(".") }.map(\.utf16.count).max() ?? 0
        longestBeforePeriod = keys.compactMap { $0.split(separator: ".", omittingEmptySubsequences: false).first?.utf16.count }.max() ?? 0
    }

    func isPauseSymbol(_ u: UInt16) -> Bool { u < 0x80 ? asciiPauseSymbols[Int(u)] : pauseSymbols.contains(u) }
    private let asciiPauseSymbols: [Bool]

    /// The first UTF-16 unit (lower case) of each abbreviation.
    let abbreviationStarts: Set<UInt16>
    /// The length of the longest abbreviation written without a period (`Mlles`).
    let longestWithoutPeriod: Int
    /// The length of the longest part of an abbreviation before its first period (`Messrs`).
    let longestBeforePeriod: Int
    private static let romanUnits = Set("IVXLCDMivxlcdm".utf16)
    private static let upperRomanUnits = Set("IVXLCDM".utf16)

    static func lower(_ u: UInt16) -> UInt16 { u >= 0x41 && u <= 0x5A ? u + 0x20 : u }
    static func isASCIIAlphanumeric(_ u: UInt16) -> Bool { (u >= 0x30 && u <= 0x39) || (u >= 0x41 && u <= 0x5A) || (u >= 0x61 && u <= 0x7A) }

    /// Whether the word may be an abbreviation, and whether it may be a Roman numeral, judged
    /// from its units alone (cheaply; the rules decide).
    func candidate(_ token: WordTokenizer.Token, _ units: [UInt16]) -> (Bool, Bool) {
        var a = token.start
        // Opening punctuation: ASCII, quotation marks, guillemets.
        while a < token.end {
            let u = units[a]
            let isOpening = u < 0x80 ? !(u >= 0x30 && u <= 0x39) && !(u >= 0x41 && u <= 0x5A) && !(u >= 0x61 && u <= 0x7A) && u != 0x26
                : (u >= 0x2018 && u <= 0x201F) || u == 0xAB || u == 0xBB
            guard isOpening else { break }
            a += 1
        }
        guard a < token.end else { return (false, false) }
        let first = units[a]
        var mayAbbreviate = false
        if abbreviationStarts.contains(Self.lower(first)) {
            // Short enough without its closing punctuation, or with a period not far in.
            var end = token.end
            while end > a, units[end - 1] < 0x80, !Self.isASCIIAlphanumeric(units[end - 1]) { end -= 1 }
            if end - a <= longestWithoutPeriod {
                mayAbbreviate = true
            } else if let period = units[a..<token.end].firstIndex(of: 0x2E) {
                mayAbbreviate = period - a <= longestBeforePeriod
            }
        }
        var mayBeNumeral = false
        if Self.romanUnits.contains(first) {
            var b = a
            while b < token.end, Self.romanUnits.contains(units[b]) { b += 1 }
            let next = b < token.end ? units[b] : 0
            let isLetter = (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) || next >= 0x80
            mayBeNumeral = !isLetter || (!suffixes.isEmpty && Self.upperRomanUnits.contains(first))
        }
        return (mayAbbreviate, mayBeNumeral)
    }

    /// A word as compared with the cardinal words: lower case, without a final period.
    static func key(_ word: some StringProtocol) -> String {
        var s = word.lowercased()
        while s.hasSuffix(".") { s.removeLast() }
        return s
    }

    // MARK: Abbreviations

    /// The abbreviation starting at word `i`, and how many words it covers.
    func abbreviation(at i: Int, words: Words, units: [UInt16], covered: [Bool]) -> (Pronunciation, Int)? {
        guard !single.isEmpty || !multi.isEmpty else { return nil }
        let word = words[i]
        let lowered = word.text[word.lead.endIndex...].lowercased()
        // Several words first ("p. ex."), each but the last exactly as written.
        if let candidates = multi[lowered] {
            for (parts, abbreviation) in candidates where i + parts.count <= words.count {
                let last = i + parts.count - 1
                guard (i...last).allSatisfy({ !covered[$0] }),
                      (1..<(parts.count - 1)).allSatisfy({ words[i + $0].text.lowercased() == parts[$0] }),
                      (i..<last).allSatisfy({ gapIsSpace(units, words[$0].token.end, words[$0 + 1].token.start) }),
                      let trail = Self.trail(words[last].text.lowercased(), matching: parts[parts.count - 1]) else { continue }
                if let p = say(abbreviation, first: i, last: last, trail: trail, words: words) { return (p, parts.count) }
            }
        }
        var candidate = Substring(lowered)
        while !candidate.isEmpty {
            if let abbreviation = single[String(candidate)] {
                let trail = String(lowered[candidate.endIndex...])
                if let p = say(abbreviation, first: i, last: i, trail: trail, words: words) { return (p, 1) }
                return nil
            }
            // Only closing punctuation may follow the abbreviation in its word.
            guard let last = candidate.last, !Word.isWordCharacter(last) else { return nil }
            candidate = candidate.dropLast()
        }
        return nil
    }

    /// What follows `written` at the end of `word`, when `word` is `written` plus punctuation.
    private static func trail(_ word: String, matching written: String) -> String? {
        guard word.hasPrefix(written) else { return nil }
        let rest = word.dropFirst(written.count)
        return rest.allSatisfy({ !Word.isWordCharacter($0) }) ? String(rest) : nil
    }

    private func gapIsSpace(_ units: [UInt16], _ a: Int, _ b: Int) -> Bool {
        units[a..<b].allSatisfy { $0 == 0x20 || $0 == 0xA0 || ($0 >= 0x09 && $0 <= 0x0D) }
    }

    private func say(_ a: SpokenRules.Abbreviation, first: Int, last: Int, trail: String, words: Words) -> Pronunciation? {
        let next = last + 1 < words.count ? words[last + 1] : nil
        let previous = first > 0 ? words[first - 1] : nil
        var spoken: String?
        if let s = a.beforeNumber, let next, next.lead.isEmpty, trail.isEmpty || trail == ".",
           next.core.first?.isNumber == true || isNumeral(next.core) {
            spoken = s
        }
        if spoken == nil, let s = a.afterNumber, let previous, previous.trail.isEmpty, isNumberOrOrdinal(previous.core) {
            spoken = s
        }
        if spoken == nil, let s = a.beforeName, let next, next.isNameLike, !notNames.contains(next.core.lowercased()), trail.isEmpty {
            spoken = s
        }
        if spoken == nil, let s = a.afterName, let previous, previous.isNameLike, previous.trail.isEmpty,
           !notNames.contains(previous.core.lowercased()) {
            spoken = s
        }
        if spoken == nil { spoken = a.always }
        guard var said = spoken else { return nil }
        // An abbreviation that ends the text ends its sentence too, and so does one that may end a
        // sentence ("etc.") before a capital: its period is also the sentence's.
        let endsSentence = next == nil || (mayEndSentence.contains(a.written.lowercased()) && next!.isCapitalised)
        if endsSentence, a.written.hasSuffix("."), trail.isEmpty, !said.hasPrefix("[[") { said += "." }
        let start = words[first].token.start, end = words[last].token.end
        // Phonemes stand alone (the engine reads them only so); words keep their punctuation.
        return Pronunciation(offset: start, length: end - start, spoken: said.hasPrefix("[[") ? said : String(words[first].lead) + said + trail)
    }

    /// Digits (`19e`, `1850`) or a Roman numeral with or without an ordinal ending (`XIXe`, `XIV`).
    private func isNumberOrOrdinal(_ core: Substring) -> Bool {
        if core.first?.isNumber == true { return true }
        let numeral = core.prefix { $0.isUppercase }
        return !numeral.isEmpty && core.dropFirst(numeral.count).allSatisfy(\.isLowercase) && isNumeral(numeral)
    }

    private func isNumeral(_ core: Substring) -> Bool {
        guard let v = RomanNumeral.value(of: core) else { return false }
        return core.count > 1 || v == 5 || v == 10
    }

    // MARK: Roman numerals

    func numeral(at i: Int, words: Words, kind: BlockKind) -> Pronunciation? {
        let word = words[i]
        guard let firstLetter = word.core.first, "IVXLCDMivxlcdm".contains(firstLetter) else { return nil }
        let next = i + 1 < words.count ? words[i + 1] : nil
        let previous = i > 0 ? words[i - 1] : nil
        if let p = suffixed(word) { return p }
        guard let value = RomanNumeral.value(of: word.core) else { return nil }
        let upper = word.core.first!.isUppercase
        let single = word.core.count == 1
        // Single letters: only I, V and X are ever numerals (not "vitamin C", "C. P. E. Bach").
        if single, !"IVXivx".contains(firstLetter) { return nil }
        let isI = word.core == "I" || word.core == "i"
        // A single letter after a king's or pope's name, with evidence ("James I.", "Henry V").
        var regnalLetter = single && upper && regnalNames.map { $0.mayFollowName(words.tokens, i) && $0.isRegnal(at: i, words: words) } == true
        // … but a middle initial after a title's abbreviation: "Mr. John I. Brown", "Dr. Henry V. Poor".
        if regnalLetter, word.trail == ".", let next, next.isNameLike, i >= 2, case let title = words[i - 2].text.lowercased(),
           self.single[title] != nil, !mayEndSentence.contains(title) {
            regnalLetter = false
        }
        // The pronoun, by far the most common: a numeral only in a heading, after a cardinal word
        // or as a king's ("James I.").
        if isI, kind != .heading, i > 0, !regnalLetter, !mayFollowKeyword(words.units, words.tokens[i - 1]) { return nil }
        let endsPhrase = next == nil || !word.trail.isEmpty
        // After a cardinal word: "Chapter XIV", "CHAPTER I.", "book ii".
        // (A capital letter alone is an initial, "P. I. Brown", not the page keyword "p.".)
        if let previous, previous.possessive.isEmpty, previous.trail.isEmpty || previous.trail == ".",
           !(previous.core.count == 1 && previous.isCapitalised), keywords.contains(Self.key(previous.core)) {
            if !isI || ((previous.isCapitalised || kind == .heading) && endsPhrase) {
                return cardinal(word, value, next: next)
            }
            return nil
        }
        guard upper else { return nil }
        // A heading that starts with a numeral: "XIV.", "I", "II. THE RETURN".
        if kind == .heading, i == 0, value < 400 {
            // A single letter only alone or marked ("I.", "V:"), not "I WAS BORN".
            let marked = next == nil || word.trail.hasPrefix(".") || word.trail.hasPrefix(":")
            return single && !marked ? nil : cardinal(word, value, next: next)
        }
        // A list paragraph: "IV. The fourth point" (not "I.", which may be the pronoun).
        if kind == .paragraph || kind == .listItem, i == 0, !isI, value <= 100, word.trail.hasPrefix(".") || word.trail.hasPrefix(")"),
           let next, next.isCapitalised {
            return cardinal(word, value, next: next)
        }
        // After a name: "Charles II.", "Louis XIV", "Henry VIII's"; a single letter only with
        // evidence (``RegnalEvidence``): "James I.", "Henry V".
        if !single || regnalLetter, let previous, previous.isNameLike, previous.trail.isEmpty, previous.possessive.isEmpty,
           RomanNumeral.value(of: previous.core) == nil, !notNames.contains(previous.core.lowercased()),
           let form = regnal(value) {
            return replace(word, with: form, next: next)
        }
        return nil
    }

    /// Whether a word could be a cardinal word, by its length (cheap).
    private func mayFollowKeyword(_ units: [UInt16], _ token: WordTokenizer.Token) -> Bool {
        token.end - token.start <= longestKeyword + 2
    }

    private func cardinal(_ word: Word, _ value: Int, next: Word?) -> Pronunciation {
        replace(word, with: String(value), next: next)
    }

    /// The regnal form of `value`, or nil when the rules have none for it.
    private func regnal(_ value: Int) -> String? {
        if let form = rules.regnalByNumber[value] { return fill(form, value) }
        guard let template = rules.regnal else { return nil }
        return fill(template, value)
    }

    /// `template` with `{n}` and `{ordinal}` filled in, or nil when there is no ordinal word for `value`.
    private func fill(_ template: String, _ value: Int) -> String? {
        var s = template.replacingOccurrences(of: "{n}", with: String(value))
        if s.contains("{ordinal}") {
            guard value >= 1, value <= rules.ordinals.count else { return nil }
            s = s.replacingOccurrences(of: "{ordinal}", with: rules.ordinals[value - 1])
        }
        return s
    }

    /// A numeral with an ordinal ending (French `XIXe`, `Ier`).
    private func suffixed(_ word: Word) -> Pronunciation? {
        for (suffix, template) in suffixes where word.core.hasSuffix(suffix) && word.core.count > suffix.count {
            let numeral = word.core.dropLast(suffix.count)
            guard numeral.allSatisfy({ "IVXLCDM".contains($0) }), let value = RomanNumeral.value(of: numeral),
                  numeral.count > 1 || "IVX".contains(numeral), let form = fill(template, value) else { continue }
            return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                 spoken: String(word.lead) + form + word.possessive + word.trail)
        }
        return nil
    }

    /// The word said as `form`, keeping its punctuation; a final period is kept only where a
    /// sentence may end (at the end, or before a capital), since after a numeral it is often
    /// the ordinal's own mark ("Ludwig XIV. war").
    private func replace(_ word: Word, with form: String, next: Word?) -> Pronunciation {
        var trail = word.trail
        if trail.first == ".", let next, !next.isCapitalised, !(next.lead.first?.isUppercase ?? false) { trail = trail.dropFirst() }
        return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                             spoken: String(word.lead) + form + word.possessive + trail)
    }
}
