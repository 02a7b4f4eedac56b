import Foundation
import LecternCore
import LecternText

/// Reads plain text: paragraphs are separated by blank lines.
///
/// Chapters come from the book's own structure (`chapters: auto`, the default: Project
/// Gutenberg's boilerplate, contents lists, parts, chapters and notes, see
/// ``PlainTextStructure``), from a heading pattern (`chapters: {heading: …}`, optionally with the
/// next line as its subtitle), or not at all (`chapters: none`). The start and end markers are
/// matched against the lines as written, before anything else.
public struct PlainTextReader: Sendable {
    public init() {}

    public func read(_ source: Source) throws -> Book {
        try read(source, listedElsewhere: IndexSet())
    }

    /// Reads the source; cut lines in `listedElsewhere` (read, or listed, by another source of the
    /// same file) are not listed as skipped again.
    func read(_ source: Source, listedElsewhere: IndexSet) throws -> Book {
        let decoded = try Self.decode(source)
        var book = try read(text: decoded.text, source: source, listedElsewhere: listedElsewhere)
        if let warning = decoded.warning { book.warnings.append(warning) }
        book.notes.insert("\(source.displayPath): read as \(decoded.encoding)"
                          + (decoded.warning != nil ? " (not all of it is valid UTF-8: see the warning)" : ""), at: 0)
        if source.chapters.detection == .auto, source.chapters.heading == nil {
            let lines = Self.lines(of: decoded.text)
            book.metadata = book.metadata.filling(from: GutenbergMetadata.read(lines)).filling(from: TitlePageMetadata.read(lines))
        }
        return book
    }

    /// The `encoding:` a manifest should give for a plain-text or Markdown file read with
    /// `encoding: auto` so that it is read without a guess (and without the guess's warning on every
    /// run): nil when `auto` reads it as valid UTF-8 or UTF-16; else the encoding its Project
    /// Gutenberg header states, when the system's converter knows it; else Windows-1252, auto's guess.
    public static func encodingToDeclare(_ url: URL) throws -> String? {
        let source = Source(url: url, format: .text)
        let decoded = try decode(source)
        guard decoded.encoding == "WINDOWS-1252" else { return nil }
        if let stated = GutenbergMetadata.statedEncoding(lines(of: decoded.text)),
           !stated.lowercased().hasPrefix("utf"), (try? IconvConverter(from: stated, document: url.path)) != nil {
            return stated.lowercased()
        }
        return "windows-1252"
    }

    /// The source's text, decoded in its `encoding:`.
    static func decode(_ source: Source) throws -> TextDecoding.Decoded {
        let data = try SourceFile.contents(source)
        return try TextDecoding.decode(data, encoding: source.rules.encoding, document: source.url.path)
    }

    static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Reads already-decoded text (for tests and other readers).
    public func read(text: String, source: Source) throws -> Book {
        try read(text: text, source: source, listedElsewhere: IndexSet())
    }

    func read(text: String, source: Source, listedElsewhere: IndexSet) throws -> Book {
        let lines = Self.lines(of: text)
        let cut = try TextCut.find(in: lines, source: source)
        // The markers are applied here, on the lines; the builder sees only what they keep.
        var inner = source
        inner.rules.startAt = nil
        inner.rules.startAfter = nil
        inner.rules.endAt = nil
        var builder = try BookBuilder(source: inner, skips: try BookBuilder.skips(source))
        let startKey = source.rules.startAt != nil ? "start_at" : "start_after"
        let startPattern = source.rules.startAt ?? source.rules.startAfter ?? ""
        Self.listCut(lines, 0..<cut.range.lowerBound, markers: cut.markerLines, listedElsewhere: listedElsewhere, into: &builder,
                     reason: .beforeStartMarker(pattern: startPattern, key: startKey), markerReason: .startMarker(pattern: startPattern), cut: .before)
        let body = Array(lines[cut.range])
        if let pattern = source.chapters.heading {
            try readWithPattern(body, pattern: pattern, source: source, into: &builder)
        } else if source.chapters.detection == .none {
            readParagraphs(body, into: &builder)
        } else {
            readStructure(body, firstLine: cut.range.lowerBound, source: source, into: &builder)
        }
        Self.listCut(lines, cut.range.upperBound..<lines.count, markers: cut.markerLines, listedElsewhere: listedElsewhere, into: &builder,
                     reason: .afterEndMarker(pattern: source.rules.endAt ?? "", key: "end_at"), markerReason: .endMarker(pattern: source.rules.endAt ?? ""), cut: .after)
        try Self.expectWordsBetween(cut, in: lines, source: source)
        return try builder.finish()
    }

