import Foundation
import Testing
import LecternCore
import LecternDocuments

@Suite struct PlainTextReaderTests {
    /// `encoding: utf-8`: strict, an error for any byte that is not UTF-8.
    var utf8: ReadingRules { var r = ReadingRules(); r.encoding = "utf-8"; return r }

    static let gutenberg = """
        The Title Page

        Contents:
        CHAPTER I. Down the Rabbit-Hole

          CHAPTER I.
        Down the _Rabbit_-Hole

        Alice was beginning
        to get very   tired.

        It was _very_ hot.

        CHAPTER II.

        The Pool of Tears

        Curiouser and curiouser!
        """

    @Test func headingPatternStartsChaptersAndTheNextLineIsTheSubtitle() throws {
        let book = try PlainTextReader().read(text: Self.gutenberg,
                                              source: textSource(heading: #"^CHAPTER [IVX]+\.$"#, subtitle: true, skipBeforeFirst: true))
        #expect(book.chapters.map(\.title) == ["CHAPTER I. Down the Rabbit-Hole", "CHAPTER II. The Pool of Tears"])
        #expect(book.chapters.allSatisfy { $0.source == "book.txt" })
        // The heading's number and title are spoken as two headings, so the heading pause falls between them.
        #expect(book.chapters.allSatisfy { !$0.speaksTitle })
        // Lines of a paragraph are joined, whitespace collapsed, underscores removed.
        #expect(book.chapters[0].pairs == [["heading", "CHAPTER I."], ["heading", "Down the Rabbit-Hole"],
                                           ["paragraph", "Alice was beginning to get very tired."], ["paragraph", "It was very hot."]])
        #expect(book.chapters[1].pairs == [["heading", "CHAPTER II."], ["heading", "The Pool of Tears"], ["paragraph", "Curiouser and curiouser!"]])
    }

    @Test func skipBeforeFirstListsFrontMatterAsSkipped() throws {
        let book = try PlainTextReader().read(text: Self.gutenberg,
                                              source: textSource(heading: #"^CHAPTER [IVX]+\.$"#, subtitle: true, skipBeforeFirst: true))
        #expect(book.skipped == [
            SkippedText(source: "book.txt", chapter: nil, reason: .frontMatter, text: "The Title Page"),
            SkippedText(source: "book.txt", chapter: nil, reason: .frontMatter,
                        text: "Contents: CHAPTER I. Down the Rabbit-Hole"),
        ])
    }

