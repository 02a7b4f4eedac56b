/// A failure of the runner itself (workers, cancellation, a job already running), as one line a
/// user can act on.
public struct RunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Whether the run was stopped on purpose (a signal, a lost lease) rather than failing.
    public var isCancellation: Bool
    public init(_ message: String, isCancellation: Bool = false) {
        self.message = message
        self.isCancellation = isCancellation
    }
    public var description: String { message }
}
