import Foundation

/// A pronunciation lexicon: words and regular expressions, each with how to say it (espeak-ng
/// `[[phonemes]]` or a respelling). Read from `Config/lexicon/*.yml`, a manifest's `lexicons:`,
/// or an EPUB's PLS files, and applied to the text before synthesis; timings still point at the
/// original text.
///
/// Words match whole (not inside a longer word, nor before `'s`); a word written in lower case
/// also matches with a capital first letter. Patterns are matched before words; where two hints
/// overlap, the first one wins.
public struct Lexicon: @unchecked Sendable {
    // @unchecked Sendable is safe: the compiled expressions are immutable after init and
    // NSRegularExpression matching is thread-safe.

    /// One entry as written.
    public struct Entry: Sendable, Equatable {
        public enum Match: Sendable, Equatable {
            case word(String)
            /// An ICU regular expression; `spoken` may use `$1`… for its groups.
            case pattern(String)
        }
        public var match: Match
        /// `[[espeak phonemes]]` or plain words.
        public var spoken: String
        /// The line of the entry in its file, for errors.
        public var line: Int?

        public init(match: Match, spoken: String, line: Int? = nil) {
            self.match = match
            self.spoken = spoken
            self.line = line
        }

        /// Entries are equal when they match and say the same; where they were written does not count.
        public static func == (a: Entry, b: Entry) -> Bool { a.match == b.match && a.spoken == b.spoken }
    }

    /// The file it came from, for reports.
    public let name: String
    /// The language it is for (BCP 47; it applies to text in that primary language), or nil for any.
    public let language: String?
    public let entries: [Entry]
    /// Entries left out because espeak-ng cannot say them as written.
    public let notes: [PronunciationNote]

    private let words: [String: String]
    private let wordExpression: NSRegularExpression?
    private var patterns: [(expression: UserRegex, spoken: String, line: Int?)]

    /// The lexicon with its patterns drawing on `budget`, the matching time of the book it is
    /// applied to (shared with the book's other patterns).
    public func sharing(_ budget: RegexBudget) -> Lexicon {
        var copy = self
        // The patterns compiled once already, so compiling them again cannot fail.
        copy.patterns = patterns.map { (try! UserRegex($0.expression.pattern, budget: budget), $0.spoken, $0.line) }
        return copy
    }

    /// - throws: ``PronunciationProblem`` for a pattern that is not a valid regular expression.
    public init(name: String, language: String?, entries: [Entry], notes: [PronunciationNote] = []) throws {
        self.name = name
        self.language = language
        self.entries = entries
        self.notes = notes
        var words: [String: String] = [:]
        var patterns: [(expression: UserRegex, spoken: String, line: Int?)] = []
        for entry in entries {
            switch entry.match {
            case .word(let w):
                if words[w] == nil { words[w] = entry.spoken }
                if let first = w.first, first.isLowercase {
                    let capitalized = first.uppercased() + w.dropFirst()
                    if words[capitalized] == nil { words[capitalized] = entry.spoken }
                }
            case .pattern(let p):
                do { patterns.append((try UserRegex(p), entry.spoken, entry.line)) } catch {
                    throw PronunciationProblem("\(name): not a valid regular expression: \(UserText.excerpt(p))")
                }
            }
        }
        self.words = words
        self.patterns = patterns
        // One expression for all words, longest first, each bounded where it starts or ends with
        // a letter or digit.
        let alternatives = words.keys.sorted { ($0.count, $0) > ($1.count, $1) }.map { word -> String in
            let escaped = NSRegularExpression.escapedPattern(for: word)
            let before = word.first.map { $0.isLetter || $0.isNumber } == true ? "(?<![\\p{L}\\p{N}_'’])" : ""
            let after = word.last.map { $0.isLetter || $0.isNumber } == true ? "(?![\\p{L}\\p{N}_]|['’]\\p{L})" : ""
            return before + escaped + after
        }
        wordExpression = alternatives.isEmpty ? nil : try? NSRegularExpression(pattern: alternatives.joined(separator: "|"))
    }

    /// Whether the lexicon is for text in `language` (nil: unknown, which every lexicon accepts).
    public func applies(to language: String?) -> Bool {
        guard let mine = self.language, let language else { return true }
        return Self.primary(mine) == Self.primary(language)
    }

    static func primary(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// `existing` hints plus those of `lexicons` (first lexicon first) for a text in `language`
    /// whose `spans` are in other languages: a lexicon applies only to text in its language.
    public static func pronunciations(_ lexicons: [Lexicon], in text: String, language: String?, spans: [LanguageSpan] = [],
                                      adding existing: [Pronunciation] = []) -> [Pronunciation] {
        var result = existing
        for lexicon in lexicons {
            if spans.isEmpty, !lexicon.applies(to: language) { continue }
            let inForeignSpan = { (p: Pronunciation) in
                spans.contains { $0.offset < p.end && p.offset < $0.offset + $0.length && !lexicon.applies(to: $0.language) }
            }
            let inSpanOfItsLanguage = { (p: Pronunciation) in
                spans.contains { $0.offset <= p.offset && p.end <= $0.offset + $0.length && lexicon.applies(to: $0.language) }
            }
            let found = lexicon.pronunciations(in: text).filter { p in
                lexicon.applies(to: language) ? !inForeignSpan(p) : inSpanOfItsLanguage(p)
            }
            result = Pronunciation.merging(result, found)
        }
        return result
    }

    /// The first pattern that ran past its time limit, as an error naming the lexicon's file,
    /// the pattern's line and `patterns` (its matches were left out; a plan must not go on).
    public var regexFailure: ManifestError? {
        for pattern in patterns {
            if let timeout = pattern.expression.timeout {
                return ManifestError(file: name, line: pattern.line, key: "patterns", message: timeout.description)
            }
        }
        return nil
    }

    /// The hints that match in `text`, patterns first, then words; overlapping matches are dropped.
    /// A pattern that runs past its time limit adds nothing and is reported by ``regexFailure``.
    public func pronunciations(in text: String) -> [Pronunciation] {
        let whole = NSRange(text.startIndex..., in: text)
        let ns = text as NSString
        var candidates: [Pronunciation] = []
        for (expression, template, _) in patterns {
            for match in (try? expression.matches(in: text)) ?? [] where match.range.length > 0 {
                let spoken = expression.replacementString(for: match, in: text, template: template)
                candidates.append(Pronunciation(offset: match.range.location, length: match.range.length, spoken: spoken))
            }
        }
        if let wordExpression {
            for match in wordExpression.matches(in: text, range: whole) {
                guard let spoken = words[ns.substring(with: match.range)] else { continue }
                candidates.append(Pronunciation(offset: match.range.location, length: match.range.length, spoken: spoken))
            }
        }
        return Pronunciation.merging([], candidates)
    }
}
