import LecternCore

/// Sums of money read as a narrator reads them — "£70" as "70 pounds", "£1 17s. 9d." as "1 pound
/// 17 shillings 9 pence", "$5.50" as "5 dollars 50", "3l. 10s." as "3 pounds 10 shillings",
/// "6d." as "6 pence", "10 fr. 50 c." as "10 francs 50 centimes" — by the rules of
/// ``SpokenRules/Money``. A unit written after an amount ("10s.") makes a sum after a sign or
/// another sum, before a smaller unit ("2s. 6d."), or alone when the rules let it ("6d.").
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

    /// Word `i` said as a sum, and how many words it covers, or nil when it is not one;
    /// `afterMoney`: word `i - 1` was one.
    func reading(at i: Int, words: Words, afterMoney: Bool) -> (Pronunciation, Int)? {
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
            return (Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                  spoken: String(lead) + say(amount, fraction, names) + after), 1)
        }
        // A sign standing apart before the amount: "£ 1000" (the sign is no word of its own).
        if lead.isEmpty, let (sign, at) = signApart(before: word.token.start, words.units, after: i > 0 ? words.tokens[i - 1].end : 0),
           let names = rules.before[sign], let (amount, fraction, after) = Self.amount(rest), after.allSatisfy({ !$0.isLetter && !$0.isNumber }) {
            return (Pronunciation(offset: at, length: word.token.end - at, spoken: say(amount, fraction, names) + after), 1)
        }
        guard let (amount, fraction, after) = Self.amount(rest) else { return nil }
        let next = i + 1 < words.count ? words[i + 1] : nil
        // A unit after the amount, written with it: "17s.", "9d.", "1s", "3l.".
        if fraction == nil, let (unit, tail) = unit(after) {
            let names = rules.after[unit]!
            let written = tail.hasPrefix(".") && unit.hasSuffix(".")
            let kept = written ? tail.dropFirst() : tail
            // In a sum: after one, before a smaller unit ("2s. 6d.", not "1s and 0s, 9d"), or alone with its period ("6d.").
            guard afterMoney || (kept.isEmpty && next.flatMap({ smallerUnit(in: $0, than: unit) }) == true)
                    || (rules.alone.contains(unit) && written && mayStandAlone(amount, at: i, words: words)) else { return nil }
            return (Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                                  spoken: String(lead) + say(amount, nil, names) + stop(written, kept, next) + kept), 1)
        }
        // A unit that is a word of its own: "10 fr.", "10 fr. 50 c.".
        guard after.isEmpty, word.trail.isEmpty, let next, next.lead.isEmpty,
              words.units[word.token.end..<next.token.start].allSatisfy({ $0 == 0x20 || $0 == 0xA0 }) else { return nil }
        let key = next.text.lowercased()
        for (unit, names) in rules.words.map({ ($0.key, $0.value) }) + (afterMoney ? rules.wordsAfterSum.map { ($0.key, $0.value) } : [])
            where key.hasPrefix(unit.lowercased()) {
            let tail = next.text.dropFirst(unit.count)
            guard tail.allSatisfy({ !$0.isLetter && !$0.isNumber }) else { continue }
            let after = i + 2 < words.count ? words[i + 2] : nil
            return (Pronunciation(offset: word.token.start, length: next.token.end - word.token.start,
                                  spoken: String(lead) + say(amount, fraction, names) + stop(unit.hasSuffix("."), tail, after) + tail), 2)
        }
        return nil
    }

    /// The unit of `after` that `text` (what follows an amount) starts with, and what follows it;
    /// a unit's period may be left out ("1s 6d").
    private func unit(_ text: Substring) -> (String, Substring)? {
        for unit in rules.afterOrder {
            let bare = unit.hasSuffix(".") ? String(unit.dropLast()) : unit
            guard text.hasPrefix(bare) else { continue }
            let tail = text.dropFirst(bare.count)
            if tail.allSatisfy({ !$0.isLetter && !$0.isNumber }) { return (unit, tail) }
        }
        return nil
    }

    /// Whether `word` is an amount in a unit that comes after `unit` in the rules ("6d." after "2s.").
    private func smallerUnit(in word: Word, than unit: String) -> Bool {
        guard word.lead.isEmpty, let (_, fraction, after) = Self.amount(Substring(word.core) + word.trail), fraction == nil,
              let (other, _) = self.unit(after), let a = rules.afterOrder.firstIndex(of: unit), let b = rules.afterOrder.firstIndex(of: other) else { return false }
        return b > a
    }

    /// Whether a lone amount with a unit ("6d.", "1s.") is a sum: not after one of `not_after`
    /// ("the 3d." is the third, "in his 40s." a decade), nor a round ten of two digits or a
    /// year's four ("60s.", "1890s.").
    private func mayStandAlone(_ amount: String, at i: Int, words: Words) -> Bool {
        if i > 0, rules.notAfter.contains(where: { $0.caseInsensitiveCompare(words[i - 1].core) == .orderedSame }) { return false }
        guard let n = Int(amount) else { return true }
        return !(n % 10 == 0 && (amount.count == 2 || (amount.count == 4 && (1000...2099).contains(n))))
    }

    /// The period that ends the sentence after a unit's own ("9d. He"): when the unit's period
    /// was written with nothing after it and nothing follows or a capital does (not another sum).
    private func stop(_ written: Bool, _ kept: Substring, _ next: Word?) -> String {
        written && kept.isEmpty && (next == nil || next!.isCapitalised) && !(next.map(isMoney) ?? false) ? "." : ""
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
        return unit(after) != nil
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
