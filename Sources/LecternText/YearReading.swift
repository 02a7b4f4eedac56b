import LecternCore

/// Four-digit years read as a narrator reads them — "eighteen ninety-six", "nineteen oh five",
/// "the eighteen nineties" — where the text shows that a year is meant (``SpokenRules/Years``):
/// after a word such as "in" or "since", within three words after a month, before "A.D.", as
/// the second year of a range ("from 1890 to 1896", "1445-1459"), alone in brackets, or as a
/// decade ("the 1890s"). Anywhere else a number stays a number ("1896 men").
struct YearReading: Sendable {
    let rules: SpokenRules.Years
    private let after: Set<String>
    /// `after`'s entries of several words ("as early as"), as lower-case words.
    private let afterPhrases: [[String]]
    private let before: Set<String>
    private let months: Set<String>
    private let between: Set<String>

    init(_ rules: SpokenRules.Years) {
        self.rules = rules
        let entries = rules.after.map { $0.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) }
        after = Set(entries.filter { $0.count == 1 }.map { $0[0] })
        afterPhrases = entries.filter { $0.count > 1 }
        before = Set(rules.before.map(Self.plain))
        months = Set(rules.months)
        between = Set(rules.between.map { $0.lowercased() })
    }

    /// A word compared with `before`: lower case, without periods ("A.D." → "ad").
    static func plain(_ word: some StringProtocol) -> String { String(word.filter { $0 != "." }).lowercased() }

    /// Whether the token may be a year, judged from its units alone (cheaply): four digits after
    /// any opening punctuation, and no fifth.
    static func mayBeYear(_ token: WordTokenizer.Token, _ units: [UInt16]) -> Bool {
        func isDigit(_ k: Int) -> Bool { k < token.end && units[k] >= 0x30 && units[k] <= 0x39 }
        var a = token.start
        while a < token.end, units[a] < 0x80, !isDigit(a), !(units[a] >= 0x41 && units[a] <= 0x5A), !(units[a] >= 0x61 && units[a] <= 0x7A) { a += 1 }
        return isDigit(a) && isDigit(a + 1) && isDigit(a + 2) && isDigit(a + 3) && !isDigit(a + 4)
    }

    /// The year that word `i` is, said, or nil when it is not one; `afterYear`: word `i - 2` was
    /// read as a year. The word may be a decade ("1890s", "1890's"), a range ("1445-1459",
    /// "1206-07": always years) or a year joined to the next word by punctuation ("1703--while").
    func reading(at i: Int, words: Words, afterYear: Bool) -> Pronunciation? {
        let word = words[i]
        let core = word.core
        let digits = core.prefix(4)
        guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
              rules.range.contains(value), word.lead.allSatisfy({ "([\"'“‘".contains($0) }) else { return nil }
        // A round thousand is the engine's to read ("the year 1000": one thousand).
        guard value % 1000 != 0 else { return nil }
        let rest = core.dropFirst(4)
        var spoken: String
        var kept = rest
        if rest == "s" || (rest.isEmpty && word.possessive.count == 2) {
            // A decade: "the 1890s", "the 1890's".
            guard value % 10 == 0, rules.decades.count == 10, !isNumber(value) else { return nil }
            spoken = Self.fill(rules.decades[value / 10 % 10], value)
            return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                 spoken: String(word.lead) + spoken + word.trail)
        } else if let second = rangeEnd(rest, after: value) {
            guard !isNumber(value), !isNumber(second) else { return nil }
            spoken = say(value) + " " + rules.rangeWord + " " + say(second)
            kept = ""
        } else {
            // Nothing after the digits, or punctuation then words ("1703--while"), not a longer
            // number ("18961", "1896.5").
            if let first = rest.first {
                guard !first.isLetter, !first.isNumber, !(rest.dropFirst().first?.isNumber ?? false) else { return nil }
            }
            guard !isNumber(value), isYear(at: i, words: words, afterYear: afterYear) else { return nil }
            spoken = say(value)
        }
        return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                             spoken: String(word.lead) + spoken + kept + word.possessive + word.trail)
    }

    /// Whether `value` is left to the engine (`as_numbers`).
    private func isNumber(_ value: Int) -> Bool { rules.asNumbers?.contains(value) ?? false }

    /// The second year of a range written "-1459" or "-07" (or with an en dash), after `first`.
    private func rangeEnd(_ rest: Substring, after first: Int) -> Int? {
        guard let dash = rest.first, dash == "-" || dash == "–" else { return nil }
        let digits = rest.dropFirst()
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) else { return nil }
        let second = digits.count == 2 ? first / 100 * 100 + n : n
        return second > first && rules.range.contains(second) ? second : nil
    }

    /// `value` in two halves, by the template for its last two digits.
    private func say(_ value: Int) -> String {
        let low = value % 100
        return Self.fill(low == 0 ? rules.hundred : low < 10 ? rules.oh : rules.other, value)
    }

    /// Whether what is around word `i` shows it is a year.
    private func isYear(at i: Int, words: Words, afterYear: Bool) -> Bool {
        let word = words[i]
        // Alone in brackets: "(1550)", "[1703]".
        if let open = word.lead.last, let close = word.trail.first, (open == "(" && close == ")") || (open == "[" && close == "]") { return true }
        // Only spaces (or opening punctuation) between the word before and this one: "of £ 1896" is no year.
        if i > 0, !words.units[words.tokens[i - 1].end..<word.token.start].allSatisfy({ $0 == 0x20 || $0 == 0xA0 }) { return false }
        if i > 0 {
            let previous = words[i - 1]
            let key = previous.core.lowercased()
            // "in 1896", "the same year, 1685"; an abbreviation with its period: "c. 1850".
            if previous.trail.isEmpty || previous.trail == "," ? after.contains(key) : previous.trail == "." && after.contains(key + ".") {
                return true
            }
            // "as early as 1500", "up to 1550".
            for phrase in afterPhrases where previous.trail.isEmpty && i >= phrase.count {
                if phrase.indices.allSatisfy({ k in
                    let w = words[i - phrase.count + k]
                    return w.core.lowercased() == phrase[k] && (k == phrase.count - 1 || w.trail.isEmpty)
                }) { return true }
            }
            if afterYear, previous.trail.isEmpty, between.contains(previous.core.lowercased()) { return true }
        }
        for back in 1...3 where i - back >= 0 && months.contains(String(words[i - back].core)) { return true }
        if i + 1 < words.count {
            let next = words[i + 1]
            if before.contains(Self.plain(next.core)) { return true }
        }
        return false
    }

    /// `template` with {high} (the first two digits) and {low} (the last two) of `value`.
    static func fill(_ template: String, _ value: Int) -> String {
        template.replacingOccurrences(of: "{high}", with: String(value / 100)).replacingOccurrences(of: "{low}", with: String(value % 100))
    }
}
