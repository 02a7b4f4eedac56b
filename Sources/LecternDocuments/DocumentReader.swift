import Foundation
import LecternCore

/// Reads every source of a manifest, in order, into one book.
///
/// One file may be given as several sources (its chapters cut apart by markers): each passage
/// it leaves out is then listed once — by the first of them — and not at all when another of
/// them reads it.
public struct DocumentReader: Sendable {
    public init() {}

    /// Each source is first recognised by its content (``ContentSniffer``): one that is not text
    /// in a format Lectern reads is refused, an HTML page or EPUB under another name is read as one.
    ///
    /// - throws: ``DocumentError`` naming the first document that cannot be read, or
    ///   ``ManifestError`` naming a source's key (a marker that matches nothing).
    public func read(_ given: [Source]) throws -> Book {
        let sources = try Self.recognised(given)
        var book = Book()
        let listedElsewhere = try linesListedElsewhere(sources)
        var seen: [URL: [Int]] = [:]
        var read: [(url: URL, book: Book)] = []
        for (index, source) in sources.enumerated() {
            let part: Book
            switch source.format {
            case .text: part = try PlainTextReader().read(source, listedElsewhere: listedElsewhere[index] ?? IndexSet())
            case .markdown: part = try MarkdownReader().read(source)
            case .html: part = try HTMLReader().read(source)
            case .epub: part = try EPUBReader().read(source).book
            }
            seen[source.url, default: []].append(index)
            read.append((source.url, part))
        }
        for (index, entry) in read.enumerated() {
            var part = entry.book
            let siblings = (seen[entry.url] ?? []).filter { $0 != index }
            if !siblings.isEmpty, sources[index].format != .text {
                // Structured formats: a passage listed by an earlier source of the file, or read by another, is not listed again.
                let earlier = Set(siblings.filter { $0 < index }.flatMap { read[$0].book.skipped.map { "\($0.reason)\u{0}\($0.text)" } })
                let readElsewhere = Set(siblings.flatMap { read[$0].book.chapters.flatMap { $0.blocks.map(\.text) + [$0.title] } })
                part.skipped.removeAll { earlier.contains("\($0.reason)\u{0}\($0.text)") || readElsewhere.contains($0.text) }
            }
            book.append(part)
        }
        return book
    }

    /// The sources, each in the format its content shows (``ContentSniffer``), read from once each.
    ///
    /// - throws: ``DocumentError`` for the first source that is not text in a format Lectern reads.
    public static func recognised(_ sources: [Source]) throws -> [Source] {
        var formats: [URL: Source.Format] = [:]
        return try sources.map { source in
            var source = source
            if let known = formats[source.url], source.keyLines["format"] == nil {
                source.format = known
            } else {
                source.format = try ContentSniffer.format(of: source)
                formats[source.url] = source.format
            }
            return source
        }
    }

    /// For each plain-text source that shares its file with others: the lines it must not list as
    /// cut, because another of them reads them or (for all but the first) lists them.
    private func linesListedElsewhere(_ sources: [Source]) throws -> [Int: IndexSet] {
        var groups: [URL: [Int]] = [:]
        for (i, s) in sources.enumerated() where s.format == .text { groups[s.url, default: []].append(i) }
        var result: [Int: IndexSet] = [:]
        for indices in groups.values where indices.count > 1 {
            let lines = PlainTextReader.lines(of: try PlainTextReader.decode(sources[indices[0]]).text)
            let ranges = try indices.map { try TextCut.find(in: lines, source: sources[$0]).range }
            for (k, index) in indices.enumerated() {
                var set = IndexSet()
                for (j, range) in ranges.enumerated() where j != k { set.insert(integersIn: range) }
                if k > 0 { set.insert(integersIn: 0..<lines.count) }
                result[index] = set
            }
        }
        return result
    }
}
