import LecternCore

/// Sums of money read as a narrator reads them — "£70" as "70 pounds", "£1 17s. 9d." as "1 pound
/// 17 shillings 9 pence", "$5.50" as "5 dollars 50" — by the rules of ``SpokenRules/Money``.
struct MoneyReading: Sendable {
    let rules: SpokenRules.Money

    init(_ rules: SpokenRules.Money) { self.rules = rules }

    /// Whether the token may be money, judged from its first units (cheaply): a sign the rules
    /// know, or a digit (an amount in a unit written after it).
    func mayBeMoney(_ token: WordTokenizer.Token, _ units: [UInt16]) -> Bool {
        var a = token.start
        while a < token.end, units[a] == 0x28 || units[a] == 0x22 || units[a] == 0x27 || units[a] == 0x5B { a += 1 }
        guard a < token.end else { return false }
        return (units[a] >= 0x30 && units[a] <= 0x39) || rules.signUnits.contains(units[a])
    }

    /// Word `i` said as a sum, or nil when it is not one; `afterMoney`: word `i - 1` was one.
    func reading(at i: Int, words: Words, afterMoney: Bool) -> Pronunciation? {
        let word = words[i]
        let text = Substring(word.text)
        var start = text.startIndex
        while start < text.endIndex, "(\"'[“‘".contains(text[start]) { start = text.index(after: start) }
        let lead = text[..<start]
        var rest = text[start...]
        // A sign before the amount: "£70", "$5.50".
        if let sign = rest.first, let names = rules.before[String(sign)] {
            rest = rest.dropFirst()
            guard let (amount, fraction, after) = Self.amount(rest), after.allSatisfy({ !$0.isLetter && !$0.isNumber }) else { return nil }
            return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                 spoken: String(lead) + say(amount, fraction, names) + after)
        }
        // A sign standing apart before the amount: "£ 1000" (the sign is no word of its own).
        if lead.isEmpty, let (sign, at) = signApart(before: word.token.start, words.units, after: i > 0 ? words.tokens[i - 1].end : 0),
           let names = rules.before[sign], let (amount, fraction, after) = Self.amount(rest), after.allSatisfy({ !$0.isLetter && !$0.isNumber }) {
            return Pronunciation(offset: at, length: word.token.end - at, spoken: say(amount, fraction, names) + after)
        }
        // A unit after the amount, written with it, after a sum: "17s.", "9d.".
        guard afterMoney, let (amount, fraction, after) = Self.amount(rest), fraction == nil else { return nil }
        for (unit, names) in rules.after where after.hasPrefix(unit) {
            let tail = after.dropFirst(unit.count)
            guard tail.allSatisfy({ !$0.isLetter && !$0.isNumber }) else { continue }
            // The unit's period also ends the sentence when nothing follows or a capital does.
            let next = i + 1 < words.count ? words[i + 1] : nil
            let stop = unit.hasSuffix(".") && tail.isEmpty && (next == nil || next!.isCapitalised) && !(next.map(isMoney) ?? false) ? "." : ""
            return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                 spoken: String(lead) + say(amount, nil, names) + stop + tail)
        }
        return nil
    }

    /// The sign just before `start` across spaces, and where it is, when nothing else lies
    /// between it and the word before (which ends at `floor`).
    private func signApart(before start: Int, _ units: [UInt16], after floor: Int) -> (String, Int)? {
        var k = start
        while k > floor, units[k - 1] == 0x20 || units[k - 1] == 0xA0 { k -= 1 }
        guard k > floor, k < start, rules.signUnits.contains(units[k - 1]) else { return nil }
        let sign = String(decoding: units[(k - 1)..<k], as: UTF16.self)
        return k - 1 == floor || units[k - 2] == 0x20 || units[k - 2] == 0xA0 || units[k - 2] == 0x28 ? (sign, k - 1) : nil
    }

    /// Whether `word` is an amount in one of the units written after it ("9d.").
    private func isMoney(_ word: Word) -> Bool {
        guard let (_, fraction, after) = Self.amount(Substring(word.core) + word.trail), fraction == nil else { return false }
        return rules.after.keys.contains { after.hasPrefix($0) }
    }

    /// The amount at the start of `text` ("56,207", "5.50"): its whole part as written, its
    /// fraction's digits, and what follows it.
    static func amount(_ text: Substring) -> (String, String?, Substring)? {
        var end = text.startIndex
        var whole = ""
        while end < text.endIndex {
            let c = text[end]
            if c.isASCII, c.isNumber {
                whole.append(c)
            } else if c == ",", !whole.isEmpty, text[text.index(after: end)...].prefix(3).allSatisfy({ $0.isASCII && $0.isNumber }),
                      text[text.index(after: end)...].count >= 3 {
                whole.append(c)
            } else {
                break
            }
            end = text.index(after: end)
        }
        guard !whole.isEmpty, whole.last != "," else { return nil }
        var fraction: String?
        if end < text.endIndex, text[end] == ".", case let digits = text[text.index(after: end)...].prefix(while: { $0.isASCII && $0.isNumber }),
           digits.count == 2 {
            fraction = String(digits)
            end = text.index(end, offsetBy: 3)
        }
        return (whole, fraction, text[end...])
    }

    /// The sum said: "70 pounds", "1 pound", "5 dollars 50".
    private func say(_ amount: String, _ fraction: String?, _ names: [String]) -> String {
        let unit = amount == "1" && fraction == nil ? names[0] : names[1]
        var s = (fraction == nil ? rules.amount : rules.fraction).replacingOccurrences(of: "{n}", with: amount)
            .replacingOccurrences(of: "{unit}", with: unit)
        if let fraction { s = s.replacingOccurrences(of: "{f}", with: String(Int(fraction) ?? 0)) }
        return s
    }
}
