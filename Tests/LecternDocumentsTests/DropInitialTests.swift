import Testing
import LecternCore
@testable import LecternDocuments

/// A drop cap drawn as an image (``DropInitial``): its letter is read as the start of the paragraph
/// it opens — joined to the first word when the text runs on ("From"), a word of its own when the
/// document says so ("A wonderful") — in a figure block and as a bare image alike.
@Suite struct DropInitialTests {
    static let filler = """
        <p>From the first we knew it, and from the hill we saw it; the wonder of it came to us from far away.</p>
        <p>A man said a word to a friend, and a friend said a word to a man, as a friend will.</p>
        """

    static func paragraphs(_ body: String) throws -> [String] {
        let book = try HTMLPage.body("<h1>One</h1>\(body)\(filler)")
        return book.chapters.flatMap(\.blocks).filter { $0.kind == .paragraph }.map(\.text)
    }

    @Test func aDropCapImageInAFigureStartsTheWordItBegins() throws {
        let read = try Self.paragraphs(#"<div class="figleft"><img src="f.png" alt="F"/></div><p>rom the extreme West we go east.</p>"#)
        #expect(read.first == "From the extreme West we go east.")
    }

    @Test func aBareDropCapImageStartsTheWordItBegins() throws {
        let read = try Self.paragraphs(#"<img src="i.png" alt="I"/><p>t was the road that lay before us.</p>"#)
        #expect(read.first == "It was the road that lay before us.")
    }

    @Test func aDropCapThatIsAWordOfItsOwnIsReadAsOne() throws {
        let read = try Self.paragraphs(#"<div class="figleft"><img src="a.png" alt="A"/></div><p>wonderful fact to reflect upon.</p>"#)
        #expect(read.first == "A wonderful fact to reflect upon.")
    }

    @Test func aTextSetApartFromTheImageKeepsTheLetterApart() throws {
        let read = try Self.paragraphs(#"<img src="f.png" alt="F"/><p> rom is no word, but the text sets it apart.</p>"#)
        #expect(read.first == "F rom is no word, but the text sets it apart.")
    }

    @Test func anImageBeforeACapitalisedParagraphAddsNothing() throws {
        let read = try Self.paragraphs(#"<div class="figcenter"><img src="m.png" alt="M"/></div><p>Map of the country.</p>"#)
        #expect(read.first == "Map of the country.")
    }
}
