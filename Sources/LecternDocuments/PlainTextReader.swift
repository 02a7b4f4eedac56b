import Foundation
import LecternCore

/// Reads plain text: paragraphs are separated by blank lines, and a line matching the source's
/// heading pattern starts a chapter (optionally with the next line as its subtitle).
///
/// Project Gutenberg's `_italics_` markers are removed; text before the first heading is either
/// a chapter of its own or, with `skip_before_first`, listed as skipped front matter.
public struct PlainTextReader: Sendable {
    public init() {}

    public func read(_ source: Source) throws -> Book {
        let data: Data
        do { data = try Data(contentsOf: source.url) } catch {
            throw DocumentError(document: source.url.path, message: "cannot read the file (\(error.localizedDescription))")
        }
        let text = try TextDecoding.decode(data, document: source.url.path)
        return try read(text: text, source: source)
    }

    /// Reads already-decoded text (for tests and other readers).
    public func read(text: String, source: Source) throws -> Book {
        let heading = try source.chapters.heading.map { try NSRegularExpression(pattern: $0) }
        let skips = try source.skip.map { try NSRegularExpression(pattern: $0) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var builder = try BookBuilder(source: source, skips: skips)
        var paragraph: [String] = []

        func flush() {
            guard !paragraph.isEmpty else { return }
            builder.add(Self.removingEmphasis(paragraph.joined(separator: " ")), kind: .paragraph)
            paragraph = []
        }

        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            if let heading, let match = heading.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) {
                flush()
                // With a capture group, the group is the title (e.g. "Chapter I" out of "Chapter I.]").
                var title = line
                if match.numberOfRanges > 1, let r = Range(match.range(at: 1), in: line) { title = String(line[r]) }
                if source.chapters.subtitle {
                    var j = i + 1
                    while j < lines.count, lines[j].trimmingCharacters(in: .whitespaces).isEmpty { j += 1 }
                    if j < lines.count {
                        title += " " + lines[j].trimmingCharacters(in: .whitespaces)
                        i = j
                    }
                }
                builder.startChapter(title: Self.clean(Self.removingEmphasis(title)))
            } else if line.isEmpty {
                flush()
            } else {
                paragraph.append(line)
            }
            i += 1
        }
        flush()
        return builder.finish()
    }

    /// Collapses runs of whitespace into single spaces and trims the ends.
    static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).trimmingCharacters(in: .whitespaces)
    }

    /// Removes Project Gutenberg's underscores, which mark italics (`_very_`, `Un_important_`).
    static func removingEmphasis(_ text: String) -> String {
        text.replacingOccurrences(of: "_", with: "")
    }
}