    @Test func withoutSkipBeforeFirstShortFrontMatterIsReadAtTheStartOfTheFirstChapter() throws {
        let book = try PlainTextReader().read(text: "Preface text.\n\nCHAPTER I.\nBody.\n",
                                              source: textSource("my-book.txt", heading: #"^CHAPTER [IVX]+\.$"#))
        // Not a chapter named after the file (``UnheadedOpening``).
        #expect(book.chapters.map(\.title) == ["CHAPTER I."])
        // Without `subtitle`, the line after the heading is an ordinary paragraph.
        #expect(book.chapters[0].pairs == [["paragraph", "Preface text."], ["heading", "CHAPTER I."], ["paragraph", "Body."]])
        #expect(book.skipped.isEmpty)
    }

    @Test func sourceWithoutHeadingsIsOneChapterWithTheConfiguredTitle() throws {
        let book = try PlainTextReader().read(text: "One.\n\n\n\nTwo\nthree.", source: textSource(title: "Foreword"))
        #expect(book.chapters.count == 1)
        #expect(book.chapters[0].title == "Foreword")
        #expect(book.chapters[0].speaksTitle == false)
        #expect(book.chapters[0].pairs == [["paragraph", "One."], ["paragraph", "Two three."]])
    }

    @Test func skipPatternsListMatchingParagraphsWithTheirChapter() throws {
        let text = "CHAPTER I.\n\n[Illustration: Alice]\n\nShe ran.\n\nCHAPTER II.\n\n* * *\n\nThe end."
        let book = try PlainTextReader().read(text: text, source: textSource(heading: "^CHAPTER", skip: [#"^\[Illustration"#, #"^(\* ?)+$"#]))
        #expect(book.chapters[0].pairs == [["heading", "CHAPTER I."], ["paragraph", "She ran."]])
        #expect(book.chapters[1].pairs == [["heading", "CHAPTER II."], ["paragraph", "The end."]])
        #expect(book.skipped == [
            SkippedText(source: "book.txt", chapter: 1, reason: .skipPattern(#"^\[Illustration"#), text: "[Illustration: Alice]"),
            SkippedText(source: "book.txt", chapter: 2, reason: .skipPattern(#"^(\* ?)+$"#), text: "* * *"),
        ])
    }

    @Test func crlfAndAByteOrderMarkAreHandledWhenReadingAFile() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let text = "Front.\r\n\r\nCHAPTER I.\r\nThe Start\r\n\r\nLine one\r\nline two.\r\rAfter a lone CR.\r\n"
        let url = try dir.write("crlf.txt", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let book = try PlainTextReader().read(Source(url: url, format: .text,
                                                     chapters: ChapterRule(heading: #"^CHAPTER [IVX]+\.$"#, subtitle: true)))
        #expect(book.chapters.map(\.title) == ["CHAPTER I. The Start"])
        // No byte-order mark (U+FEFF) and no carriage return survives; the short opening is read
        // at the start of the first chapter (``UnheadedOpening``).
        #expect(book.chapters[0].pairs == [["paragraph", "Front."], ["heading", "CHAPTER I."], ["heading", "The Start"],
                                           ["paragraph", "Line one line two."], ["paragraph", "After a lone CR."]])
        #expect(book.chapters[0].source == "crlf.txt")
    }

    @Test func invalidUTF8NamesTheByteOffset() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        // "Hello " is six bytes, so the 0xFF is at offset 6.
        let url = try dir.write("bad.txt", bytes: Array("Hello ".utf8) + [0xFF] + Array(" world".utf8))
        let source = Source(url: url, displayPath: "texts/bad.txt", format: .text, rules: utf8)
        let error = try #require(throws: DocumentError.self) { try PlainTextReader().read(source) }
        #expect(error.document.hasSuffix("bad.txt"))
        #expect(error.message.contains("invalid UTF-8 at byte offset 6 (byte 0xFF)"))
        #expect(error.message.contains("encoding:"), "the message says how to read it")
        #expect(error.description == "\(error.document): \(error.message)")
    }

    @Test func invalidUTF8OffsetCountsTheByteOrderMark() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        // BOM (3 bytes), "ab" (2), "é" (2 valid bytes), then a lone continuation byte at offset 7.
        let url = try dir.write("bom.txt", bytes: [0xEF, 0xBB, 0xBF, 0x61, 0x62, 0xC3, 0xA9, 0x80, 0x63])
        let error = try #require(throws: DocumentError.self) { try PlainTextReader().read(Source(url: url, format: .text, rules: utf8)) }
        #expect(error.message.contains("byte offset 7 (byte 0x80)"))
    }

    @Test(arguments: [
        ([0x61, 0xC0, 0x80], 1),              // overlong encoding of NUL
        ([0x61, 0x62, 0xED, 0xA0, 0x80], 2),  // UTF-16 surrogate D800
        ([0x61, 0x62, 0x63, 0xE2, 0x82], 3),  // truncated three-byte sequence at the end
        ([0xF4, 0x90, 0x80, 0x80], 0),        // above U+10FFFF
        ([0xE2, 0x82, 0xAC, 0xF0, 0x28, 0x8C, 0xBC], 3),  // € then a bad second byte
    ] as [([UInt8], Int)])
    func malformedSequencesAreReportedAtTheirFirstByte(bytes: [UInt8], offset: Int) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let url = try dir.write("x.txt", bytes: bytes)
        let error = try #require(throws: DocumentError.self) { try PlainTextReader().read(Source(url: url, format: .text, rules: utf8)) }
        #expect(error.message.contains("byte offset \(offset) "))
        // With `encoding: auto` the same bytes are read, and the warning names the first bad byte.
        let book = try PlainTextReader().read(Source(url: url, format: .text))
        #expect(book.warnings.count == 1)
        #expect(book.warnings.first?.contains("byte offset \(offset)") == true)
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let text = "Ça coûte 5 €, 東京 and \u{1F600}."
        let url = try dir.write("ok.txt", bytes: Array(text.utf8))
        let book = try PlainTextReader().read(Source(url: url, format: .text))
        #expect(book.chapters.first?.blocks.first?.text == text)
    }

    @Test func missingFileIsADocumentError() throws {
        let source = Source(url: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)/gone.txt"), displayPath: "gone.txt", format: .text)
        let error = try #require(throws: DocumentError.self) { try PlainTextReader().read(source) }
        #expect(error.document.hasSuffix("gone.txt"))
        #expect(error.message.hasPrefix("cannot read the file"))
    }
}

/// A heading line holding a number and a title is spoken as two headings (the heading pause
/// between them); a title alone, or a number alone, stays one.
@Suite struct HeadingLineTests {
    @Test(arguments: [
        ("CHAPTER I: DISCUSSION AND BED", ["CHAPTER I:", "DISCUSSION AND BED"]),
        ("CHAPTER I. The Widow and her Child", ["CHAPTER I.", "The Widow and her Child"]),
        ("XIV. The Trial", ["XIV.", "The Trial"]),
        ("Book 2 — The Return", ["Book 2 —", "The Return"]),
        ("CHAPTER XIV.", ["CHAPTER XIV."]),
        ("Down the Rabbit-Hole", ["Down the Rabbit-Hole"]),
        ("EPOCH THE FIRST, 1703.", ["EPOCH THE FIRST, 1703."]),
        ("I said: go away", ["I said: go away"]),
    ])
    func numberAndTitleAreSpokenApart(_ line: String, _ parts: [String]) throws {
        let book = try PlainTextReader().read(text: "\(line)\n\nBody text.\n", source: textSource(heading: "^" + NSRegularExpression.escapedPattern(for: line) + "$"))
        #expect(book.chapters.first?.blocks.filter { $0.kind == .heading }.map(\.text) == parts)
        #expect(book.chapters.first?.title == line)
    }
}

/// `chapters: auto` through the reader: footnotes placed by `footnotes:`, markers silent but kept,
/// parts spoken at their first chapter, every word read or listed once.
@Suite struct PlainTextReaderStructureTests {
    static let book = """
        CHAPTER I.

        The First

        A marker here[1] and there.

        [1] The first chapter's note.

        CHAPTER II.

        The Second

        Another marker{1} in chapter two, and an endnote{2}.

        [1] The second chapter's own note one.

        FOOTNOTES:

        {2} An endnote gathered at the end of the book.
        """

    func source(footnotes: ReadingRules.Footnotes) -> Source {
        var rules = ReadingRules()
        rules.footnotes = footnotes
        return Source(url: URL(fileURLWithPath: "/nonexistent/book.txt"), displayPath: "book.txt", format: .text, rules: rules)
    }

    @Test func notesAreReadAtTheEndOfTheChapterThatRefersToThemEvenWhenGatheredAtTheEnd() throws {
        let book = try PlainTextReader().read(text: Self.book, source: source(footnotes: .chapter))
        #expect(book.chapters.map(\.title) == ["CHAPTER I. The First", "CHAPTER II. The Second"])
        #expect(book.chapters[0].pairs.suffix(2) == [["paragraph", "A marker here[1] and there."], ["quote", "The first chapter's note."]])
        #expect(book.chapters[1].pairs.suffix(3) == [["paragraph", "Another marker{1} in chapter two, and an endnote{2}."],
                                                     ["quote", "The second chapter's own note one."],
                                                     ["quote", "An endnote gathered at the end of the book."]])
        // The markers stay in the text, spoken as nothing.
        let marked = try #require(book.chapters[1].blocks.first { $0.text.hasPrefix("Another") })
        #expect(marked.pronunciations.map(\.spoken) == [" ", " "])
        #expect(marked.pronunciations.map { (marked.text as NSString).substring(with: NSRange(location: $0.offset, length: $0.length)) } == ["{1}", "{2}"])
        #expect(book.skipped.contains { $0.text == "FOOTNOTES:" })
    }

    @Test func notesAfterTheirParagraphOrSkipped() throws {
        let after = try PlainTextReader().read(text: Self.book, source: source(footnotes: .paragraph))
        #expect(after.chapters[0].pairs.suffix(2).map { $0[0] } == ["paragraph", "quote"])
        #expect(after.chapters[1].pairs.map(\.[1]).contains("An endnote gathered at the end of the book."))
        let skipped = try PlainTextReader().read(text: Self.book, source: source(footnotes: .skip))
        #expect(!skipped.chapters.flatMap(\.blocks).contains { $0.kind == .quote })
        #expect(skipped.skipped.filter { $0.reason == .footnote }.count == 3)
    }

    @Test func aPartHeadingIsSpokenAtItsFirstChapter() throws {
        let text = "BOOK I.\n\nTHE ARRIVAL\n\nCHAPTER I.\n\nThe Gate\n\nThey came.\n\nCHAPTER II.\n\nThe Hall\n\nThey stayed.\n\n"
            + "BOOK II.\n\nTHE RETURN\n\nCHAPTER I.\n\nThe Road\n\nThey left.\n"
        let book = try PlainTextReader().read(text: text, source: source(footnotes: .chapter))
        #expect(book.chapters.map(\.part) == ["BOOK I. THE ARRIVAL", "BOOK I. THE ARRIVAL", "BOOK II. THE RETURN"])
        #expect(book.chapters[0].pairs.prefix(4).map(\.[1]) == ["BOOK I.", "THE ARRIVAL", "CHAPTER I.", "The Gate"])
        #expect(book.chapters[1].pairs.first == ["heading", "CHAPTER II."])
    }
}
