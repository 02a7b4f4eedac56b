import Foundation
import Testing
import LecternCore
import LecternSpeech

/// Loads a manifest (with an empty `book.txt` beside it) from a fresh temporary folder with no `Config/`.
func manifest(_ yaml: String) throws -> Manifest {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-speech-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data("text".utf8).write(to: dir.appendingPathComponent("book.txt"))
    let url = dir.appendingPathComponent("book.yml")
    try Data(yaml.utf8).write(to: url)
    return try ManifestLoader(configDirectory: nil).load(url)
}

private let book = Book(chapters: [
    Chapter(title: "Opening", blocks: [
        Block(kind: .paragraph, text: "Hello there."),
        Block(kind: .quote, text: "Quoted words."),
        Block(kind: .paragraph, text: "\u{2014} ... \u{2014}"),
        Block(kind: .listItem, text: "An item."),
    ], source: "book.txt"),
    Chapter(title: "Middle", blocks: [Block(kind: .heading, text: "Sub"), Block(kind: .paragraph, text: "Text.")], source: "book.txt"),
    Chapter(title: "Skipped chapter", blocks: [Block(kind: .paragraph, text: "Not read.")], source: "book.txt"),
    Chapter(title: "The End", blocks: [Block(kind: .paragraph, text: "Bye.")], source: "book.txt"),
    Chapter(title: "untitled", speaksTitle: false, blocks: [Block(kind: .paragraph, text: "Appendix.")], source: "extra.md"),
], skipped: [SkippedText(source: "book.txt", chapter: nil, reason: .frontMatter, text: "Title page")])

private let yaml = """
    title: Test
    sources: [book.txt]
    voice: { name: en-gb, rate: 0.5 }
    pauses:
      paragraph: { before: 0.1, after: 0.7 }
      chapter: { before: 0.3, after: 1.5 }
    styles:
      heading: { rate: 0.25 }
      quote: { pitch: 2.0 }
      list_item: { wpm: 200 }
    overrides:
      - chapter: 2
        voice: { name: en-us, rate: 0.75 }
      - chapter: "the end"
        title: Epilogue
      - chapter: 3
        skip: true
    """

@Suite struct SegmenterTests {
    @Test func aParagraphAfterASectionBreakGetsTheSectionPause() throws {
        var after = Block(kind: .paragraph, text: "Later that day.")
        after.afterSectionBreak = true
        let broken = Book(chapters: [Chapter(title: "One", speaksTitle: false, blocks: [
            Block(kind: .paragraph, text: "Morning."), after, Block(kind: .paragraph, text: "Evening."),
        ], source: "book.txt")])
        let plan = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\npauses:\n  paragraph: { before: 0.1 }\n  section: { before: 2.5 }\n")).plan(broken)
        #expect(plan.chapters[0].utterances.map(\.preDelay) == [0.1, 2.5, 0.1])
        let defaults = try Segmenter(manifest: manifest("title: T\nsources: [book.txt]\n")).plan(broken)
        #expect(defaults.chapters[0].utterances.map(\.preDelay) == [0, 1.5, 0], "the built-in section pause")
    }

