import Foundation
import LecternCore

extension SkippedText {
    /// The list as the sidecar gives it: what lies outside an excerpt's cut (everything before
    /// its `start_at` or after its `end_at`, often most of a book) as one entry per source and
    /// side — its reason, how many words, and its first and last words — instead of the text
    /// itself; everything else as it is. The text a marker matched stays an entry of its own.
    public static func summarisingCuts(_ list: [SkippedText]) -> [SkippedText] {
        var result: [SkippedText] = []
        var run: [SkippedText] = []
        func flush() {
            guard let first = run.first else { return }
            let words = run.reduce(0) { $0 + ($1.words ?? WordTokenizer.count(in: $1.text)) }
            var summary = SkippedText(source: first.source, chapter: first.chapter, reason: first.reason,
                                      text: preview(of: run.map(\.text).joined(separator: "\n\n")), cut: first.cut, words: words)
            summary.beforeBlock = first.beforeBlock
            result.append(summary)
            run = []
        }
        for item in list {
            if let last = run.last, item.cut == nil || item.cut != last.cut || item.source != last.source || item.reason != last.reason {
                flush()
            }
            if item.cut != nil { run.append(item) } else { result.append(item) }
        }
        flush()
        return result
    }

    /// How many characters of each end of a summarised cut are kept.
    static let previewCharacters = 60

    /// The first and last characters of `text` (whole words), with "…" between them; all of it
    /// when short.
    static func preview(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard flat.count > 2 * previewCharacters + 5 else { return flat }
        var head = String(flat.prefix(previewCharacters))
        if let space = head.lastIndex(of: " ") { head = String(head[..<space]) }
        var tail = String(flat.suffix(previewCharacters))
        if let space = tail.firstIndex(of: " ") { tail = String(tail[tail.index(after: space)...]) }
        return head + " … " + tail
    }
}
