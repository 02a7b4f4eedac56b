import Foundation

/// A transcriber's note (`Transcriber's Note`, `TRANSCRIBER'S NOTES`, `Transcribers Note:` …):
/// it runs to the next heading, a run of 3+ blank lines or a separator line (included) — when its first
/// block says a note of its own (not a title alone, not ending with a colon), only over blocks that speak
/// of the text; a bracketed note (`[Transcriber's note: …]`) runs to its closing bracket.
enum TranscribersNote {
    /// `Transcriber's Note`, `ORIGINAL TRANSCRIBER'S NOTES:`, `[Transcribers note: …`.
    /// Also the producer's note under another name: `[Note Project Gutenberg: …]`, `Project Gutenberg Note`,
    /// `Producer's Note`, `Note from the e-text editor`; and the list of corrections made to the e-text:
    /// `Typographical errors corrected in text:`, `Errata noted by transcriber:`.
    static let opening = LinePattern(
        #"^\W{0,3}(?:(?:original\s+|the\s+)?transcriber[’']?s?[’']?\s+notes?\b"#
            + #"|note\s+(?:(?:of|from|by)\s+)?(?:the\s+)?(?:project\s+gutenberg|producers?|e-?text\s+editors?)\b"#
            + #"|(?:project\s+gutenberg|producer[’']?s?[’']?|e-?text\s+editor[’']?s?[’']?)\s+notes?\b"#
            + #"|(?:typographical\s+)?(?:errors|errata|corrections|misprints)\s+(?:corrected|noted|made|fixed)\b)"#, caseInsensitive: true)

    static func starts(_ line: String) -> Bool {
        guard line.utf8.count < 400, TextLines.has(line, "ranscriber") || TextLines.has(line, "RANSCRIBER")
            || TextLines.has(line, "utenberg") || TextLines.has(line, "UTENBERG") || TextLines.has(line, "roducer")
            || TextLines.has(line, "RODUCER") || TextLines.has(line, "ditor") || TextLines.has(line, "rror") || TextLines.has(line, "RROR")
            || TextLines.has(line, "rrata") || TextLines.has(line, "RRATA") || TextLines.has(line, "orrection") || TextLines.has(line, "ORRECTION")
            || TextLines.has(line, "isprint") || TextLines.has(line, "ISPRINT") else { return false }
        return opening.matches(TextLines.trim(line))
    }

    /// The end (exclusive) of a note starting at `start`. `isHeading` tells whether a line starts a heading.
    static func end(from start: Int, in lines: [String], limit: Int, isHeading: (Int) -> Bool) -> Int {
        let first = TextLines.trim(lines[start])
        if first.hasPrefix("[") {
            if let close = Brackets.closing(from: start, in: lines, limit: limit, maxLines: 80) {
                return introducesCode(lines[start...close].joined(separator: " ")) ? codeEnd(from: close + 1, in: lines, limit: limit) : close + 1
            }
        }
        // A note that says something on its own first lines (`Transcriber's Note: original reads 'Dyrad'`)
        // goes on only over blocks that speak of the text; one titled alone, or introducing what follows
        // with a colon, runs on whatever they say.
        var firstEnd = start + 1
        while firstEnd < limit, !TextLines.isBlank(lines[firstEnd]) { firstEnd += 1 }
        let block = TextLines.collapse(lines[start..<firstEnd].joined(separator: " "))
        let selfContained = TextLines.wordCount(block) > 4 && !block.hasSuffix(":")
        var i = start + 1
        var blanks = 0
        while i < limit {
            let line = lines[i]
            if TextLines.isBlank(line) {
                blanks += 1
                if blanks >= 3 { return i - blanks + 1 }
            } else {
                if Separators.isSeparator(line) { return i + 1 }
                if blanks > 0, isHeading(i) { return i - blanks }
                if blanks > 0, selfContained, !speaksOfTheText(from: i, in: lines, limit: limit) { return i - blanks }
                blanks = 0
            }
            i += 1
        }
        return limit
    }

    /// A note saying the music or notation that follows is given as code (`music transcribed in Lilypond format`).
    static let codeIntroduction = LinePattern(#"\b(?:format|notation|markup|code)\b"#, caseInsensitive: true)

    static func introducesCode(_ note: String) -> Bool { codeIntroduction.matches(note) }

    /// A line of code, not of words: it opens with `\`, a brace or `%`, or most of its tokens hold a
    /// digit, an apostrophe, a brace or a backslash (`d'2 a'2 fis'4 e'8`).
    static func isCodeLine(_ line: String) -> Bool {
        let t = TextLines.trim(line)
        guard let c = t.first else { return false }
        if "\\{}%".contains(c) { return true }
        let tokens = t.split(whereSeparator: \.isWhitespace)
        let coded = tokens.filter { $0.contains { "\\{}'|".contains($0) || $0.isNumber } }.count
        return coded * 5 >= tokens.count * 3
    }

    /// The end (exclusive) of the blocks of code from `start` (past at most two blank lines each).
    static func codeEnd(from start: Int, in lines: [String], limit: Int) -> Int {
        var end = start
        var i = start
        while i < limit {
            var k = i
            while k < limit, k - i <= 2, TextLines.isBlank(lines[k]) { k += 1 }
            guard k < limit, !TextLines.isBlank(lines[k]) else { break }
            var e = k
            while e < limit, !TextLines.isBlank(lines[e]) { e += 1 }
            guard lines[k..<e].filter(isCodeLine).count * 2 >= e - k else { break }
            end = e
            i = e
        }
        return end
    }

    /// Words a note about a transcription uses (and a story seldom does).
    static let noteWords = LinePattern(
        #"\b(?:original(?:ly)?|printed|spell(?:ing|ings|ed)?|correct(?:ed|ion|ions)|changed|italics?|typograph\w*|hyphen\w*|errors?|omitted|inconsisten\w*|retained|preserved|foot-?notes?|illustrations?|transcri\w*|punctuation|archaic|variants?|edition|page)\b|\[|="#,
        caseInsensitive: true)

    /// Whether the block at `start` speaks of the text (its spelling, corrections, markup), is a
    /// correction, or is a short title (`Accidentals:`), as a note's later blocks do.
    static func speaksOfTheText(from start: Int, in lines: [String], limit: Int) -> Bool {
        var end = start
        while end < limit, !TextLines.isBlank(lines[end]) { end += 1 }
        let block = lines[start..<end].map(TextLines.trim)
        if block.contains(where: { Separators.isSeparator($0) || noteWords.matches($0.replacingOccurrences(of: "_", with: " "))
            || BackMatter.isCorrection($0) }) { return true }
        return TextLines.wordCount(block.joined(separator: " ")) <= 6
    }

    /// The bracket codes a transcriber's note defines, as `[Podium] = …` or `[C]  or [C/4] = …`:
    /// wherever they appear in the text they are notation, not words.
    static func definedCodes(in notes: [String]) -> Set<String> {
        var codes = Set<String>()
        for note in notes {
            for m in definition.allMatches(note) {
                let ns = note as NSString
                for code in bracket.allMatches(ns.substring(with: m.range)) {
                    codes.insert((ns.substring(with: m.range) as NSString).substring(with: code.range(at: 1)))
                }
            }
        }
        return codes
    }

    /// One or more bracketed codes (joined by "or") followed by "=".
    static let definition = LinePattern(#"(?:\[[^\[\]\n]{1,30}\]\s*(?:or\s+)?)+(?==)"#)
    static let bracket = LinePattern(#"\[([^\[\]\n]{1,30})\]"#)
}
