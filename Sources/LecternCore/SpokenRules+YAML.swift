import Foundation
import Yams

extension SpokenRules {
    static let keys = ["language", "abbreviations", "cardinal_words", "ordinals", "regnal", "ordinal_suffixes", "not_names",
                       "pause_symbols", "pause", "urls", "stars", "years", "money", "may_end_sentence",
                       "regnal_names", "formulas", "note"]

    /// Reads one language's rules (the format is described at the top of `Config/spoken/en.yml`).
    ///
    /// - parameters:
    ///     - language: The language when the file does not say (`language:`), e.g. from its name.
    /// - throws: ``ManifestError`` naming the file, line and key of a malformed rule.
    public static func parse(yaml: String, file: String, language: String) throws -> SpokenRules {
        guard let root = try ManifestLayer.composeChecked(yaml, file: file) else { return SpokenRules(language: language) }
        let top = try YAMLValue(node: root, key: "", file: file).mapping(allowed: keys)
        var rules = SpokenRules(language: try top["language"]?.string() ?? language)

        func spoken(_ value: YAMLValue) throws -> String {
            let text = try value.string()
            switch Lexicon.spoken(from: text) {
            case .success(let s): return s
            case .failure(let problem): throw value.error(problem.reason)
            }
        }
        /// Words that go into a sentence (ordinals, templates, "dot"): a respelling, not phonemes.
        func words(_ value: YAMLValue) throws -> String {
            let text = try spoken(value)
            guard !text.hasPrefix("[[") else { throw value.error("must be words (a respelling), not phonemes or IPA") }
            return text
        }
        func template(_ value: YAMLValue) throws -> String {
            let text = try words(value)
            var rest = text.replacingOccurrences(of: "{n}", with: "").replacingOccurrences(of: "{ordinal}", with: "")
            rest = rest.filter { $0 == "{" || $0 == "}" }
            guard rest.isEmpty else { throw value.error("a template may hold {n} (the number) and {ordinal} (its ordinal word), found \"\(UserText.excerpt(text))\"") }
            return text
        }

        if let abbreviations = top["abbreviations"] {
            for (written, value) in try abbreviations.dictionary() {
                guard !written.trimmingCharacters(in: .whitespaces).isEmpty else { throw value.error("an empty abbreviation") }
                var a = Abbreviation(written: written)
                if value.isMapping {
                    let m = try value.mapping(allowed: ["always", "before_name", "after_name", "before_number", "after_number"])
                    guard !m.isEmpty else { throw value.error("say what is spoken: always, before_name, after_name, before_number or after_number") }
                    a.always = try m["always"].map(spoken)
                    a.beforeName = try m["before_name"].map(spoken)
                    a.afterName = try m["after_name"].map(spoken)
                    a.beforeNumber = try m["before_number"].map(spoken)
                    a.afterNumber = try m["after_number"].map(spoken)
                } else {
                    a.always = try spoken(value)
                }
                rules.abbreviations.append(a)
            }
        }
        rules.mayEndSentence = try top["may_end_sentence"]?.strings() ?? []
        rules.note = try top["note"].map(template)
        rules.cardinalWords = try top["cardinal_words"]?.strings() ?? []
        if let ordinals = top["ordinals"] { rules.ordinals = try ordinals.list().map(words) }
        if let regnal = top["regnal"] {
            if regnal.isMapping {
                for (key, value) in try regnal.dictionary() {
                    if key == "other" {
                        rules.regnal = try template(value)
                    } else if let n = Int(key), (1...3999).contains(n) {
                        rules.regnalByNumber[n] = try template(value)
                    } else {
                        throw value.error("expected a number from 1 to 3999 or `other`")
                    }
                }
            } else {
                rules.regnal = try template(regnal)
            }
        }
        if let stars = top["stars"] {
            for (key, value) in try stars.dictionary() {
                if key == "other" {
                    rules.stars[0] = try template(value)
                } else if let n = Int(key), (1...5).contains(n) {
                    rules.stars[n] = try template(value)
                } else {
                    throw value.error("expected a number of stars from 1 to 5 or `other`")
                }
            }
        }
        if let suffixes = top["ordinal_suffixes"] {
            for (suffix, value) in try suffixes.dictionary() {
                guard !suffix.isEmpty, suffix.allSatisfy(\.isLetter) else { throw value.error("a suffix is letters, found \"\(UserText.excerpt(suffix))\"") }
                rules.ordinalSuffixes[suffix] = try template(value)
            }
        }
        rules.notNames = try top["not_names"]?.strings() ?? []
        if let value = top["regnal_names"] {
            let m = try value.mapping(allowed: ["names", "titles", "then"])
            var r = RegnalNames()
            r.names = try m["names"]?.strings() ?? []
            r.titles = try m["titles"]?.strings() ?? []
            r.then = try m["then"]?.strings() ?? []
            rules.regnalNames = r
        }
        if let value = top["formulas"] {
            let m = try value.mapping(allowed: ["letters"])
            var f = Formulas()
            for (letter, said) in try m["letters"]?.dictionary() ?? [] {
                guard letter.count == 1, letter.first!.isUppercase else { throw said.error("a letter is one capital, found \"\(UserText.excerpt(letter))\"") }
                f.letters[letter] = try words(said)
            }
            rules.formulas = f
        }
        if let symbols = top["pause_symbols"] {
            rules.pauseSymbols = try symbols.string()
            if let bad = rules.pauseSymbols.first(where: { $0.isLetter || $0.isNumber || $0.isWhitespace || $0.utf16.count > 1 }) {
                throw symbols.error("pause symbols are punctuation or symbols (one UTF-16 unit each), found \"\(UserText.excerpt(String(bad)))\"")
            }
        }
        if let pause = top["pause"] {
            let text = try pause.string()
            guard !text.isEmpty, !text.contains(where: { $0.isLetter || $0.isNumber }) else {
                throw pause.error("a pause is said as punctuation or a space, found \"\(UserText.excerpt(text))\"")
            }
            rules.pause = text
        }
        if let urls = top["urls"] {
            let m = try urls.mapping(allowed: ["dot", "at"])
            if let dot = m["dot"] { rules.urlDot = try words(dot) }
            if let at = m["at"] { rules.urlAt = try words(at) }
        }
        if let years = top["years"] { rules.years = try Self.years(years, words: words) }
        if let money = top["money"] { rules.money = try Self.money(money, words: words) }
        return rules
    }

