import Foundation

/// The matching time all of one book's user-written expressions share — a manifest's `skip`,
/// markers and heading patterns and its lexicons' patterns together — so thirty slow patterns cost
/// one budget, not thirty. ``UserRegex`` draws on it; once it is spent, every expression sharing
/// it stops at once with the ``RegexTimeout`` that spent it.
public final class RegexBudget: @unchecked Sendable, Equatable {
    // @unchecked Sendable is safe: every mutable field is touched only while `lock` is held.

    /// Seconds all matches may take together, besides ``secondsPerMillion`` per million UTF-16
    /// units matched (a longer book may take longer, in proportion).
    public let seconds: Double
    public let secondsPerMillion: Double
    private let lock = NSLock()
    private var spent: UInt64 = 0
    private var units = 0
    private var exhausted: RegexTimeout?

    public static let defaultSeconds = 5.0

    public init(seconds: Double = RegexBudget.defaultSeconds, secondsPerMillion: Double = 1) {
        self.seconds = seconds
        self.secondsPerMillion = secondsPerMillion
    }

    /// A budget is part of no value: two manifests are equal whatever budget they carry.
    public static func == (lhs: RegexBudget, rhs: RegexBudget) -> Bool { true }

    /// The time-out that spent the budget, if it is spent.
    public var spentBy: RegexTimeout? {
        lock.lock()
        defer { lock.unlock() }
        return exhausted
    }

    /// Counts `units` more text to match; returns the seconds left (0 or less: spent).
    func admit(units count: Int) -> Double {
        lock.lock()
        defer { lock.unlock() }
        units += count
        return allowed - Double(spent) / 1e9
    }

    /// Records `nanoseconds` spent; whether the budget is now spent.
    func charge(_ nanoseconds: UInt64) -> (spent: Bool, allowed: Double) {
        lock.lock()
        defer { lock.unlock() }
        spent += nanoseconds
        return (Double(spent) / 1e9 >= allowed, allowed)
    }

    /// Marks the budget spent by `timeout` (the first one stays).
    func exhaust(_ timeout: RegexTimeout) {
        lock.lock()
        defer { lock.unlock() }
        exhausted = exhausted ?? timeout
    }

    private var allowed: Double { seconds + Double(units) / 1e6 * secondsPerMillion }
}
