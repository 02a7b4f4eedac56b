import LecternCore

/// Reads every source of a manifest, in order, into one book.
public struct DocumentReader: Sendable {
    public init() {}

    /// - throws: ``DocumentError`` naming the first document that cannot be read.
    public func read(_ sources: [Source]) throws -> Book {
        var book = Book()
        for source in sources {
            switch source.format {
            case .text: book.append(try PlainTextReader().read(source))
            case .markdown: book.append(try MarkdownReader().read(source))
            case .html: book.append(try HTMLReader().read(source))
            case .epub: book.append(try EPUBReader().read(source).book)
            }
        }
        return book
    }
}