    /// The `money:` rules.
    private static func money(_ value: YAMLValue, words: (YAMLValue) throws -> String) throws -> Money {
        let m = try value.mapping(allowed: ["before", "after", "alone", "not_after", "words", "words_after_sum", "amount", "fraction"])
        var money = Money()
        func names(_ value: YAMLValue) throws -> [String] {
            let list = try value.list().map(words)
            guard list.count == 2 else { throw value.error("expected [SINGULAR, PLURAL]") }
            return list
        }
        for (sign, value) in try m["before"]?.dictionary() ?? [] {
            guard sign.count == 1, let c = sign.first, !c.isLetter, !c.isNumber, !c.isWhitespace else {
                throw value.error("a sign before an amount is one character, not a letter or digit, found \"\(UserText.excerpt(sign))\"")
            }
            money.before[sign] = try names(value)
        }
        for (unit, value) in try m["after"]?.dictionary() ?? [] {
            guard let c = unit.first, c.isLetter, !unit.contains(where: \.isWhitespace) else {
                throw value.error("a unit after an amount starts with a letter, found \"\(UserText.excerpt(unit))\"")
            }
            money.after[unit] = try names(value)
            money.afterOrder.append(unit)
        }
        money.alone = try m["alone"]?.strings() ?? []
        for unit in money.alone where money.after[unit] == nil {
            throw m["alone"]!.error("\"\(UserText.excerpt(unit))\" is not one of `after`'s units")
        }
        money.notAfter = try m["not_after"]?.strings() ?? []
        for (key, target) in [("words", \Money.words), ("words_after_sum", \Money.wordsAfterSum)] {
            for (unit, value) in try m[key]?.dictionary() ?? [] {
                guard let c = unit.first, c.isLetter, !unit.contains(where: \.isWhitespace) else {
                    throw value.error("a unit word starts with a letter, found \"\(UserText.excerpt(unit))\"")
                }
                money[keyPath: target][unit] = try names(value)
            }
        }
        func template(_ value: YAMLValue, _ fields: [String]) throws -> String {
            let text = try words(value)
            var rest = text
            for f in fields { rest = rest.replacingOccurrences(of: f, with: "") }
            guard !rest.contains("{"), !rest.contains("}"), fields.allSatisfy(text.contains) else {
                throw value.error("a sum's template holds \(fields.joined(separator: ", ")), found \"\(UserText.excerpt(text))\"")
            }
            return text
        }
        if let t = m["amount"] { money.amount = try template(t, ["{n}", "{unit}"]) }
        if let t = m["fraction"] { money.fraction = try template(t, ["{n}", "{unit}", "{f}"]) }
        return money
    }

    /// The `years:` rules.
    private static func years(_ value: YAMLValue, words: (YAMLValue) throws -> String) throws -> Years {
        let m = try value.mapping(allowed: ["range", "as_numbers", "after", "before", "months", "between", "range_word", "hundred", "oh", "other", "decades"])
        var years = Years()
        func range(_ value: YAMLValue) throws -> ClosedRange<Int> {
            let bounds = try value.list().map { try $0.int(in: 1000...9999) }
            guard bounds.count == 2, bounds[0] <= bounds[1], bounds[0] >= 1000, bounds[1] <= 9999 else {
                throw value.error("expected [FIRST, LAST], four-digit years, the first not after the last")
            }
            return bounds[0]...bounds[1]
        }
        func template(_ value: YAMLValue, needs: [String]) throws -> String {
            let text = try words(value)
            var rest = text
            for name in ["{high}", "{low}"] { rest = rest.replacingOccurrences(of: name, with: "") }
            guard !rest.contains("{"), !rest.contains("}"), needs.allSatisfy(text.contains) else {
                throw value.error("a year's template holds \(needs.joined(separator: " and ")), found \"\(UserText.excerpt(text))\"")
            }
            return text
        }
        if let r = m["range"] { years.range = try range(r) }
        years.asNumbers = try m["as_numbers"].map(range)
        years.after = try m["after"]?.strings() ?? []
        years.before = try m["before"]?.strings() ?? []
        years.months = try m["months"]?.strings() ?? []
        years.between = try m["between"]?.strings() ?? []
        if let word = m["range_word"] { years.rangeWord = try words(word) }
        if let t = m["hundred"] { years.hundred = try template(t, needs: ["{high}"]) }
        if let t = m["oh"] { years.oh = try template(t, needs: ["{high}", "{low}"]) }
        if let t = m["other"] { years.other = try template(t, needs: ["{high}", "{low}"]) }
        if let d = m["decades"] {
            let list = try d.list()
            guard list.count == 10 else { throw d.error("expected ten decades, for the tens digits 0 to 9") }
            years.decades = try list.map { try template($0, needs: ["{high}"]) }
        }
        return years
    }
}
