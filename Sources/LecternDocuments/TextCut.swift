import Foundation
import LecternCore

/// Where a plain text's `start_at`/`start_after` and `end_at` markers cut it, matched against its
/// lines as written (and, for a pattern that spans a line break, its paragraphs).
struct TextCut: Equatable {
    /// The lines read: from the start marker's line (or the one after it) up to the end marker's.
    var range: Range<Int>
    /// The marker lines themselves when they are not read (`start_after`, `end_at`).
    var markerLines: [Int] = []

    /// - throws: ``ManifestError`` naming the key when a marker matches no line.
    static func find(in lines: [String], source: Source) throws -> TextCut {
        let rules = source.rules
        var start = 0
        var end = lines.count
        var markers: [Int] = []
        if let pattern = rules.startAt ?? rules.startAfter {
            let key = rules.startAt != nil ? "start_at" : "start_after"
            guard let found = try first(pattern, in: lines, from: 0, source: source, key: key) else {
                throw BookBuilder.keyError(source, key, "/\(pattern)/ matches no line of \(source.displayPath), so nothing would be read")
            }
            start = rules.startAt != nil ? found.lowerBound : found.upperBound
            if rules.startAfter != nil { markers += Array(found) }
        }
        if let pattern = rules.endAt {
            guard let found = try first(pattern, in: lines, from: start, source: source, key: "end_at") else {
                throw BookBuilder.keyError(source, "end_at", "/\(pattern)/ matches no line of \(source.displayPath) after the start")
            }
            end = found.lowerBound
            markers += Array(found)
        }
        return TextCut(range: start..<max(start, end), markerLines: markers)
    }

    /// The lines of the first line, or else the first paragraph, that `pattern` matches at or after `from`.
    ///
    /// - throws: ``ManifestError`` naming `key` when the pattern runs past its time limit.
    private static func first(_ pattern: String, in lines: [String], from: Int, source: Source, key: String) throws -> Range<Int>? {
        let regex = try UserRegex(pattern, budget: source.regexBudget)
        func matches(_ text: String) throws -> Bool {
            do { return try regex.matches(text) } catch { throw BookBuilder.keyError(source, key, error.description, atKeyLine: true) }
        }
        for i in from..<lines.count where try matches(lines[i]) || matches(lines[i].trimmingCharacters(in: .whitespaces)) {
            return i..<(i + 1)
        }
        var i = from
        while i < lines.count {
            guard !lines[i].trimmingCharacters(in: .whitespaces).isEmpty else { i += 1; continue }
            var j = i
            while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).isEmpty { j += 1 }
            if j - i > 1, try matches(lines[i..<j].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")) { return i..<j }
            i = j
        }
        return nil
    }
}
