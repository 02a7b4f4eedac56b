import Foundation

/// Waits after consecutive failures of one kind (the store not answering, chunks that cannot be
/// finished): doubling from `initial` up to `maximum`, back to nothing after a success — and
/// whether to say so, once per change of state (the first failure, the first success after
/// failures), never once per attempt.
///
/// A plain value with no clock: ``failed(_:)`` returns the wait, the caller waits.
struct RetryBackoff: Sendable, Equatable {
    let initial: TimeInterval
    let maximum: TimeInterval
    /// Failures since the last success.
    private(set) var failures = 0
    /// The first failure's reason, while failing.
    private(set) var reason: String?

    init(initial: TimeInterval, maximum: TimeInterval) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
    }

    var isFailing: Bool { failures > 0 }

    /// The wait after `failures` failures in a row.
    var delay: TimeInterval {
        guard failures > 0 else { return 0 }
        return min(maximum, initial * pow(2, Double(min(failures - 1, 30))))
    }

    /// Records a failure; returns the wait before trying again and whether the state changed
    /// (the first failure: say why).
    mutating func failed(_ why: String) -> (delay: TimeInterval, changed: Bool) {
        failures += 1
        let changed = failures == 1
        if changed { reason = why }
        return (delay, changed)
    }

    /// Records a success; returns the failures it ends (0: it ends none, nothing to say).
    mutating func succeeded() -> Int {
        defer { failures = 0; reason = nil }
        return failures
    }
}
