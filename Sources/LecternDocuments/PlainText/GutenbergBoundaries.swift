/// Where a Project Gutenberg text's header ends and its licence begins, from PG's markers
/// (`*** START OF THIS PROJECT GUTENBERG EBOOK …`, `***START OF THE …***`, the old
/// `*END*THE SMALL PRINT!` and the `*** END OF …` / `End of Project Gutenberg's …` lines).
struct GutenbergBoundaries: Equatable {
    /// The last line of the header (the start marker or the end of the small print), if any.
    var headerEnd: Int?
    /// The first line of the footer (the end line), if any.
    var footerStart: Int?
    /// The lines of a "Produced by …" credit right after the header, if any.
    var credit: Range<Int>?

    static let start = LinePattern(#"^\W*\*{3}\s*START\s+OF\s+(THE|THIS)\s+PROJECT\s+GUTENBERG"#, caseInsensitive: true)
    static let smallPrintEnd = LinePattern(#"^\W*\*?END\*?\s*THE SMALL PRINT"#, caseInsensitive: true)
    static let end = LinePattern(
        #"^\W*(\*{3}\s*END\s+OF\s+(THE|THIS)\s+PROJECT\s+GUTENBERG|END\s+OF\s+(THE\s+|THIS\s+)?PROJECT\s+GUTENBERG)"#,
        caseInsensitive: true)
    static let producer = LinePattern(
        #"^\s*(Produced by|Transcribed (from|by)|E-?text prepared by|This e-?text was (produced|prepared)|Prepared by)|Distributed\s+Proofread"#,
        caseInsensitive: true)

    static func find(in lines: [String]) -> GutenbergBoundaries {
        var result = GutenbergBoundaries()
        // Markers are short lines; the header is in the first part of the file.
        let headerLimit = min(lines.count, max(1200, lines.count / 2))
        for i in 0..<headerLimit where lines[i].count < 200 {
            if start.matches(lines[i]) {
                if result.headerEnd == nil { result.headerEnd = i }
            } else if smallPrintEnd.matches(lines[i]) {
                result.headerEnd = max(result.headerEnd ?? i, i)
            }
        }
        let from = (result.headerEnd ?? -1) + 1
        // Without a start marker, only a real end marker counts (not a story's last words).
        for i in from..<lines.count where lines[i].count < 200 && end.matches(lines[i]) {
            result.footerStart = i
            break
        }
        if let headerEnd = result.headerEnd {
            result.credit = producerCredit(in: lines, after: headerEnd, before: result.footerStart ?? lines.count)
        }
        return result
    }

    /// A producer's credit in the first two blocks after the header.
    static func producerCredit(in lines: [String], after headerEnd: Int, before limit: Int) -> Range<Int>? {
        var i = headerEnd + 1
        var blocks = 0
        while i < limit, blocks < 2 {
            while i < limit, TextLines.isBlank(lines[i]) { i += 1 }
            guard i < limit else { return nil }
            var j = i
            while j < limit, !TextLines.isBlank(lines[j]) { j += 1 }
            if lines[i..<j].contains(where: { producer.matches($0) }) && j - i <= 6 { return i..<j }
            blocks += 1
            i = j
        }
        return nil
    }
}
