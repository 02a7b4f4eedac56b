import Foundation

/// The ordinal words a heading may be numbered by (`CANTO THE SEVENTEENTH`, `Twenty-first Chapter`,
/// `Erster Teil`, `Chapitre premier`, `Capítulo decimotercero`), in the languages Lectern reads, with their
/// values: one table for every reader of headings and contents entries (``HeadingWords``,
/// ``HeadingCandidate``, ``ContentsEntry``). Written lower-case; each accented word also stands in its
/// unaccented spelling (a text in ASCII capitals: `DEUXIEME`, `DECIMO`).
enum OrdinalWords {
    /// Every ordinal word with its value.
    static let values: [String: Int] = {
        var table: [String: Int] = [:]
        func add(_ word: String, _ value: Int) {
            table[word] = value
            let folded = word.folding(options: .diacriticInsensitive, locale: nil)
            if table[folded] == nil { table[folded] = value }
        }
        for (word, value) in OrdinalWords.english + OrdinalWords.french + OrdinalWords.german + OrdinalWords.spanish + OrdinalWords.italian {
            add(word, value)
        }
        return table
    }()

    /// The words, longest first (so that a regular expression's alternation prefers `twenty-first` to `twenty`).
    static let words: [String] = values.keys.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }

    /// The value of an ordinal word in any case (`THIRTEENTH` → 13, `Erstes` → 1), else nil.
    static func value(of word: String) -> Int? { values[word.lowercased()] }

    /// The value of the English ordinal a word misspells by one letter (`TWELTH`, `NINETH`, `FOURTEETH`: one left out, one
    /// added, one changed, two swapped), for words of six letters or more, where such a slip cannot make another
    /// ordinal or a cardinal; nil for an ordinal itself or any other word.
    static func misspeltValue(of word: String) -> Int? {
        let lower = word.lowercased()
        let w = Array(lower)
        // A cardinal (`SEVENTY`, `SIXTEEN`) or an ordinal's plural (`SECONDS`) is another word, not a slip.
        guard w.count >= 6, values[lower] == nil, !cardinals.contains(lower),
              !(lower.hasSuffix("s") && values[String(lower.dropLast())] != nil) else { return nil }
        let found = Set(english.compactMap { entry -> Int? in entry.0.count >= 5 && isOneSlip(w, Array(entry.0)) ? entry.1 : nil })
        return found.count == 1 ? found.first : nil
    }

    /// English cardinals one letter away from an ordinal (`seventy`/`seventh`, `sixteen`/`sixteenth`).
    static let cardinals: Set<String> = Set(englishTens + ["thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                                                           "nineteen", "eleven", "twelve"])

    /// Whether `a` and `b` differ by one letter left out, added, changed, or by two neighbours swapped.
    static func isOneSlip(_ a: [Character], _ b: [Character]) -> Bool {
        if a.count == b.count {
            let diff = a.indices.filter { a[$0] != b[$0] }
            if diff.count == 1 { return true }
            return diff.count == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var k = 0
        while k < short.count, long[k] == short[k] { k += 1 }
        return long[(k + 1)...].elementsEqual(short[k...])
    }

    // MARK: - The languages

    static let englishUnits = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
    static let englishTens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let englishTenths = ["twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]

    /// First to ninety-ninth; compounds hyphenated (`twenty-first`).
    static var english: [(String, Int)] {
        var list = englishUnits.enumerated().map { ($0.element, $0.offset + 1) }
        let teens = ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
                     "eighteenth", "nineteenth"]
        list += teens.enumerated().map { ($0.element, $0.offset + 10) }
        for (k, tenth) in englishTenths.enumerated() {
            let base = (k + 2) * 10
            list.append((tenth, base))
            list += englishUnits.enumerated().map { ("\(englishTens[k])-\($0.element)", base + $0.offset + 1) }
        }
        return list
    }

    /// Premier to trente-neuvième (`vingt et unième`, `vingt-deuxième`).
    static var french: [(String, Int)] {
        let units = ["unième", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième", "neuvième"]
        var list: [(String, Int)] = [("premier", 1), ("première", 1), ("premiere", 1), ("second", 2), ("seconde", 2)]
        list += units.dropFirst().enumerated().map { ($0.element, $0.offset + 2) }
        let teens = ["dixième", "onzième", "douzième", "treizième", "quatorzième", "quinzième", "seizième", "dix-septième",
                     "dix-huitième", "dix-neuvième"]
        list += teens.enumerated().map { ($0.element, $0.offset + 10) }
        for (tens, tenth, base) in [("vingt", "vingtième", 20), ("trente", "trentième", 30)] {
            list.append((tenth, base))
            list += [("\(tens) et unième", base + 1), ("\(tens)-et-unième", base + 1)]
            list += units.dropFirst().enumerated().map { ("\(tens)-\($0.element)", base + $0.offset + 2) }
        }
        return list
    }

    /// Erste to dreißigste, in each ending (`erste`, `erster`, `erstes`, `ersten`).
    static var german: [(String, Int)] {
        let stems: [(String, Int)] = [
            ("erst", 1), ("zweit", 2), ("dritt", 3), ("viert", 4), ("fünft", 5), ("sechst", 6), ("siebent", 7), ("siebt", 7),
            ("acht", 8), ("neunt", 9), ("zehnt", 10), ("elft", 11), ("zwölft", 12), ("dreizehnt", 13), ("vierzehnt", 14),
            ("fünfzehnt", 15), ("sechzehnt", 16), ("siebzehnt", 17), ("achtzehnt", 18), ("neunzehnt", 19), ("zwanzigst", 20),
            ("einundzwanzigst", 21), ("zweiundzwanzigst", 22), ("dreiundzwanzigst", 23), ("vierundzwanzigst", 24),
            ("fünfundzwanzigst", 25), ("sechsundzwanzigst", 26), ("siebenundzwanzigst", 27), ("achtundzwanzigst", 28),
            ("neunundzwanzigst", 29), ("dreißigst", 30),
        ]
        return stems.flatMap { stem -> [(String, Int)] in ["e", "er", "es", "en"].map { (stem.0 + $0, stem.1) } }
    }

    /// Primero to vigésimo, masculine and feminine (`primera parte`, `capítulo decimotercero`).
    static var spanish: [(String, Int)] {
        let stems: [(String, Int)] = [
            ("primer", 1), ("segund", 2), ("tercer", 3), ("cuart", 4), ("quint", 5), ("sext", 6), ("séptim", 7), ("sétim", 7),
            ("octav", 8), ("noven", 9), ("décim", 10), ("undécim", 11), ("duodécim", 12), ("decimotercer", 13),
            ("decimocuart", 14), ("decimoquint", 15), ("decimosext", 16), ("decimoséptim", 17), ("decimoctav", 18),
            ("decimonoven", 19), ("vigésim", 20),
        ]
        return stems.flatMap { stem -> [(String, Int)] in [(stem.0 + "o", stem.1), (stem.0 + "a", stem.1)] }
    }

    /// Primo to ventesimo, masculine and feminine.
    static var italian: [(String, Int)] {
        let stems: [(String, Int)] = [
            ("prim", 1), ("second", 2), ("terz", 3), ("quart", 4), ("quint", 5), ("sest", 6), ("settim", 7), ("ottav", 8),
            ("non", 9), ("decim", 10), ("undicesim", 11), ("dodicesim", 12), ("tredicesim", 13), ("quattordicesim", 14),
            ("quindicesim", 15), ("sedicesim", 16), ("diciassettesim", 17), ("diciottesim", 18), ("diciannovesim", 19),
            ("ventesim", 20),
        ]
        return stems.flatMap { stem -> [(String, Int)] in [(stem.0 + "o", stem.1), (stem.0 + "a", stem.1)] }
    }
}
