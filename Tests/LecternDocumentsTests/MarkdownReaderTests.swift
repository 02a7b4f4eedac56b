import Foundation
import Testing
import LecternCore
import LecternDocuments

@Suite struct MarkdownReaderTests {
    @Test func levelOneHeadingsStartChaptersAndDeeperHeadingsBecomeHeadingBlocks() throws {
        let md = "# One\n\nPara *with* **emphasis** and `code`.\n\n## A Section\n\nMore.\n\n### Deeper\n\n# The *Second* One\n\nEnd.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters.map(\.title) == ["One", "The Second One"])
        #expect(book.chapters.allSatisfy { $0.speaksTitle && $0.source == "guide.md" })
        #expect(book.chapters[0].pairs == [
            ["paragraph", "Para with emphasis and code."],
            ["heading", "A Section"],
            ["paragraph", "More."],
            ["heading", "Deeper"],
        ])
        #expect(book.chapters[1].pairs == [["paragraph", "End."]])
        #expect(book.skipped.isEmpty)
    }

    @Test func chapterLevelTwoMakesSecondLevelHeadingsChaptersToo() throws {
        let md = "# One\n\nA.\n\n## Two\n\nB.\n\n### Three\n\nC.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource(level: 2))
        #expect(book.chapters.map(\.title) == ["One", "Two"])
        #expect(book.chapters[1].pairs == [["paragraph", "B."], ["heading", "Three"], ["paragraph", "C."]])
    }

    @Test func fencedCodeBlocksAreSkippedAsCodeBlocksWithTheirText() throws {
        let md = "# One\n\nBefore.\n\n```js\nlet x = 1;\nconsole.log(x);\n```\n\nAfter.\n\n    indented code\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters[0].pairs == [["paragraph", "Before."], ["paragraph", "After."]])
        #expect(book.skipped == [
            SkippedText(source: "guide.md", chapter: 1, reason: .codeBlock, text: "let x = 1;\nconsole.log(x);"),
            SkippedText(source: "guide.md", chapter: 1, reason: .codeBlock, text: "indented code"),
        ])
    }

    @Test func listItemsBecomeListItemBlocks() throws {
        let md = "# L\n\n- first item\n- second *item*\n\n1. one\n2. two\n\n   still two\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters[0].pairs == [
            ["list_item", "first item"], ["list_item", "second item"],
            ["list_item", "one"], ["list_item", "two"], ["list_item", "still two"],
        ])
    }

    @Test func blockQuotesBecomeQuoteBlocksIncludingListsInsideThem() throws {
        let md = "# Q\n\n> A quoted\n> line.\n>\n> - quoted item\n\nPlain.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters[0].pairs == [["quote", "A quoted line."], ["quote", "quoted item"], ["paragraph", "Plain."]])
    }

    @Test func templateTagsAreSkippedAndTheTextAroundThemRead() throws {
        let md = "# T\n\n{% exercise %}\nDo it now.\n{% endexercise %}\n\nText with an inline {% hint style='info' %} tag.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters[0].pairs == [["paragraph", "Do it now."], ["paragraph", "Text with an inline tag."]])
        #expect(book.skipped.map(\.text) == ["{% exercise %}", "{% endexercise %}", "{% hint style='info' %}"])
        #expect(book.skipped.allSatisfy { $0.reason == .templateTag && $0.chapter == 1 })
    }

    @Test func imagesAreSkippedWithTheirDescription() throws {
        let md = "# I\n\nLook: ![A *big* diagram](img.png) here.\n\n![](logo.png)\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        // The image-only paragraph leaves no block at all.
        #expect(book.chapters[0].pairs == [["paragraph", "Look: here."]])
        #expect(book.skipped == [
            SkippedText(source: "guide.md", chapter: 1, reason: .image, text: "A big diagram"),
            SkippedText(source: "guide.md", chapter: 1, reason: .image, text: "(image without description)"),
        ])
    }

    @Test func linksAreReadAsTheirTextAndHTMLIsSkipped() throws {
        let md = "# H\n\nSee [the docs](https://example.com) and <b>this</b>.\n\n<div>\nraw block\n</div>\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters[0].pairs == [["paragraph", "See the docs and this."]])
        #expect(book.skipped.map(\.reason) == [.inlineHTML, .inlineHTML, .rawHTML])
        #expect(book.skipped.map(\.text) == ["<b>", "</b>", "<div>\nraw block\n</div>"])
    }

    @Test func textBeforeTheFirstHeadingIsFrontMatterOrAnUntitledChapter() throws {
        let md = "Intro.\n\n# One\n\nBody.\n"
        let skipping = try MarkdownReader().read(text: md, source: markdownSource(skipBeforeFirst: true))
        #expect(skipping.chapters.map(\.title) == ["One"])
        #expect(skipping.skipped == [SkippedText(source: "guide.md", chapter: nil, reason: .frontMatter, text: "Intro.")])
        let keeping = try MarkdownReader().read(text: md, source: markdownSource())
        // Chapters at a level the source gives (`chapters.level`) are laid out as the rule says: the
        // opening stays a chapter of its own (``UnheadedOpening`` joins it only when no rule is given).
        #expect(keeping.chapters.map(\.title) == ["guide", "One"])
        #expect(keeping.chapters[0].speaksTitle == false)
        #expect(keeping.chapters[0].pairs == [["paragraph", "Intro."]])
    }

    @Test func skipPatternsApplyToMarkdownParagraphs() throws {
        let md = "# S\n\nTODO: remove this.\n\nKeep this.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource(skip: ["^TODO"]))
        #expect(book.chapters[0].pairs == [["paragraph", "Keep this."]])
        #expect(book.skipped == [SkippedText(source: "guide.md", chapter: 1, reason: .skipPattern("^TODO"), text: "TODO: remove this.")])
    }

    @Test func readingAFileDecodesItAndDocumentReaderRenumbersSkippedChapters() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let a = try dir.write("a.md", bytes: Array("# A1\n\nx.\n\n# A2\n\ny.\n".utf8))
        let b = try dir.write("b.md", bytes: [0xEF, 0xBB, 0xBF] + Array("# B1\r\n\r\n```\r\ncode\r\n```\r\n\r\nz.\r\n".utf8))
        let book = try DocumentReader().read([
            Source(url: a, format: .markdown),
            Source(url: b, displayPath: "docs/b.md", format: .markdown),
        ])
        #expect(book.chapters.map(\.title) == ["A1", "A2", "B1"])
        #expect(book.chapters.map(\.source) == ["a.md", "a.md", "docs/b.md"])
        #expect(book.chapters[2].pairs == [["paragraph", "z."]])
        // b.md's code block is in its first chapter, which is the book's third.
        #expect(book.skipped == [SkippedText(source: "docs/b.md", chapter: 3, reason: .codeBlock, text: "code")])
    }

    @Test
    func textSkippedFromAChapterHeadingBelongsToThatChapter() throws {
        let md = "# One\n\nx.\n\n# Two ![logo](l.png) {% badge %}\n\ny.\n"
        let book = try MarkdownReader().read(text: md, source: markdownSource())
        #expect(book.chapters.map(\.title) == ["One", "Two"])
        #expect(book.skipped.map(\.text) == ["logo", "{% badge %}"])
        #expect(book.skipped.map(\.chapter) == [2, 2])
    }
}
