import Foundation
import LecternCore

/// Placeholder until the EPUB reader lands.
public struct EPUBReader: Sendable {
    public struct Result: Sendable { public var book: Book }
    public init() {}
    public func read(_ source: Source) throws -> Result {
        throw DocumentError(document: source.url.path, message: "EPUB is not supported yet")
    }
}
