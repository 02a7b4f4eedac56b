import Foundation
import Testing
import LecternCore
import LecternSpeech

/// A heading inside a chapter opens a section of it (issue 39, item 2): spoken after the section
/// pause, and marked so the sidecar and the EPUB's navigation list it under its chapter.
@Suite struct SectionPauseTests {
    static let chapter = Chapter(title: "CHAPTER I", speaksTitle: false, blocks: [
        Block(kind: .heading, text: "CHAPTER I"), Block(kind: .heading, text: "JONATHAN HARKER'S JOURNAL"),
        Block(kind: .paragraph, text: "Left Munich at 8:35."), Block(kind: .heading, text: "Dr. Seward's Diary."),
        Block(kind: .paragraph, text: "Ebb tide in appetite to-day."),
    ], source: "book.txt")

    @Test func onlyAHeadingAfterTheChaptersTextOpensASection() {
        #expect(Self.chapter.blocks.indices.map(Self.chapter.opensSection(at:)) == [false, false, false, true, false])
    }

    @Test func aSectionsHeadingGetsTheSectionPause() throws {
        let plan = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\npauses:\n  heading: { before: 0.5 }\n  section: { before: 2.5 }\n"))
            .plan(Book(chapters: [Self.chapter]))
        let u = plan.chapters[0].utterances
        #expect(u.map(\.opensSection) == [false, false, false, true, false])
        #expect(u.map(\.preDelay)[0...3] == [0.5, 0.5, 0, 2.5])
    }
}
