/// A failure of the runner itself (workers, cancellation, a job already running), as one line a
/// user can act on.
public struct RunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Whether the run was stopped on purpose (a signal, a lost lease) rather than failing.
    public var isCancellation: Bool
    /// Whether another process holds the job's lease, so no run was started.
    public var isHeldElsewhere: Bool
    public init(_ message: String, isCancellation: Bool = false, isHeldElsewhere: Bool = false) {
        self.message = message
        self.isCancellation = isCancellation
        self.isHeldElsewhere = isHeldElsewhere
    }
    public var description: String { message }
}
