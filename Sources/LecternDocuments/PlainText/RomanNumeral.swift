/// Roman numerals in headings (`XIV`): their value, only for numerals written the standard way.
enum RomanNumeral {
    static let values: [(String, Int)] = [
        ("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90),
        ("L", 50), ("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1),
    ]

    /// The value of an upper-case Roman numeral, or nil when it is not one written canonically
    /// (so words like `DID` or `MIX` are not numbers).
    static func value(of text: String) -> Int? {
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ "IVXLCDM".contains($0) }) else { return nil }
        var rest = Substring(text)
        var total = 0
        for (symbol, value) in values {
            var repeats = 0
            while rest.hasPrefix(symbol) {
                total += value
                rest = rest.dropFirst(symbol.count)
                repeats += 1
                if repeats > 3 { return nil }
            }
        }
        guard rest.isEmpty, numeral(total) == text else { return nil }
        return total
    }

    static func numeral(_ value: Int) -> String {
        var v = value
        var out = ""
        for (symbol, n) in values {
            while v >= n { out += symbol; v -= n }
        }
        return out
    }
}
