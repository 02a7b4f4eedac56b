import Foundation

/// Back matter that is not read: an index (an `INDEX` line then entries with page numbers), and
/// advertisements after `THE END` (``Advertisements``).
enum BackMatter {
    /// `GLOSSARY`, `VOCABULARY`, `WORD LIST`, `Glossary of Scots Words`
    static let glossaryTitle = LinePattern(#"^(GLOSSARY|Glossary|VOCABULARY|Vocabulary|WORD[- ]LIST|Word[- ][Ll]ist)\b.{0,40}$"#)
    /// `ERRATA`, `ERRATA (noted by transcriber)`, `CORRIGENDA`, `Errata.`
    static let errataTitle = LinePattern(#"^(ERRATA|Errata|CORRIGENDA|Corrigenda)\b[^a-z]{0,40}.{0,30}$"#)

    /// A line that corrects the text: a place (`p. 12`, `page 45, line 3`, `12, l. 4`) or a change
    /// (`for "teh" read "the"`, `should be`, `omit`, `"foo" changed to "bar"`, `teh = the`, `→`), or what
    /// the text had (`_text has comma for period_`, `hyphen invisible`, `misprint`, `original reads`).
    static let erratum = LinePattern(
        #"\b(?:p|pp|pg|page|l|ll|line|col|vol)\.?\s*\d+|\d+\s*[,.:]\s*(?:l|line)\b|\bfor\b.*\bread\b|\bshould\s+(?:be|read)\b|\b(?:omit|dele|delete|insert|transpose)\b|\binstead\s+of\b|\bchanged\s+to\b|\bcorrected\b|=|→"#
        + #"|\btext\s+(?:has|had|reads|unchanged)\b|\bhyphen\w*|\bpunctuation\b|\bmisprint\w*|\btypo\w*|\bsic\b|\boriginal(?:ly)?\b|\bprinted\b|\bspelling\b|\bmisspel\w*|\bmissing\b|\binvisible\b|\btransposed\b|\binverted\b|\bduplicated\b"#,
        caseInsensitive: true)

    /// Whether `line` matches ``erratum``, italic marks (`_text has comma_`) taken for spaces.
    static func isCorrection(_ line: String) -> Bool {
        erratum.matches(line.contains("_") ? line.replacingOccurrences(of: "_", with: " ") : line)
    }

    /// The end (exclusive) of an errata list whose title is at `start`: the blocks after it whose
    /// lines are corrections (a third of them at least: a quoted line and its correction under a
    /// label, none longer than a correction's line); the first
    /// block that is not (running text, a heading), or three blank lines, ends it.
    static func errataEnd(from start: Int, in lines: [String], limit: Int) -> Int {
        var end = start + 1
        var i = start + 1
        var blanks = 0
        while i < limit {
            if TextLines.isBlank(lines[i]) {
                blanks += 1
                if blanks >= 3 { break }
                i += 1
                continue
            }
            var e = i
            while e < limit, !TextLines.isBlank(lines[e]) { e += 1 }
            let block = lines[i..<e].map(TextLines.trim)
            let corrections = block.filter(isCorrection).count
            guard corrections * 3 >= block.count, !block.contains(where: { $0.count > 200 }) else { break }
            blanks = 0
            end = e
            i = e
        }
        return end
    }

    static let indexTitle = LinePattern(#"^(GENERAL\s+)?(INDEX|Index)(\s+OF\s+[A-Z ]+)?\.?$"#)
    static let indexEntry = LinePattern(#"[,.]\s*\d{1,4}(\s*[,-]\s*\d{1,4})*\.?$"#)
    static let theEnd = LinePattern(#"^\W*THE\s+END\W*$"#, caseInsensitive: true)
    static let price = LinePattern(#"(\$\s?\d+(\.\d\d)?|£\s?\d|\b\d+s\.(\s?\d+d\.)?|\b\d+/\d+ net\b|\bPrice\b|\bPRICE\b|\bnet\.)"#)

    /// Whether an index starts at `start`: the title, then at least five entries among the next 40 lines.
    static func isIndex(at start: Int, in lines: [String], limit: Int) -> Bool {
        guard lines[start].utf8.count < 60, TextLines.has(lines[start], "nde") || TextLines.has(lines[start], "NDE"),
              indexTitle.matches(TextLines.collapse(lines[start])) else { return false }
        var entries = 0
        var i = start + 1
        while i < limit, i < start + 40 {
            if indexEntry.matches(TextLines.trim(lines[i])) { entries += 1 }
            i += 1
        }
        return entries >= 5
    }
}
