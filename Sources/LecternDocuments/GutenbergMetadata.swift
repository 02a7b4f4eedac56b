import Foundation
import LecternCore

/// The title, author and language a plain text's own header states (`Title:`, `Author:`,
/// `Language:` lines, as Project Gutenberg writes them), to name a book dropped in without a
/// manifest.
enum GutenbergMetadata {
    /// Reads the header: the lines before the first blank-line gap after 80 lines at most.
    static func read(_ lines: [String]) -> BookMetadata {
        var metadata = BookMetadata()
        var i = 0
        let limit = min(lines.count, 120)
        while i < limit {
            let line = lines[i]
            if line.hasPrefix("*** START") || line.hasPrefix("***START") { break }
            if let value = field("Title", line) {
                // A title may continue on indented lines ("       A Romance").
                var parts = [value]
                var j = i + 1
                while j < limit, lines[j].hasPrefix(" "), !lines[j].trimmingCharacters(in: .whitespaces).isEmpty {
                    parts.append(lines[j].trimmingCharacters(in: .whitespaces))
                    j += 1
                }
                metadata.title = metadata.title ?? parts.joined(separator: ": ")
                i = j
                continue
            }
            if let value = field("Author", line) { metadata.author = metadata.author ?? value }
            if let value = field("Language", line) { metadata.language = metadata.language ?? languageCode(value) }
            i += 1
        }
        return metadata
    }

    /// "The Project Gutenberg eBook of Pride and Prejudice, by Jane Austen" or "Pride and Prejudice, by
    /// Jane Austen" (an HTML page's title): the title and author it names, or nil for any other text.
    static func ebookTitle(_ text: String) -> (title: String, author: String?)? {
        guard let m = ebookLine.firstMatch(text) ?? titleBy.firstMatch(text) else { return nil }
        let ns = text as NSString
        let title = ns.substring(with: m.range(at: 1)).trimmingCharacters(in: .whitespaces)
        let author = m.range(at: 2).location == NSNotFound ? nil : ns.substring(with: m.range(at: 2)).trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? nil : (title, author?.isEmpty == false ? author : nil)
    }

    /// "Pride and Prejudice, by Jane Austen": a title, then its author's name in a few capitalised words.
    static let titleBy = LinePattern(#"^\s*(.+?),\s+by\s+((?:[A-Z][\p{L}.'’-]*\.?\s*){1,6}?)\.?\s*$"#)

    static let ebookLine = LinePattern(
        #"^\W*(?:The\s+Project\s+Gutenberg\s+e-?Book\s+of|Project\s+Gutenberg['’]s(?:\s+e-?Book\s+of)?)\s+(.+?)(?:,\s+by\s+(.+?))?\.?\s*$"#, caseInsensitive: true)

    /// The encoding a Project Gutenberg header states (`Character set encoding: ISO-8859-1`), or nil.
    static func statedEncoding(_ lines: [String]) -> String? {
        for line in lines.prefix(120) {
            if line.hasPrefix("*** START") || line.hasPrefix("***START") { break }
            if let value = field("Character set encoding", line) { return value }
        }
        return nil
    }

    private static func field(_ name: String, _ line: String) -> String? {
        guard line.hasPrefix(name + ":") else { return nil }
        let value = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }

    /// The ISO 639-1 code for a language named in English ("English" → "en"), or nil.
    static func languageCode(_ name: String) -> String? {
        let wanted = name.lowercased()
        let english = Locale(identifier: "en")
        for code in Locale.LanguageCode.isoLanguageCodes.map(\.identifier) where code.count == 2 {
            if english.localizedString(forLanguageCode: code)?.lowercased() == wanted { return code }
        }
        return nil
    }
}
