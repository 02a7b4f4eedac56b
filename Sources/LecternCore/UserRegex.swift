import Foundation

/// A regular expression a user wrote (a manifest's `skip`, `start_at`, `end_at`,
/// `chapters.heading`, a lexicon's `patterns`), matched with a time limit.
///
/// ICU's backtracking matcher takes exponential time on patterns such as `(a+)+$`; every
/// user-written expression is matched through this type, which stops a match that runs past
/// ``timeLimit`` (through ICU's progress callback, `.reportProgress`) and throws
/// ``RegexTimeout``. An expression that timed out once throws at once on every later call, so a
/// document of many blocks costs one limit, not one per block; every expression of a book shares
/// one ``RegexBudget`` (five seconds plus one per million characters matched), and once that is
/// spent they all throw at once.
public final class UserRegex: @unchecked Sendable {
    // @unchecked Sendable is safe: `expression` is immutable and thread-safe to match with;
    // the mutable bookkeeping is touched only while `lock` is held.

    /// The pattern as written.
    public let pattern: String
    /// The compiled expression.
    public let expression: NSRegularExpression
    /// The longest one call may match for, in seconds.
    public let timeLimit: Double
    /// The time this expression shares with the book's other expressions.
    public let budget: RegexBudget
    private let lock = NSLock()
    private var failure: RegexTimeout?

    public static let defaultTimeLimit = 1.0

    /// - parameter budget: The book's budget (default: one of its own).
    /// - throws: the system's error for a pattern that is not a valid regular expression.
    public init(_ pattern: String, options: NSRegularExpression.Options = [],
                timeLimit: Double = UserRegex.defaultTimeLimit, budget: RegexBudget = RegexBudget()) throws {
        self.pattern = pattern
        expression = try NSRegularExpression(pattern: pattern, options: options)
        self.timeLimit = timeLimit
        self.budget = budget
    }

    /// Whether `pattern` is a valid regular expression.
    public static func isValid(_ pattern: String, options: NSRegularExpression.Options = []) -> Bool {
        (try? NSRegularExpression(pattern: pattern, options: options)) != nil
    }

    /// The time-out this expression already ran into, or the one that spent its budget.
    public var timeout: RegexTimeout? {
        lock.lock()
        defer { lock.unlock() }
        return failure ?? budget.spentBy
    }

    /// The first match in `text`, or nil.
    public func firstMatch(in text: String) throws(RegexTimeout) -> NSTextCheckingResult? {
        try run(text, first: true).first
    }

    /// Whether the expression matches anywhere in `text`.
    public func matches(_ text: String) throws(RegexTimeout) -> Bool {
        try firstMatch(in: text) != nil
    }

    /// Every match in `text`.
    public func matches(in text: String) throws(RegexTimeout) -> [NSTextCheckingResult] {
        try run(text, first: false)
    }

    /// `template` with `$1`… replaced by the groups of `match`.
    public func replacementString(for match: NSTextCheckingResult, in text: String, template: String) -> String {
        expression.replacementString(for: match, in: text, offset: 0, template: template)
    }

    private func run(_ text: String, first: Bool) throws(RegexTimeout) -> [NSTextCheckingResult] {
        if let failure = timeout { throw failure }
        let started = DispatchTime.now().uptimeNanoseconds
        let length = text.utf16.count
        let left = budget.admit(units: length)
        let deadline = started + UInt64(max(0, min(timeLimit, left)) * 1e9)
        var results: [NSTextCheckingResult] = []
        var late = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: length)) {
            result, _, stop in
            if let result {
                results.append(result)
                if first { stop.pointee = true; return }
            }
            if DispatchTime.now().uptimeNanoseconds > deadline {
                late = true
                stop.pointee = true
            }
        }
        let (spent, allowed) = budget.charge(DispatchTime.now().uptimeNanoseconds - started)
        if late {
            let error = RegexTimeout(pattern: pattern, text: text, limit: spent ? (allowed * 10).rounded() / 10 : timeLimit, overall: spent)
            lock.lock()
            failure = failure ?? error
            lock.unlock()
            if spent { budget.exhaust(error) }
            throw error
        }
        return results
    }
}

/// A user-written regular expression ran past its time limit.
public struct RegexTimeout: Error, Sendable, Equatable, CustomStringConvertible {
    public var pattern: String
    /// The start of the text it was matching.
    public var excerpt: String
    public var limit: Double
    /// Whether the limit was for all matches together, not one.
    public var overall: Bool

    public init(pattern: String, text: String, limit: Double, overall: Bool = false) {
        self.pattern = pattern
        let line = text.prefix { $0 != "\n" }
        excerpt = UserText.excerpt(String(line), limit: 40)
        self.limit = limit
        self.overall = overall
    }

    public var description: String {
        let seconds = limit == limit.rounded() ? String(Int(limit)) : String(limit)
        let what = overall ? "took more than \(seconds) s, with the book's other patterns, over the whole text"
            : "took more than \(seconds) s to match one text (\"\(excerpt)\")"
        return "/\(UserText.excerpt(pattern))/ \(what); nested repetition such as (a+)+ or ([a-z]+ ?)+ can take exponential time — "
            + "simplify the pattern (e.g. [a-z ]+ instead of ([a-z]+ ?)+)"
    }
}
