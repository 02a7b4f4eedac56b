import Foundation

/// The scheduler's answer for one moment: what to do now, and when to ask again.
public struct Decision: Sendable, Hashable {
    /// Runs to start and skips to record, skips first, then runs in the order they became due.
    public var actions: [Action]
    /// Jobs that are due but wait for a free run slot, in the order they will get one.
    public var waiting: [String]
    /// The earliest future instant at which the answer can change without a run finishing or a
    /// file changing: a scheduled instant, the end of a debounce, a retry. Nil when nothing is
    /// pending.
    public var wakeAt: Date?

    public init(actions: [Action] = [], waiting: [String] = [], wakeAt: Date? = nil) {
        self.actions = actions
        self.waiting = waiting
        self.wakeAt = wakeAt
    }
}