    /// - throws: ``ManifestError`` naming the marker when the lines it keeps hold no word of a
    ///   text that has words.
    private static func expectWordsBetween(_ cut: TextCut, in lines: [String], source: Source) throws {
        guard !lines[cut.range].contains(where: { WordTokenizer.count(in: $0) > 0 }),
              lines.contains(where: { WordTokenizer.count(in: $0) > 0 }) else { return }
        if let endAt = source.rules.endAt, !lines[..<cut.range.upperBound].contains(where: { WordTokenizer.count(in: $0) > 0 }) {
            let matched = lines[cut.range.upperBound].trimmingCharacters(in: .whitespaces).prefix(60)
            throw BookBuilder.keyError(source, "end_at", "/\(endAt)/ matched line \(cut.range.upperBound + 1) (\"\(matched)\") before any word was read")
        }
        let key = source.rules.startAt != nil ? "start_at" : "start_after"
        let line = cut.range.lowerBound - (source.rules.startAfter != nil ? 1 : 0) + 1
        throw BookBuilder.keyError(source, key, "/\(source.rules.startAt ?? source.rules.startAfter ?? "")/ matched line \(line) and nothing after it is left to read")
    }

    /// Lists the lines of `range` that a marker cut, paragraph by paragraph, leaving out those in
    /// `listedElsewhere`.
    private static func listCut(_ lines: [String], _ range: Range<Int>, markers: [Int], listedElsewhere: IndexSet,
                                into builder: inout BookBuilder, reason: SkipReason, markerReason: SkipReason, cut: SkippedText.Cut) {
        var paragraph: [String] = []
        var isMarker = false
        func flush() {
            if !paragraph.isEmpty {
                builder.skip(paragraph.joined(separator: "\n"), reason: isMarker ? markerReason : reason, cut: isMarker ? nil : cut)
            }
            paragraph = []
            isMarker = false
        }
        for i in range {
            let line = lines[i]
            if line.trimmingCharacters(in: .whitespaces).isEmpty || listedElsewhere.contains(i) { flush(); continue }
            if markers.contains(i) != isMarker { flush() }
            isMarker = markers.contains(i)
            paragraph.append(line)
        }
        flush()
    }

    /// Paragraphs only: the text read whole.
    func readParagraphs(_ lines: [String], into builder: inout BookBuilder) {
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            builder.add(Emphasis.remove(paragraph.joined(separator: " ")), kind: .paragraph)
            paragraph = []
        }
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { flush() } else { paragraph.append(trimmed) }
        }
        flush()
    }

    /// Chapters where a line matches `pattern` (its capture group, if any, is the title).
    private func readWithPattern(_ lines: [String], pattern: String, source: Source, into builder: inout BookBuilder) throws {
        let heading = try UserRegex(pattern, budget: source.regexBudget)
        var paragraph: [String] = []
        func flush() {
            guard !paragraph.isEmpty else { return }
            builder.add(Emphasis.remove(paragraph.joined(separator: " ")), kind: .paragraph)
            paragraph = []
        }
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            let found: NSTextCheckingResult?
            do { found = try heading.firstMatch(in: line) } catch {
                throw BookBuilder.keyError(source, "chapters.heading", error.description, atKeyLine: true)
            }
            if let match = found {
                flush()
                // With a capture group, the group is the title (e.g. "Chapter I" out of "Chapter I.]").
                var spoken = [line]
                if match.numberOfRanges > 1, let r = Range(match.range(at: 1), in: line) { spoken = [String(line[r])] }
                if source.chapters.subtitle {
                    var j = i + 1
                    while j < lines.count, lines[j].trimmingCharacters(in: .whitespaces).isEmpty { j += 1 }
                    if j < lines.count {
                        spoken.append(lines[j].trimmingCharacters(in: .whitespaces))
                        i = j
                    }
                }
                let cleaned = spoken.map { Self.clean(Emphasis.remove($0)) }
                builder.startChapter(title: cleaned.joined(separator: " "), lines: cleaned)
            } else if line.isEmpty {
                flush()
            } else {
                paragraph.append(line)
            }
            i += 1
        }
        flush()
    }

    /// Collapses runs of whitespace into single spaces and trims the ends.
    static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).trimmingCharacters(in: .whitespaces)
    }
}
