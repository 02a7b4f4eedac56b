/// Back matter that is not read: an index (an `INDEX` line then entries with page numbers), and
/// advertisements after `THE END` (``Advertisements``).
enum BackMatter {
    static let indexReason = "index"
    static let advertisementsReason = "advertisements"
    static let colophonReason = "colophon"
    static let errataReason = "errata"
    static let glossaryReason = "glossary (back matter)"
    /// `GLOSSARY`, `VOCABULARY`, `WORD LIST`, `Glossary of Scots Words`
    static let glossaryTitle = LinePattern(#"^(GLOSSARY|Glossary|VOCABULARY|Vocabulary|WORD[- ]LIST|Word[- ][Ll]ist)\b.{0,40}$"#)
    /// `ERRATA`, `ERRATA (noted by transcriber)`, `CORRIGENDA`, `Errata.`
    static let errataTitle = LinePattern(#"^(ERRATA|Errata|CORRIGENDA|Corrigenda)\b[^a-z]{0,40}.{0,30}$"#)

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
