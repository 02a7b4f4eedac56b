/// A failure to encode or write audio, naming the file or the library call that failed.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
