import Foundation

/// How often, and how soon, a failed run is tried again: exponential backoff up to a limit.
///
/// With the defaults a job that keeps failing is retried 30 s, 60 s and 120 s after each failed
/// attempt ends, then waits for its next scheduled instant (or, if it only watches files, for
/// the next change).
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after consecutive failures; 0 never retries.
    public var limit: Int
    /// The wait before the first retry.
    public var initialDelay: TimeInterval
    /// Each further retry waits this many times longer.
    public var factor: Double
    /// The longest wait between retries.
    public var maxDelay: TimeInterval

    public init(limit: Int = 3, initialDelay: TimeInterval = 30, factor: Double = 2, maxDelay: TimeInterval = 3600) {
        self.limit = limit
        self.initialDelay = initialDelay
        self.factor = factor
        self.maxDelay = maxDelay
    }

    /// A policy that never retries.
    public static let never = RetryPolicy(limit: 0)

    /// The wait between the end of the last failed attempt and the next retry, or nil when
    /// `failures` consecutive failures have used up the retries.
    ///
    /// `min(initialDelay · factor^(failures − 1), maxDelay)` while `1 ≤ failures ≤ limit`.
    public func delay(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= 1, failures <= limit else { return nil }
        let delay = initialDelay * pow(factor, Double(failures - 1))
        return delay.isFinite ? max(0, min(delay, maxDelay)) : maxDelay
    }
}
