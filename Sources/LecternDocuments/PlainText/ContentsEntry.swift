import Foundation
import LecternText

/// One entry of a contents list, or a heading read the same way to compare with one:
/// `CHAPTER I. Down the Rabbit-Hole    1`, `II.—The Old Mint ....... 13`, `3. The Storm`,
/// `BOOK THE SECOND`, `The Widow and her Child`, a bare `IV.`.
struct ContentsEntry: Equatable {
    /// How a number is written: a chapter `IV` and a verse `4` are not the same heading.
    enum Style: Equatable { case roman, arabic, word }

    var number: Int?
    var style: Style?
    /// The words after the number (or the whole entry when it has none), page number removed.
    var title: String?
    /// A part keyword (`BOOK`, `PART`, `VOLUME`, `EPOCH`, `ACT`): parts are not matched as chapters.
    var isPart = false

    /// The title's letters and digits, upper-cased.
    var titleKey: String { title.map(TextLines.letterKey) ?? "" }

    /// The title's key without a remark in brackets at its end (`The Furry Day Song (Supplement)`,
    /// `Preface [to the Second Edition]`): a list may add such a remark to the title the page heads
    /// the chapter by. The title's key when it has none.
    var remarklessKey: String {
        guard let title, let r = title.range(of: #"\s*[(\[][^()\[\]]*[)\]][.:]?$"#, options: .regularExpression),
              r.lowerBound > title.startIndex else { return titleKey }
        return TextLines.letterKey(String(title[..<r.lowerBound]))
    }

    /// A page number after dot leaders, a gap of 2+ spaces, `Page`/`Pg`, or a dash.
    static let pageNumber = LinePattern(
        #"(?:\s*\.(?:\s*\.)+\s*|\s{2,}|\s+_?(?:[Pp]age|[Pp]g\.?|p\.)_?\s*|\s*[—–-]{2,}\s*)(?:\d{1,4}|[ivxlcdm]{1,7})\.?$"#)
    static let numbered = LinePattern(
        #"^(?:(?i:(CHAPTER|CHAP|LETTER|STAVE|LECTURE|CANTO|SECTION|ESSAY|SKETCH|SCENE)|(BOOK|PART|VOLUME|VOL|EPOCH|ACT))\.?\s+)?"#
            + #"((?i:the\s+)?[A-Za-z]+(?i:-(?:"# + OrdinalWords.englishUnits.joined(separator: "|") + #"))?|[IVXLCDM]+|\d{1,3})([\s.:,)—–-]*)(.*)$"#)
    static let cardinals = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                            "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]

    /// The entry a line (or a heading's lines joined) reads as; nil for a line with no letters or
    /// digits, or a column header (`PAGE`, `CHAPTER`).
    static func parse(_ line: String) -> ContentsEntry? {
        var text = TextLines.trim(Emphasis.removingTags(line))
        if let m = pageNumber.firstMatch(text) { text = (text as NSString).substring(to: m.range.location) }
        text = TextLines.collapse(text)
        guard text.contains(where: { $0.isLetter || $0.isNumber }), !ContentsList.columnHeader.matches(text) else { return nil }
        let titleOnly = ContentsEntry(title: text)
        guard let m = numbered.firstMatch(text) else { return titleOnly }
        let ns = text as NSString
        func group(_ k: Int) -> String? {
            m.range(at: k).location == NSNotFound ? nil : ns.substring(with: m.range(at: k))
        }
        let hasKeyword = group(1) != nil || group(2) != nil
        let numeral = group(3) ?? ""
        let gap = group(4) ?? ""
        let rest = TextLines.trim(group(5) ?? "")
        var entry = ContentsEntry(title: rest.isEmpty ? nil : rest, isPart: group(2) != nil)
        if let value = Int(numeral) {
            (entry.number, entry.style) = (value, .arabic)
        } else if let value = RomanNumeral.value(of: numeral), numeral.allSatisfy(\.isUppercase) {
            (entry.number, entry.style) = (value, .roman)
        } else if hasKeyword, let value = wordValue(numeral) {
            (entry.number, entry.style) = (value, .word)
        } else {
            // `LETTER FROM WENDELL PHILLIPS, ESQ.`, `BOOK OF JOB`: a keyword followed by a word, not a numeral, is a title.
            return hasKeyword && RomanNumeral.value(of: numeral.uppercased()) != nil ? nil : titleOnly
        }
        // `IVANHOE`, `I Meet a Stranger`: a word, not a numeral, unless a keyword or a stop says so.
        if !hasKeyword, !rest.isEmpty, gap.isEmpty || (gap == " " && entry.style != .arabic) { return titleOnly }
        return entry
    }

    /// `the first` → 1, `TWO` → 2.
    static func wordValue(_ text: String) -> Int? {
        var word = text.lowercased()
        if word.hasPrefix("the ") { word = TextLines.trim(String(word.dropFirst(4))) }
        if let value = OrdinalWords.value(of: word) { return value }
        if let k = cardinals.firstIndex(of: word) { return k + 1 }
        return nil
    }

    /// A heading's lines read as an entry: a number alone on the first line (`I`, `CHAPTER IV.`)
    /// with the title on the next ones, or the lines together.
    static func heading(_ lines: [String]) -> ContentsEntry? {
        if lines.count >= 2, var first = parse(lines[0]), first.title == nil, first.number != nil {
            first.title = lines.dropFirst().joined(separator: " ")
            return first
        }
        return parse(lines.joined(separator: " "))
    }

    /// Whether a heading (or a short line) read as `other` is the chapter this entry lists: the
    /// same title (or the same but for a remark in brackets after one: `(Supplement)`; or, but `exactly`, one the start of the other, 8 letters or more: a list
    /// shortens long titles; or the same but for one letter, 6 letters or more: a misprint) and the same number if both have one (`1` in the list may be `I`
    /// on the page); without a title on one side, the same number written the same way (a
    /// chapter `IV`, not a verse `4`).
    /// Whether `other` has this entry's number, written the same way, whatever the titles.
    func hasNumber(of other: ContentsEntry) -> Bool {
        guard let n = number, let m = other.number else { return false }
        return n == m && style == other.style
    }

    func matches(_ other: ContentsEntry, exactly: Bool = false) -> Bool {
        let a = titleKey, b = other.titleKey
        if !a.isEmpty, !b.isEmpty {
            if let n = number, let m = other.number, n != m { return false }
            if a == b { return true }
            // The same title but for a remark in brackets after it on one side.
            let (plainA, plainB) = (remarklessKey, other.remarklessKey)
            if (plainA.count >= 4 && plainA == b) || (plainB.count >= 4 && plainB == a) { return true }
            if exactly { return false }
            let (short, long) = a.count < b.count ? (a, b) : (b, a)
            // A list's misprint (`Couterparts` for `COUNTERPARTS`): one letter dropped, added or changed in 6 or more.
            return short.count >= 8 && long.hasPrefix(short) || short.count >= 6 && Self.oneEditApart(Array(short), Array(long))
        }
        guard let n = number, let m = other.number else { return false }
        return n == m && style == other.style
    }

    /// Whether `other` gives this entry's title in other words: four words or more on each side, and
    /// all but one in four of the longer title's words found in the other (`A LAC OF RUPEES FOR A PIECE
    /// OF ADVICE` over `A Lac of Rupees for a Bit of Advice`; `… MISCELLANEOUS REFLEXIONS` for `…
    /// Reflections`); the same number if both have one. Only the list's next entry is named so.
    func nearlyMatches(_ other: ContentsEntry) -> Bool {
        guard let a = title, let b = other.title else { return false }
        if let n = number, let m = other.number, n != m { return false }
        let words = { (t: String) in TextLines.words(t).map { TextLines.letterKey(String($0)) }.filter { !$0.isEmpty } }
        let (wa, wb) = (words(a), words(b))
        guard wa.count >= 4, wb.count >= 4 else { return false }
        var left = Dictionary(wa.map { ($0, 1) }, uniquingKeysWith: +)
        var shared = 0
        for w in wb where left[w, default: 0] > 0 {
            left[w]! -= 1
            shared += 1
        }
        return shared * 4 >= max(wa.count, wb.count) * 3
    }

    /// Whether `long` is `short` with one letter dropped, added or changed (`short` no longer than `long`).
    static func oneEditApart(_ short: [Character], _ long: [Character]) -> Bool {
        guard long.count - short.count <= 1 else { return false }
        guard let k = short.indices.first(where: { short[$0] != long[$0] }) else { return true }
        return short.count == long.count ? short[(k + 1)...] == long[(k + 1)...] : short[k...] == long[(k + 1)...]
    }
}
