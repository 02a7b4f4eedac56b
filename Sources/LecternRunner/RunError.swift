/// A failure of the runner itself (workers, cancellation), as one line a user can act on.
public struct RunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
