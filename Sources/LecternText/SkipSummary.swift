import Foundation
import LecternCore

/// What a book leaves out, summed up at the end of `lectern check` and of a run's report: its
/// largest skipped passages, and the share of the book's words (read and skipped) each kind of
/// passage takes.
public struct SkipSummary: Codable, Sendable, Equatable {
    /// One skipped passage: its kind, size, chapter and first words.
    public struct Passage: Codable, Sendable, Equatable {
        public var reason: SkipReason
        public var words: Int
        /// The chapter it lies in or before (nil: before the first).
        public var chapter: Int?
        public var firstWords: String
    }

    /// One kind of passage: how many, how many words, and their share of the book in percent.
    public struct Kind: Codable, Sendable, Equatable {
        public var reason: SkipReason
        public var passages: Int
        public var words: Int
        public var percent: Double
    }

    /// The largest passages, largest first.
    public var largest: [Passage]
    /// The kinds, by words skipped, most first.
    public var kinds: [Kind]
    public var skippedWords: Int
    /// The words read and skipped.
    public var bookWords: Int
    /// The share of the book's words skipped, in percent.
    public var percent: Double

    /// How many of the largest passages are listed.
    public static let largestListed = 5

    /// - parameter readWords: the words the plan reads.
    public init(skipped: [SkippedText], readWords: Int) {
        let sized = skipped.map { ($0, $0.words ?? WordTokenizer.count(in: $0.text)) }
        skippedWords = sized.reduce(0) { $0 + $1.1 }
        bookWords = readWords + skippedWords
        let total = bookWords
        func share(_ words: Int) -> Double { total == 0 ? 0 : (Double(words) * 1000 / Double(total)).rounded() / 10 }
        percent = share(skippedWords)
        var byReason: [SkipReason: (passages: Int, words: Int)] = [:]
        for (item, words) in sized {
            byReason[item.reason, default: (0, 0)].passages += 1
            byReason[item.reason, default: (0, 0)].words += words
        }
        kinds = byReason.map { Kind(reason: $0.key, passages: $0.value.passages, words: $0.value.words, percent: share($0.value.words)) }
            .sorted { ($0.words, $1.reason.rawValue) > ($1.words, $0.reason.rawValue) }
        largest = sized.enumerated().sorted { ($0.element.1, $1.offset) > ($1.element.1, $0.offset) }.prefix(Self.largestListed).map {
            let words = $0.element.0.text.split(whereSeparator: \.isWhitespace)
            return Passage(reason: $0.element.0.reason, words: $0.element.1, chapter: $0.element.0.chapter,
                           firstWords: words.prefix(8).joined(separator: " ") + (words.count > 8 ? " …" : ""))
        }
    }

    /// The summary as lines of text: the total and each kind's share, then the largest passages.
    public var lines: [String] {
        guard skippedWords > 0 else { return ["skipped: nothing"] }
        func number(_ n: Int) -> String {
            var digits = String(n)
            var out = ""
            while digits.count > 3 {
                out = "," + digits.suffix(3) + out
                digits.removeLast(3)
            }
            return digits + out
        }
        func share(_ p: Double) -> String { String(format: "%.1f %%", p) }
        var out = ["skipped: \(number(skippedWords)) of \(number(bookWords)) words (\(share(percent))): "
                   + kinds.filter { $0.words > 0 }.map { "\($0.reason) \(number($0.words)) (\(share($0.percent)))" }.joined(separator: ", ")]
        out += largest.map { p in
            let place = p.chapter.map { "chapter \($0)" } ?? "before the first chapter"
            return "  largest: \(number(p.words)) word\(p.words == 1 ? "" : "s"), \(p.reason), \(place): \"\(p.firstWords)\""
        }
        return out
    }
}
