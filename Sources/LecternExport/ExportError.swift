/// An export that cannot be made from a finished render, as one line a user can act on.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
