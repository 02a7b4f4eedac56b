/// The chapters' titles in capitals of a plain text that numbers none of its chapters: short
/// upper-case lines, each after a wide gap (three blank lines or more, as Project Gutenberg's texts
/// set their chapters) with prose right under it, three or more through the book (`THE SON OF THE
/// BRAHMAN`, `WITH THE SAMANAS`, `GOTAMA` … under `FIRST PART`), are headings, as the book's HTML
/// marks them. A verse under the line (a poem's title), a short line (a title page's) or a line
/// alone of its kind (a notice's `EXPLANATORY`) does not make one.
enum GapCapitals {
    /// The titles a book must set so, at least.
    static let minimumSeries = 3
    /// A title in the shape of a byline (`BY THE RIVER`), which a name does not start with an article.
    static let byArticle = LinePattern(#"^BY\s+(?:THE|A|AN)\s"#)

    /// The first lines of such titles in `lines[start..<limit]`, under the book's first part heading,
    /// when there are enough of them and the book numbers none of its chapters; else none.
    static func titles(in lines: [String], from start: Int, limit: Int) -> Set<Int> {
        // (A book that numbers its chapters, `I` / `II` or `CHAPTER I`, has its series: a capitals line
        // after a gap there is a prologue's or a title page's; the title page stands before the parts.)
        var numbered = 0
        var firstPart: Int?
        var inBrackets = false  // an `[Illustration: …]` over several lines holds no heading
        for i in start..<limit where !TextLines.isBlank(lines[i]) {
            let t = TextLines.trim(lines[i])
            if inBrackets || (t.hasPrefix("[") && !t.contains("]")) {
                inBrackets = !t.contains("]")
                continue
            }
            guard let candidate = HeadingCandidate.of(t) else { continue }
            switch candidate.kind {
            case .keyword(isPart: true): firstPart = firstPart ?? i
            case .keyword(isPart: false), .bareNumber, .numberedTitle: numbered += 1
            default: break
            }
            if numbered >= minimumSeries { return [] }
        }
        guard let from = firstPart else { return [] }
        var found: Set<Int> = []
        var blanks = 0
        for i in from..<limit {
            if TextLines.isBlank(lines[i]) {
                blanks += 1
                continue
            }
            if blanks >= GapTitle.gap, i + 1 < limit, TextLines.isBlank(lines[i + 1]), opens(at: i, in: lines, limit: limit) { found.insert(i) }
            blanks = 0
        }
        return found.count >= minimumSeries ? found : []
    }

    /// Whether line `i` (alone in its block, after a wide gap) reads as such a title.
    static func opens(at i: Int, in lines: [String], limit: Int) -> Bool {
        let t = TextLines.trim(lines[i])
        // Most lines are passed over unread: a title in capitals starts with one.
        guard let first = t.unicodeScalars.first, first.properties.isUppercase, TextLines.isUpperCase(t),
              GapTitle.isTitle(t) || (byArticle.matches(t) && GapTitle.isTitle(String(t.dropFirst(3)))),
              TextLines.indent(lines[i]) < 40, HeadingCandidate.of(t) == nil else { return false }
        return proseFollows(after: i + 1, in: lines, limit: limit)
    }

    /// Whether the next block after `end`, one or two blank lines on, is prose set at the margin: two
    /// lines or more, the first a full line of text (50 characters or more), not a verse's; or a
    /// paragraph on one line (200 characters or more).
    static func proseFollows(after end: Int, in lines: [String], limit: Int) -> Bool {
        var k = end
        while k < limit, TextLines.isBlank(lines[k]) { k += 1 }
        guard k < limit, (1...2).contains(k - end), TextLines.indent(lines[k]) < 8 else { return false }
        let first = TextLines.trim(lines[k]).count
        let more = k + 1 < limit && !TextLines.isBlank(lines[k + 1])
        return more ? first >= 50 : first >= 200
    }
}