    @Test func stylesAndPausesApplyPerBlockKind() throws {
        let plan = try Segmenter(manifest: manifest(yaml)).plan(book)
        let opening = try #require(plan.chapters.first)
        #expect(opening.title == "Opening")
        #expect(opening.pause == Pause(before: 0.3, after: 1.5))
        let u = opening.utterances
        // The title is spoken first as a heading; the punctuation-only block is not spoken.
        #expect(u.map(\.text) == ["Opening", "Hello there.", "Quoted words.", "An item."])
        #expect(u.map(\.kind) == [.heading, .paragraph, .quote, .listItem])
        // heading: rate 0.25 → 128 wpm, built-in pauses 0.5 / 1.0.
        #expect(u[0].voice == ResolvedVoice(name: "en-gb", wordsPerMinute: 128, pitch: 1, volume: 1))
        #expect((u[0].preDelay, u[0].postDelay) == (0.5, 1.0))
        #expect(u[1].voice == ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 1, volume: 1))
        #expect((u[1].preDelay, u[1].postDelay) == (0.1, 0.7))
        #expect(u[2].voice == ResolvedVoice(name: "en-gb", wordsPerMinute: 175, pitch: 2, volume: 1))
        #expect((u[2].preDelay, u[2].postDelay) == (0.2, 0.6))
        #expect(u[3].voice.wordsPerMinute == 200)
        #expect((u[3].preDelay, u[3].postDelay) == (0.0, 0.4))
        #expect(plan.skipped.contains(SkippedText(source: "book.txt", chapter: 1, reason: .punctuationOnly,
                                                  text: "\u{2014} ... \u{2014}")))
    }

    @Test func overrideByNumberChangesTheChaptersVoiceOverStyles() throws {
        let plan = try Segmenter(manifest: manifest(yaml)).plan(book)
        let middle = try #require(plan.chapters.first { $0.title == "Middle" })
        #expect(middle.utterances.map(\.text) == ["Middle", "Sub", "Text."])
        // rate 0.75 → 313 wpm for every utterance, including headings (whose style says 0.25).
        #expect(middle.utterances.allSatisfy { $0.voice.name == "en-us" && $0.voice.wordsPerMinute == 313 })
    }

    @Test func overrideByTitleIsCaseInsensitiveAndRenamesTheChapter() throws {
        let plan = try Segmenter(manifest: manifest(yaml)).plan(book)
        #expect(plan.chapters.map(\.title) == ["Opening", "Middle", "Epilogue", "untitled"])
        let end = plan.chapters[2]
        #expect(end.utterances.map(\.text) == ["Epilogue", "Bye."])
        #expect(end.utterances.allSatisfy { $0.voice.name == "en-gb" })
    }

    @Test func skippedChapterIsListedAndUntitledChaptersDoNotSpeakTheirTitle() throws {
        let plan = try Segmenter(manifest: manifest(yaml)).plan(book)
        #expect(plan.skipped.map(\.text) == ["Title page", "\u{2014} ... \u{2014}", "Skipped chapter", "Not read."])
        #expect(plan.skipped[0].reason == .frontMatter)
        #expect(plan.skipped[1].reason == .punctuationOnly)
        // A skipped chapter's text names the chapter in its reason and belongs to no output chapter.
        #expect(plan.skipped[2...].allSatisfy { $0.reason == .chapterOverride(number: 3, title: "Skipped chapter") && $0.chapter == nil })
        #expect(plan.skipped.prefix(2).map(\.chapter) == [nil, 1])
        #expect(plan.chapters.last?.utterances.map(\.text) == ["Appendix."])
        #expect(plan.chapters.map(\.number) == [1, 2, 3, 4])
        #expect(plan.utteranceCount == 4 + 3 + 2 + 1)
        // Opening 1 + Hello there 2 + Quoted words 2 + An item 2; Middle 1 + Sub 1 + Text 1; Epilogue 1 + Bye 1; Appendix 1.
        #expect(plan.wordCount == 13)
        #expect(plan.voiceNames == ["en-gb", "en-us"])
    }

    @Test func overrideNamingAMissingChapterNumberThrowsManifestError() throws {
        let m = try manifest("title: T\nsources: [book.txt]\noverrides:\n  - chapter: 9\n    skip: true\n")
        let error = try #require(throws: ManifestError.self) { try Segmenter(manifest: m).plan(book) }
        #expect(error.file == m.file.path)
        #expect(error.line == 4)
        #expect(error.key == "overrides")
        #expect(error.message == "no chapter 9 (the book has 5)")
    }

    @Test func overrideNamingAMissingChapterTitleThrowsManifestError() throws {
        let m = try manifest("title: T\nsources: [book.txt]\noverrides:\n  - chapter: 1\n    title: First\n  - chapter: Nowhere\n    skip: true\n")
        let error = try #require(throws: ManifestError.self) { try Segmenter(manifest: m).plan(book) }
        #expect(error.line == 6)
        #expect(error.message == "no chapter is titled \"Nowhere\"")
    }

    @Test
    func skippedTextAfterASkippedChapterUsesThePlannedChaptersNumber() throws {
        // Chapter 2 of the book is skipped, so the book's chapter 3 is the plan's chapter 2; text left out
        // of it must point at that chapter, as the plan's chapters are what the sidecar lists.
        let m = try manifest("title: T\nsources: [book.txt]\noverrides:\n  - chapter: 2\n    skip: true\n")
        let book = Book(chapters: [
            Chapter(title: "One", blocks: [Block(kind: .paragraph, text: "First.")], source: "book.txt"),
            Chapter(title: "Two", blocks: [Block(kind: .paragraph, text: "Second.")], source: "book.txt"),
            Chapter(title: "Three", blocks: [Block(kind: .paragraph, text: "* * *"), Block(kind: .paragraph, text: "Third.")], source: "book.txt"),
        ])
        let plan = try Segmenter(manifest: m).plan(book)
        let three = try #require(plan.chapters.first { $0.title == "Three" })
        let punctuation = try #require(plan.skipped.first { $0.text == "* * *" })
        #expect(punctuation.chapter == three.number)
    }

    @Test func chapterWithNothingToSayIsNotAnOutputChapter() throws {
        // A front-matter chapter (title not spoken) holding only a dinkus would be an empty chapter.
        let m = try manifest("title: T\nsources: [book.txt]\n")
        let book = Book(chapters: [
            Chapter(title: "front", speaksTitle: false, blocks: [Block(kind: .paragraph, text: "* * *")], source: "book.txt"),
            Chapter(title: "One", blocks: [Block(kind: .paragraph, text: "Words.")], source: "book.txt"),
        ])
        let plan = try Segmenter(manifest: m).plan(book)
        #expect(plan.chapters.map(\.title) == ["One"])
        #expect(plan.chapters.map(\.number) == [1])
        #expect(plan.skipped.map(\.text) == ["* * *"])
        #expect(plan.skipped.first?.chapter == nil)
    }
}
