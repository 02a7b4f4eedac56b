import Foundation

/// A heading line that holds a number and a title (`CHAPTER I: DISCUSSION AND BED`,
/// `XIV. The Trial`, `Book 2 — The Return`) is spoken as two headings, so the heading pause falls
/// between the number and the title, as a narrator reads them.
enum HeadingLine {
    private static let numbered = try! NSRegularExpression(pattern: #"""
        ^((?:(?:chapter|chap\.|book|part|volume|vol\.|epoch|letter|stave|lecture|canto|section|act|scene|chapitre|livre|partie|kapitel|teil|buch)\s+)?
        (?:[ivxlcdm]+|\d{1,3}|the\s+\w+|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third)[.:]?)
        \s*[.:—–-]\s+(\S.*)$
        """#, options: [.caseInsensitive, .allowCommentsAndWhitespace])

    /// The line's number and title, or the line alone when it is not both.
    static func spokenParts(_ line: String) -> [String] {
        let range = NSRange(line.startIndex..., in: line)
        guard let m = numbered.firstMatch(in: line, range: range), let title = Range(m.range(at: 2), in: line) else { return [line] }
        // The separator stays with the number, so the text is spoken and timed as written.
        let head = String(line[line.startIndex..<title.lowerBound]).trimmingCharacters(in: .whitespaces)
        return [head, String(line[title])]
    }
}
