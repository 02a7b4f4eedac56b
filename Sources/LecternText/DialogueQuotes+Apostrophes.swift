extension DialogueQuotes {
    /// Words written with an apostrophe before them for letters left out (`'tis`, `'em`, `'cause`,
    /// a dropped h: `'ave`), lowercased: a single quote before one of them is an apostrophe.
    static let elidedStarts: Set<String> = [
        "tis", "twas", "twere", "twill", "twould", "twixt", "tween", "em", "cause", "cos", "coz", "n", "un", "uns", "bout",
        "fore", "neath", "gainst", "round", "til", "till", "cept", "scuse", "spose", "pon", "fraid", "member", "prentice",
        "e", "im", "ave", "ad", "ere", "ow", "ome", "ouse", "alf", "appen", "appened", "ope", "eard", "ead", "eart", "undred",
        "ang", "ands", "orse", "osses", "ullo", "ello", "ammer", "igh", "ell", "aint", "ll", "ve", "re", "d", "s", "t",
        "sdeath", "sblood", "sbud", "slife", "swounds", "zounds", "odd", "odds", "od", "ods", "ee", "ud", "scape", "scaped",
        "scapes", "scaping", "specially", "xcept", "bacca",
    ]

    /// Words written with an apostrophe after them for letters left out (`o'`, `an'`, `th'`),
    /// lowercased; and every word ending in `in` (`runnin'`) or `s` (`dogs'`, a plural's
    /// possessive) may be one.
    static let elidedEnds: Set<String> = ["o", "an", "th", "n", "ol", "po", "wi", "fro", "yo", "gi", "ha", "mo", "ne", "i"]

    /// The lowercased word (letters only) starting at `start`.
    static func word(after start: Int, in units: [UInt16]) -> String {
        var end = start
        while end < units.count, isLetter(units[end]) { end += 1 }
        return String(decoding: units[start..<end], as: UTF16.self).lowercased()
    }

    /// The lowercased word (letters only) ending just before `end`.
    static func word(before end: Int, in units: [UInt16]) -> String {
        var start = end
        while start > 0, isLetter(units[start - 1]) { start -= 1 }
        return String(decoding: units[start..<end], as: UTF16.self).lowercased()
    }

    /// Whether the single quote at `i`, before a word, is an apostrophe for letters left out
    /// (`'tis`, `'98`, `'em`).
    static func isElidedStart(_ i: Int, in units: [UInt16]) -> Bool {
        guard i + 1 < units.count else { return false }
        if isDigit(units[i + 1]) { return true }
        return elidedStarts.contains(word(after: i + 1, in: units))
    }

    /// Whether the single quote at `i`, after a word, may be an apostrophe (`dogs' dinner`,
    /// `runnin',`, `o' the`) rather than a closing mark: after a word written short (`o'`, `an'`,
    /// a word in `-in`), or after a plural before another word.
    static func mayBeElidedEnd(_ i: Int, in units: [UInt16]) -> Bool {
        let before = word(before: i, in: units)
        guard !before.isEmpty else { return false }
        if elidedEnds.contains(before) || (before.count >= 4 && before.hasSuffix("in")) { return true }
        var next = i + 1
        while next < units.count, isSpace(units[next]) { next += 1 }
        guard next > i + 1, next < units.count, isLetter(units[next]) else { return false }
        return before.hasSuffix("s")
    }

    static func isLetter(_ unit: UInt16) -> Bool {
        guard let scalar = Unicode.Scalar(unit) else { return UTF16.isLeadSurrogate(unit) || UTF16.isTrailSurrogate(unit) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    static func isSpace(_ unit: UInt16) -> Bool {
        guard let scalar = Unicode.Scalar(unit) else { return false }
        return scalar.properties.isWhitespace
    }

    /// Dashes and the ellipsis: a quote mark beside one takes its role from its other side.
    static func isDash(_ unit: UInt16) -> Bool {
        unit == 0x2D || unit == 0x2013 || unit == 0x2014 || unit == 0x2015 || unit == 0x2012 || unit == 0x2026
    }

    static func isOpeningBracket(_ unit: UInt16) -> Bool { unit == 0x28 || unit == 0x5B || unit == 0x7B }
}
