import Foundation
import Testing
import LecternCore
import LecternText
@testable import LecternSpeech

/// The segmenter with `language_switching: detect` and the real CLD2: paragraphs and long
/// quotations in another language get its voice; declared languages, short quotations and the
/// book's own language do not change.
@Suite struct DetectionSegmenterTests {
    static let french = "Il pleuvait depuis le matin sur la petite ville. Les volets restaient clos, et personne ne sortait plus dans les rues étroites."
    static let quoting = "When we reached the square the old woman looked up and said, “Vous arrivez bien tard, mes enfants, "
        + "le dernier train est parti depuis longtemps,” and went back to her knitting without another word."
    static let shortQuote = "He shrugged and said “c'est la vie” before he went home to his dinner and his newspaper."

    private func plan(switching: String, blocks: [Block]) throws -> [Utterance] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-detect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("text".utf8).write(to: dir.appendingPathComponent("book.txt"))
        let url = dir.appendingPathComponent("book.yml")
        try Data("title: T\nsources: [book.txt]\nvoice: { name: en }\nlanguages: { fr: fr-fr }\nlanguage_switching: \(switching)\n".utf8).write(to: url)
        let manifest = try ManifestLoader(configDirectory: nil).load(url)
        let book = Book(chapters: [Chapter(title: "One", speaksTitle: false, blocks: blocks, source: "book.txt")], skipped: [])
        return try Segmenter(manifest: manifest, spokenForms: SpokenForms(rules: [])).plan(book).chapters[0].utterances
    }

    @Test func aFrenchParagraphGetsTheFrenchVoiceOnlyWhenDetecting() throws {
        let detected = try plan(switching: "detect", blocks: [Block(kind: .paragraph, text: Self.french)])[0]
        #expect(detected.voice.name == "fr-fr" && detected.language == "fr" && detected.languageDetected)
        let declared = try plan(switching: "true", blocks: [Block(kind: .paragraph, text: Self.french)])[0]
        #expect(declared.voice.name == "en" && declared.language == nil && !declared.languageDetected)
        let marked = try plan(switching: "detect", blocks: [Block(kind: .paragraph, text: Self.french, language: "en")])[0]
        #expect(marked.voice.name == "en" && marked.language == nil && !marked.languageDetected)
        // A declared other language is recorded, not as detected.
        let german = try plan(switching: "detect", blocks: [Block(kind: .paragraph, text: "Guten Morgen.", language: "de")])[0]
        #expect(german.voice.name == "de" && german.language == "de" && !german.languageDetected)
    }

    @Test func aLongForeignQuotationBecomesAVoiceSegment() throws {
        let u = try plan(switching: "detect", blocks: [Block(kind: .paragraph, text: Self.quoting)])[0]
        #expect(u.voice.name == "en" && u.language == nil)
        let segment = try #require(u.segments.first)
        #expect(u.segments.count == 1 && segment.language == "fr" && segment.voice.name == "fr-fr" && segment.detected)
        let units = Array(Self.quoting.utf16)
        let quoted = String(decoding: units[segment.offset..<(segment.offset + segment.length)], as: UTF16.self)
        #expect(quoted.hasPrefix("“Vous arrivez") && quoted.hasSuffix("longtemps,”"))
        // A short quotation is left to the paragraph's voice; declaring switching only finds none.
        #expect(try plan(switching: "detect", blocks: [Block(kind: .paragraph, text: Self.shortQuote)])[0].segments.isEmpty)
        #expect(try plan(switching: "true", blocks: [Block(kind: .paragraph, text: Self.quoting)])[0].segments.isEmpty)
    }

    @Test func quotationsAreFoundByTheirMarks() {
        let text = "a “one two” b «trois» c „vier“ d \"five\" e “unclosed"
        let units = Array(text.utf16)
        let found = Quotations.ranges(in: text).map { String(decoding: units[$0], as: UTF16.self) }
        #expect(found == ["“one two”", "«trois»", "„vier“", "\"five\""])
    }
}
