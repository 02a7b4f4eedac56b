/// Roman numerals in their canonical (subtractive) form, 1…3999.
public enum RomanNumeral {
    private static let values: [(String, Int)] = [
        ("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90),
        ("L", 50), ("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1),
    ]

    /// The canonical upper-case numeral for `number` (1…3999), or nil outside that range.
    public static func string(for number: Int) -> String? {
        guard (1...3999).contains(number) else { return nil }
        var n = number
        var result = ""
        for (symbol, value) in values {
            while n >= value {
                result += symbol
                n -= value
            }
        }
        return result
    }

    /// The value of a numeral written in canonical form, all upper case or all lower case
    /// (`XIV`, `xiv`), or nil: `IIII`, `VX`, `MIX`'s cousins `DID` or `CIVIL`, mixed case `Xiv`.
    /// (`MIX` is a canonical 1009; callers bound the values they accept.)
    public static func value(of text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.count <= 15 else { return nil }
        let upper: String
        if text.allSatisfy({ "IVXLCDM".contains($0) }) {
            upper = String(text)
        } else if text.allSatisfy({ "ivxlcdm".contains($0) }) {
            upper = text.uppercased()
        } else {
            return nil
        }
        var total = 0
        var previous = 0
        for character in upper.reversed() {
            let v: Int
            switch character {
            case "I": v = 1
            case "V": v = 5
            case "X": v = 10
            case "L": v = 50
            case "C": v = 100
            case "D": v = 500
            default: v = 1000
            }
            if v < previous { total -= v } else { total += v; previous = v }
        }
        return string(for: total) == upper ? total : nil
    }
}
