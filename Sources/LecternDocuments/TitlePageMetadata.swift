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
                guard let author = byLine.capture(1, in: line) else { continue }
                let titleLines = j > 0 ? Array(block[..<j]) : k > 0 ? blocks[k - 1] : []
                guard !titleLines.isEmpty, titleLines.count <= 3 else { return BookMetadata() }
                return BookMetadata(title: titled(titleLines.joined(separator: " ")), author: author.trimmingCharacters(in: .whitespaces))
            }
        }
        return BookMetadata()
    }

    /// A title as written, or in capitals written as a title (`PRIDE AND PREJUDICE` → `Pride and Prejudice`).
    static func titled(_ text: String) -> String {
        let flat = TextLines.collapse(text.replacingOccurrences(of: "_", with: ""))
        let trimmed = flat.hasSuffix(".") ? String(flat.dropLast()) : flat
        guard TextLines.isUpperCase(trimmed) else { return trimmed }
        return trimmed.split(separator: " ").enumerated().map { k, word in
            let lower = word.lowercased()
            return k > 0 && smallWords.contains(lower) ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
        }.joined(separator: " ")
    }
}
