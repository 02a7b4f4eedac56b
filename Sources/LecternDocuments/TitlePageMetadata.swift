import Foundation
import LecternCore

/// The title and author a plain text's title page gives (`PRIDE AND PREJUDICE` / `By Jane Austen`),
/// to name a book whose header does not: the short block before a `By NAME` line among the first
/// blocks after Project Gutenberg's header, before the first heading or running text.
enum TitlePageMetadata {
    static let byLine = LinePattern(#"^(?:[Bb]y|BY)\s+([A-Z][\p{L}.'’ -]{2,60}?)[.,]?$"#)
    /// Words a title in capitals keeps in lower case when it is written as a title (not first).
    static let smallWords: Set<String> = ["a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"]

    static func read(_ lines: [String]) -> BookMetadata {
        let boundaries = GutenbergBoundaries.find(in: lines)
        var i = boundaries.credit?.upperBound ?? boundaries.headerEnd.map { $0 + 1 } ?? 0
        let limit = min(lines.count, i + 400)
        var blocks: [[String]] = []
        while i < limit, blocks.count < 10 {
            while i < limit, TextLines.isBlank(lines[i]) { i += 1 }
            var block: [String] = []
            while i < limit, !TextLines.isBlank(lines[i]) {
                block.append(TextLines.trim(lines[i]))
                i += 1
            }
            guard let first = block.first else { break }
            if TranscribersNote.starts(first) || first.hasPrefix("[") || GutenbergBoundaries.producer.matches(first) { continue }
            // The first heading, contents list or running text ends the title page.
            if HeadingCandidate.of(first).map({ if case .keyword = $0.kind { true } else { false } }) == true
                || ContentsList.title(first) != nil || block.contains(where: { $0.count > 75 }) { break }
            blocks.append(block)
        }
        for (k, block) in blocks.enumerated() {
            for (j, line) in block.enumerated() {
                // `By Jane Austen`, or `by` alone with the name on the next line.
                let alone = ["by", "BY", "By"].contains(line)
                let next = j + 1 < block.count ? block[j + 1] : k + 1 < blocks.count ? blocks[k + 1][0] : nil
                guard let author = alone ? next : byLine.capture(1, in: line) else { continue }
                let titleLines = j > 0 ? Array(block[..<j]) : k > 0 ? blocks[k - 1] : []
                guard !titleLines.isEmpty, titleLines.count <= 4 else { return BookMetadata() }
                let name = author.trimmingCharacters(in: CharacterSet(charactersIn: " .,"))
                return BookMetadata(title: titled(titleLines), author: name.isEmpty ? nil : name)
            }
        }
        return BookMetadata()
    }

    /// A title as written, or when most of its words are in capitals written as a title
    /// (`PRIDE AND PREJUDICE` → `Pride and Prejudice`)
    /// (`PRIDE.` / `and` / `PREJUDICE` → `Pride and Prejudice`): each line without its closing stop.
    static func titled(_ lines: [String]) -> String {
        let flat = TextLines.collapse(lines.map { line in
            let t = TextLines.trim(line.replacingOccurrences(of: "_", with: ""))
            return t.hasSuffix(".") || t.hasSuffix(",") ? String(t.dropLast()) : t
        }.joined(separator: " "))
        let words = flat.split(separator: " ")
        guard words.filter({ TextLines.isUpperCase(String($0)) }).count * 2 > words.count else { return flat }
        return words.enumerated().map { k, word in
            guard TextLines.isUpperCase(String(word)) else { return String(word) }
            let lower = word.lowercased()
            return k > 0 && smallWords.contains(lower) ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
        }.joined(separator: " ")
    }
}
