import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// The opening chapter keeps its own heading, and a heading over a part's opening is no chapter
/// (issue 39, items 2 and 3).
struct OpeningHeadingTests {
    static let sentence = "The house is not merely the name of the play which follows this preface, but cultured and leisured Europe before the war."

    static func prose(_ paragraphs: Int) -> String {
        (0..<paragraphs).map { _ in Array(repeating: sentence, count: 4).joined(separator: " ") }.joined(separator: "\n\n")
    }

    /// A title page read as text, its publisher's line in capitals last over the first prose: no
    /// line of it names the opening, which keeps the name it had (the file's, when nothing else
    /// names it) rather than the publisher's.
    @Test func aPublishersLineInCapitalsDoesNotNameTheOpening() throws {
        let text = """
            THE HOUSE

            By A. Playwright



            FREDERICK WARNE AND CO.


            \(Self.prose(20))



            ACT I

            \(Self.prose(2))



            ACT II

            \(Self.prose(2))

            """
        let book = try PlainTextReader().read(text: text, source: textSource("house.txt"))
        #expect(book.chapters.map(\.title) == ["house", "ACT I", "ACT II"], "\(book.chapters.map(\.title))")
    }

    /// The opening's title is found only among its heading lines over prose.
    @Test func anOpeningTitleIsTheLastHeadingOverItsFirstProse() {
        func block(_ text: String, _ kind: BlockKind = .paragraph) -> Block { Block(kind: kind, text: text) }
        let long = Self.sentence
        let headed = Chapter(title: "file", speaksTitle: false, blocks: [
            block("THE HOUSE", .heading), block("By A. Playwright", .heading), block("HOUSE AND HALL", .heading),
            block("Where the House Stands"), block(long)], source: "f")
        #expect(OpeningTitle.title(of: headed) == "HOUSE AND HALL")
        let dedicated = Chapter(title: "file", speaksTitle: false, blocks: [block(long), block("INTRODUCTION.", .heading), block(long)], source: "f")
        #expect(OpeningTitle.title(of: dedicated) == "INTRODUCTION.")
        let plain = Chapter(title: "file", speaksTitle: false, blocks: [block("THE HOUSE"), block("BY A. PLAYWRIGHT"), block(long)], source: "f")
        // Lines in capitals that no reader took for headings (a title page read as text, its
        // publisher's line among them) name nothing.
        #expect(OpeningTitle.title(of: plain) == nil)
        let none = Chapter(title: "file", speaksTitle: false, blocks: [block(long), block("A LATER LINE"), block(long)], source: "f")
        #expect(OpeningTitle.title(of: none) == nil)
    }

    /// A volume's heading over a date, then the first book (a part) and its chapters: the volume's
    /// lines open the part's first chapter; no chapter of three words.
    @Test func aHeadingOverADateBeforeAPartOpensThePart() throws {
        let text = """
            Tome I--FANTINE

            (1862)



            Livre premier--Un juste



            Chapitre I

            Monsieur Myriel

            \(Self.prose(2))



            Chapitre II

            Monsieur Myriel devient monseigneur Bienvenu

            \(Self.prose(2))



            Livre deuxième--La chute



            Chapitre I

            La soirée d'un jour de marche

            \(Self.prose(2))

            """
        let book = try PlainTextReader().read(text: text, source: textSource("tome.txt"))
        #expect(book.chapters.count == 3, "\(book.chapters.map(\.title))")
        #expect(book.chapters.first?.blocks.first?.text == "Tome I--FANTINE", "\(book.chapters.first?.blocks.map(\.text).prefix(3) ?? [])")
    }
}
