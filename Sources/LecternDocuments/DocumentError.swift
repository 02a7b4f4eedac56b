/// A document that cannot be read, naming the document and what is wrong with it.
public struct DocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document's path.
    public var document: String
    public var message: String

    public init(document: String, message: String) {
        self.document = document
        self.message = message
    }

    public var description: String { "\(document): \(message)" }
}
