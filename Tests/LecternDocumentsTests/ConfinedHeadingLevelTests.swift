import Testing
@testable import LecternDocuments

/// The chapter level of an HTML book whose headings of one level all stand in one section of a
/// shallower level: a transcriber's note at the back with headings of its own is that section's,
/// and the shallower level is the book's chapters; but a collection whose pieces all stand under
/// its one title, most of the book, has the pieces as chapters.
struct ConfinedHeadingLevelTests {
    static let prose = "The morning came on grey and slow, and the whole house stirred a little before the light."

    static func chapters(_ body: String) throws -> [String] { try HTMLPage.body(body).chapters.map(\.title) }

    @Test func headingsInsideANoteAtTheBackAreThatNotesNotTheChapters() throws {
        let chapters = (1...3).map { "<h2>Chapter \($0)</h2>" + String(repeating: "<p>\(Self.prose)</p>", count: 6) }.joined()
        let note = "<h2>Transcriber's Notes</h2><p>\(Self.prose)</p>"
            + ["Spelling", "Punctuation", "Illustrations"].map { "<h6>\($0)</h6><p>\(Self.prose)</p>" }.joined()
        let titles = try Self.chapters(chapters + note)
        #expect(titles.prefix(3) == ["Chapter 1", "Chapter 2", "Chapter 3"], "\(titles)")
        #expect(!titles.contains("Spelling") && !titles.contains("Punctuation"), "\(titles)")
    }

    @Test func piecesUnderTheCollectionsOneTitleAreItsChapters() throws {
        let preface = "<h2>Preface</h2><p>\(Self.prose)</p><p>\(Self.prose)</p>"
        let songs = ["The Ballot", "The Slave's Lament", "Freedom's Banner", "The Fugitive", "Liberty Bell", "The Morning Star"]
            .map { "<h3>\($0)</h3>" + String(repeating: "<p>\(Self.prose)</p>", count: 4) }.joined()
        let titles = try Self.chapters(preface + "<h2>The Songs</h2><p>\(Self.prose)</p>" + songs + "<h2>Index</h2><p>\(Self.prose)</p>")
        for song in ["The Ballot", "Freedom's Banner", "The Morning Star"] {
            #expect(titles.contains(song), "\(song) is a chapter: \(titles)")
        }
    }
}
