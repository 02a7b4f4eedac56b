import LecternCore

/// Chemical formulas read letter by letter, their numbers as numbers — "H2SO4" as "H 2 S O 4"
/// (aitch two ess oh four), "CO2" as "C O 2", "NaCl" as "N eh C L" — by ``SpokenRules/Formulas``.
/// Left to the engine, "H2SO4" is "aitch two so four", "CO2" "co two", "NaCl" "nah cee el".
///
/// A word is a formula when it is made of element symbols (a capital, with its small letter:
/// "Na", "Cl") and numbers ("2", or subscripts "₂"), starts with a symbol, and either has a number
/// or is in mixed case with two symbols or more ("NaCl", "HCl"). Words in capitals alone ("NO",
/// "HE", "IV", "BOOK") are words or numerals; "He", "In" are words.
struct FormulaReading: Sendable {
    let rules: SpokenRules.Formulas

    init(_ rules: SpokenRules.Formulas) { self.rules = rules }

    /// The element symbols of the periodic table.
    static let elements: Set<String> = Set("""
        H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo
        Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb
        Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    /// Whether the token may be a formula, judged from its units alone (cheaply): a capital after
    /// any opening punctuation, and a digit, a subscript digit or a second capital in it.
    static func mayBeFormula(_ token: WordTokenizer.Token, _ units: [UInt16]) -> Bool {
        var a = token.start
        while a < token.end, units[a] == 0x28 || units[a] == 0x22 || units[a] == 0x27 || units[a] == 0x5B || units[a] == 0x201C || units[a] == 0x2018 { a += 1 }
        guard a < token.end, units[a] >= 0x41, units[a] <= 0x5A else { return false }
        return units[(a + 1)..<token.end].contains { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x2080 && $0 <= 0x2089) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// Word `i` said as a formula, or nil when it is none.
    func reading(at i: Int, words: Words) -> Pronunciation? {
        let word = words[i]
        guard let parts = Self.parts(word.core) else { return nil }
        let symbols = parts.filter { $0.first!.isLetter }
        let hasNumber = symbols.count < parts.count
        guard hasNumber || (symbols.count >= 2 && word.core.contains(where: \.isLowercase)) else { return nil }
        let said = parts.map { part in
            part.first!.isLetter ? part.map { rules.letters[String($0.uppercased())] ?? $0.uppercased() }.joined(separator: " ") : part
        }.joined(separator: " ")
        return Pronunciation(offset: word.token.start, length: word.token.end - word.token.start,
                             spoken: String(word.lead) + said + word.possessive + word.trail)
    }

    /// The formula's element symbols and numbers (subscripts as digits), or nil when it is none.
    static func parts(_ core: Substring) -> [String]? {
        var parts: [String] = []
        var rest = core[...]
        while let c = rest.first {
            if c.isUppercase, c.isASCII {
                let two = rest.prefix(2)
                if two.count == 2, two.last!.isLowercase {
                    guard elements.contains(String(two)) else { return nil }
                    parts.append(String(two))
                    rest = rest.dropFirst(2)
                } else {
                    guard elements.contains(String(c)) else { return nil }
                    parts.append(String(c))
                    rest = rest.dropFirst()
                }
            } else if let d = digit(c) {
                guard !parts.isEmpty else { return nil }
                if let last = parts.last, last.first!.isNumber { parts[parts.count - 1] += d } else { parts.append(d) }
                rest = rest.dropFirst()
            } else {
                return nil
            }
        }
        return parts.isEmpty ? nil : parts
    }

    private static func digit(_ c: Character) -> String? {
        if c.isASCII, c.isNumber { return String(c) }
        guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1, (0x2080...0x2089).contains(scalar.value) else { return nil }
        return String(scalar.value - 0x2080)
    }
}
