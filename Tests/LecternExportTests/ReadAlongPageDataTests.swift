import Foundation
import LecternCore
import Testing
@testable import LecternExport

/// What the read-along page's data and head carry for its script: the book's identity (the key of
/// the remembered position), a paragraph's own language, and `<html lang>`.
@Suite struct ReadAlongPageDataTests {
    static func document(title: String, sampleCount: Int, language: String?) throws -> TimingDocument {
        var document = try PartsFixture.document(withParts: false)
        document.title = title
        document.sampleCount = sampleCount
        document.chapters[1].paragraphs[0].language = language
        return document
    }

    static func decoded(_ document: TimingDocument) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(ReadAlongPage.data(for: document).utf8)) as? [String: Any])
    }

    @Test func identityNamesTheBookAndItsAudio() throws {
        let one = try Self.decoded(try Self.document(title: "Novel", sampleCount: 5000, language: nil))["id"] as? String
        #expect(one == "Novel\u{1F}\u{1F}5000")
        let otherAudio = try Self.decoded(try Self.document(title: "Novel", sampleCount: 5001, language: nil))["id"] as? String
        let otherTitle = try Self.decoded(try Self.document(title: "Novel II", sampleCount: 5000, language: nil))["id"] as? String
        #expect(Set([one, otherAudio, otherTitle]).count == 3, "another rendering or book never shares a remembered position")
    }

    @Test func aParagraphInAnotherLanguageCarriesIt() throws {
        let data = try Self.decoded(try Self.document(title: "Novel", sampleCount: 5000, language: "fr"))
        let chapters = try #require(data["c"] as? [[Any]])
        let paragraphs = chapters.map { ($0[3] as? [[Any]]) ?? [] }
        #expect(paragraphs[1][0].count == 5 && paragraphs[1][0][4] as? String == "fr")
        #expect(paragraphs[0][0].count == 4, "a paragraph in the book's language has no fifth element")
    }

    @Test func htmlLangIsTheBooksLanguageEscaped() throws {
        let document = try Self.document(title: "Novel", sampleCount: 5000, language: nil)
        #expect(ReadAlongPage.html(for: document, audio: "a.mp3", language: "de-CH").contains("<html lang=\"de-CH\">"))
        #expect(ReadAlongPage.html(for: document, audio: "a.mp3", language: "x\"y").contains("<html lang=\"x&quot;y\">"))
        #expect(ReadAlongPage.html(for: document, audio: "a.mp3").contains("<html>\n"))
    }
}
