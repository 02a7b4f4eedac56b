import LecternCore
import LecternText

/// The title of a book's opening chapter that no heading opened (its text came before any heading
/// the structure took for a chapter's): the opening's own heading, as a narrator would name it —
/// the last heading over its first prose (`HEARTBREAK HOUSE AND HORSEBACK HALL` under the title
/// page's lines, `INTRODUCTION.` after a dedication). A line in capitals that no reader took for a
/// heading names nothing: on a title page read as text it is as often the publisher's
/// (`FREDERICK WARNE`) as a title. The title names the chapter in the contents; what is spoken does
/// not change.
enum OpeningTitle {
    /// The words of a block that is prose, not a title or a line of a title page.
    static let proseWords = 20
    /// The most words a title may have.
    static let maxTitleWords = 12
    /// The words of the opening searched for its title: a heading further on opens no opening.
    static let searchedWords = 500

    /// Names the first chapter by its own heading when it is the opening no heading opened.
    /// - parameter untitled: the chapters opened for text met before any heading.
    static func name(_ book: inout Book, untitled: Set<Int>) {
        guard untitled.contains(0), !book.chapters.isEmpty, let title = title(of: book.chapters[0]) else { return }
        book.chapters[0].title = title
    }

    /// The opening's own title, if it shows one.
    static func title(of chapter: Chapter) -> String? {
        var heading: String?
        var words = 0
        for block in chapter.blocks {
            let count = WordTokenizer.count(in: block.text)
            if block.kind == .heading {
                if count > 0, count <= maxTitleWords, !isByline(block.text) { heading = block.text }
            } else if count >= proseWords {
                if let heading { return heading }
            }
            words += count
            if words > searchedWords { return nil }
        }
        return nil
    }

    /// A title page's author line (`By Bernard Shaw`, `von …`): no title.
    static func isByline(_ text: String) -> Bool {
        let first = text.split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() }
        return ["by", "von", "par", "por", "di", "door"].contains(first ?? "")
    }
}
