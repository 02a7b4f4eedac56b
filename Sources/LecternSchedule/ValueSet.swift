/// A set of small non-negative integers (0–63), the values one cron field matches.
struct ValueSet: Sendable, Hashable {
    private(set) var bits: UInt64 = 0

    var isEmpty: Bool { bits == 0 }

    func contains(_ value: Int) -> Bool {
        value >= 0 && value < 64 && bits & (1 << UInt64(value)) != 0
    }

    mutating func insert(_ value: Int) {
        bits |= 1 << UInt64(value)
    }

    mutating func remove(_ value: Int) {
        bits &= ~(1 << UInt64(value))
    }

    /// The smallest member that is at least `value`, or nil.
    func first(atLeast value: Int) -> Int? {
        guard value < 64 else { return nil }
        let rest = bits & (UInt64.max << UInt64(max(value, 0)))
        return rest == 0 ? nil : rest.trailingZeroBitCount
    }
}
