/// A failure of the speech engine, with a message a user can act on.
public struct SpeechError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
