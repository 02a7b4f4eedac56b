import LecternCore

/// Contents lists and lists of illustrations: a `CONTENTS` / `TABLE OF CONTENTS` (`INHOUD`, `INHALT` …) /
/// `LIST OF ILLUSTRATIONS` title and its entries up to a run of 3+ blank lines, or an untitled run of
/// entries ending in page numbers (`Heading to Chapter IV.      18`).
enum ContentsList {

    /// `CONTENTS`, `TABLE OF CONTENTS`, `CONTENTS AND ILLUSTRATIONS` (a list naming each chapter's pictures too).
    static let contentsTitle = LinePattern(#"^(TABLE\s+OF\s+)?CONTENTS?(\s+OF\s+[A-Z ]+)?(\s+AND\s+(LIST\s+OF\s+)?ILLUSTRATIONS)?\s*[.:]?$"#,
                                           caseInsensitive: true)
    /// The same title in the other languages of the books we read: Dutch `INHOUD`, German `INHALT`,
    /// French `TABLE DES MATIÈRES`, Spanish and Italian `ÍNDICE`, Portuguese `SUMÁRIO` …
    static let foreignContentsTitle = LinePattern(
        #"^(INHOUD(SOPGAVE)?|INHALT(SVERZEICHNIS)?|TABLE\s+DES\s+MATI[EÈ]RES|SOMMAIRE|[IÍ]NDICE(\s+GENERAL)?|SUM[AÁ]RIO|INDHOLD|INNEHÅLL|SISÄLLYS|SPIS\s+TREŚCI|OBSAH|TARTALOM)\s*[.:]?$"#,
        caseInsensitive: true)
    static let illustrationsTitle = LinePattern(#"^(LIST\s+OF\s+)?(ILLUSTRATIONS|PLATES|FIGURES)\s*[.:]?$"#, caseInsensitive: true)
    static let pageEntry = LinePattern(#"\S.*\S\s{2,}(\d{1,4}|[ivxlcdm]{1,7})\.?$"#)
    static let columnHeader = LinePattern(#"^(CHAP(TER)?\.?|PAGE|Page|SECTION|PART)(\s+(PAGE|Page))?\.?$"#)

    /// The reason, if the line titles a list.
    static func title(_ line: String) -> SkipReason? {
        guard line.utf8.count <= 120 else { return nil }
        let t = TextLines.collapse(line)
        guard t.count <= 40 else { return nil }
        if contentsTitle.matches(t) || foreignContentsTitle.matches(t) { return .contentsList }
        if illustrationsTitle.matches(t) { return .illustrationsList }
        return nil
    }

    /// The end (exclusive) of a titled list starting at `start`: at the first run of 3+ blank lines after
    /// an entry, before a block of prose, before a play's cast list (``CastList/title``), before a block
    /// that starts a chapter (`isChapterStart`: a heading followed by text, when the list ends with fewer
    /// blank lines), or before a line after a blank one that repeats the list's first entry
    /// (`Introductory Note`: the first chapter's heading, though no heading word marks it).
    static func titledEnd(from start: Int, in lines: [String], limit: Int, isChapterStart: (Int) -> Bool = { _ in false }) -> Int {
        var i = start + 1
        var blanks = 0
        var entries = 0
        var lastContent = start
        var firstEntry: String?
        while i < limit {
            if TextLines.isBlank(lines[i]) {
                blanks += 1
                if blanks >= 3, entries > 0 { break }
                i += 1
                continue
            }
            // An entry of three long lines (`CHAPTER XXXIII. The Fate of Injun Joe--…` / `--An Expedition …` / …) is no prose.
            let entry = HeadingCandidate.of(lines[i])?.hasTitle == true
            if blanks > 0, entries > 0, (isProseBlock(from: i, in: lines, limit: limit) && !entry) || isChapterStart(i) { break }
            // A play's cast list under its own title (`Dramatis Personæ`) is no entry of the contents.
            if blanks > 0, entries > 0, CastList.title.matches(CastList.cleaned(lines[i])) { break }
            let key = TextLines.letterKey(lines[i])
            if blanks > 0, entries > 0, key == firstEntry { break }
            // (Not a column's header, `PAGE`, which a list set over two pages repeats.)
            if entries == 0, key.count >= 4, !columnHeader.matches(TextLines.trim(lines[i])) { firstEntry = key }
            blanks = 0
            entries += 1
            lastContent = i
            i += 1
        }
        return lastContent + 1
    }

    /// The end (exclusive) of an untitled list of page-numbered entries starting at `start`, if there are
    /// at least three entries (blank lines of up to two between them; indented continuation lines allowed).
    static func pageListEnd(from start: Int, in lines: [String], limit: Int) -> Int? {
        var i = start
        var entries = 0
        var lastContent = -1
        var blanks = 0
        var previousWasEntry = false
        while i < limit {
            let line = lines[i]
            if TextLines.isBlank(line) {
                blanks += 1
                if blanks > 2 { break }
                i += 1
                continue
            }
            let t = TextLines.trim(line)
            if isPageEntry(t) {
                entries += 1
                previousWasEntry = true
            } else if columnHeader.matches(t) && entries == 0 {
                previousWasEntry = false
            } else if previousWasEntry, blanks == 0, TextLines.indent(line) >= 4, t.count <= 50 {
                // continuation of a long entry
            } else {
                break
            }
            blanks = 0
            lastContent = i
            i += 1
        }
        return entries >= 3 ? lastContent + 1 : nil
    }

    /// The last line of a synopsis entry: a sentence ended, then the chapter's page (`… pedants and
    /// rhapsodists.      _Page 3_`, `… Ninth symphonies. Page 15`). A contents list that sums up each
    /// chapter in a paragraph of phrases sets one under each title; running text ends no paragraph so.
    static let synopsisEnd = LinePattern(#"[.!?]["”’)]?\s*_?(?:Page|PAGE|Pg\.?|P\.)\s*(?:\d{1,4}|[ivxlcdm]{1,7})_?\.?$"#)

    /// Whether a block (its lines, trimmed) is a contents list's synopsis of a chapter, ending in its page.
    static func isSynopsis(_ block: some Collection<String>) -> Bool {
        guard let last = block.reversed().first(where: { !TextLines.isBlank($0) }) else { return false }
        return synopsisEnd.matches(TextLines.trim(last))
    }

    /// A line ending in a page number after a gap of 2+ spaces.
    static func isPageEntry(_ t: String) -> Bool {
        guard let last = t.last(where: { $0 != "." }), last.isNumber || "ivxlcdm".contains(last), TextLines.has(t, "  ") else { return false }
        return pageEntry.matches(t)
    }

    /// One line of running text as long as a paragraph (texts that keep a paragraph on one line):
    /// 100 characters or more, sentences of lower-case words, no page number at its end, not a run of page references.
    static func isUnwrappedParagraph(_ t: String) -> Bool {
        t.count >= 100 && !isPageEntry(t) && !synopsisEnd.matches(t) && t.filter(\.isLowercase).count * 2 > t.filter(\.isLetter).count
            && (TextLines.has(t, ". ") || TextLines.has(t, ", ")) && !isPageReferences(t)
    }

    /// A line whose words are a third or more page numbers (four or more: `Bonn, 13, 16, 17, 18, 23, 31,`
    /// `207-208,`): an index entry kept on one line, no running text.
    static func isPageReferences(_ t: String) -> Bool {
        let words = t.split(whereSeparator: \.isWhitespace)
        let numbers = words.filter { w in w.contains(where: \.isNumber) && !w.contains(where: \.isLetter) }.count
        return numbers >= 4 && numbers * 3 >= words.count
    }

    /// Three or more lines of which most are long (page references aside) and none ends with a page number, or one line as
    /// long as a paragraph: running text.
    /// A synopsis under a contents entry (``isSynopsis(_:)``) is no running text.
    static func isProseBlock(from start: Int, in lines: [String], limit: Int) -> Bool {
        var j = start
        var long = 0
        var count = 0
        var end = start
        while end < limit, !TextLines.isBlank(lines[end]) { end += 1 }
        if isSynopsis(lines[start..<end]) { return false }
        while j < limit, !TextLines.isBlank(lines[j]) {
            let t = TextLines.trim(lines[j])
            if isPageEntry(t) { return false }
            if t.count >= 50, !isPageReferences(t) { long += 1 }
            count += 1
            j += 1
        }
        if count >= 3 && long * 3 >= count * 2 { return true }
        guard count == 1, isUnwrappedParagraph(TextLines.trim(lines[start])) else { return false }
        // A long title with its page number on the next line (a table's cells laid out one per block) is an entry.
        while j < limit, TextLines.isBlank(lines[j]) { j += 1 }
        return j >= limit || !isBarePageNumber(TextLines.trim(lines[j]))
    }

    /// A page number alone on its line: `18`, `xiv`.
    static func isBarePageNumber(_ t: String) -> Bool {
        !t.isEmpty && t.count <= 4 && (t.allSatisfy(\.isNumber) || t.allSatisfy { "ivxlcdm".contains($0) })
    }
}
