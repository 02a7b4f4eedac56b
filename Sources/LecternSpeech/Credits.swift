import LecternCore

/// Opening and closing credits (`credits: true`, and every `profile:`): chapters of their own
/// before and after the book that say its title, author and narrator, as ACX asks of every
/// production ("Title, written by Author, narrated by Narrator" at the start; "The end" and the
/// same again at the close).
public enum Credits {
    /// The chapters' titles (their files' names with `split:`).
    public static let openingTitle = "Opening Credits"
    public static let closingTitle = "Closing Credits"

    /// `book` with the credits as its first and last chapters.
    public static func adding(to book: Book, title: String, author: String?, narrator: String?) -> Book {
        var book = book
        let byline = (author.map { ", written by \($0)" } ?? "") + ", narrated by \(narrator ?? "a synthesized voice")"
        func chapter(_ title: String, _ lines: [String]) -> Chapter {
            Chapter(title: title, speaksTitle: false, blocks: lines.map { Block(kind: .paragraph, text: $0) }, source: "credits")
        }
        book.chapters.insert(chapter(openingTitle, ["\(title)\(byline)."]), at: 0)
        book.chapters.append(chapter(closingTitle, ["The end.", "You have been listening to \(title)\(byline)."]))
        return book
    }
}
