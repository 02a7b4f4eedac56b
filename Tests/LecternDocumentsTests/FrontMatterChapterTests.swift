import Foundation
import LecternCore
import Testing
@testable import LecternDocuments

/// The book's own front matter — a preface, a note to an edition, an author's advertisement, a
/// note on the text — is read as a chapter of its own where it has its own heading, in every
/// format; a byline, a half-title or a dedication the markup sets as a heading is no chapter, and
/// a contents list's misprint does not unmake the chapter it names.
@Suite struct FrontMatterChapterTests {
    static let body = "It was a dark and stormy night; the rain fell in torrents, except at\noccasional intervals, when it was checked by a violent gust of wind.\n"
    static let paragraph = "<p>It was a dark and stormy night; the rain fell in torrents, except at occasional intervals.</p>"

    static func titles(_ text: String) throws -> [String] {
        try PlainTextReader().read(text: text, source: textSource()).chapters.map(\.title)
    }

    static func html(_ body: String) throws -> Book { try HTMLPage.body(body) }

    @Test func thePrefaceANoteToAnEditionAndANoteOnTheTextAreChapters() throws {
        let text = """
            THE NOVEL

            by A. Writer



            THE PREFACE

            \(Self.body)
            NOTE TO THE THIRD EDITION

            \(Self.body)


            CHAPTER I.

            \(Self.body)
            CHAPTER II.

            \(Self.body)
            A Note on the Text

            \(Self.body)
            """
        #expect(try Self.titles(text) == ["THE PREFACE", "NOTE TO THE THIRD EDITION", "CHAPTER I.", "CHAPTER II.", "A Note on the Text"])
    }

    @Test func anAuthorsNoticeAfterTheLastChapterInTheContentsIsAnEntryOfItsOwn() throws {
        #expect(ListedChapters.entries(["CHAPTER 31", "", "A NOTE ON THE TEXT"]).count == 2)
        // A number alone and its title on the next line stay one entry.
        #expect(ListedChapters.entries(["CHAPTER I.", "", "Down the Rabbit-Hole"]).count == 1)
        let text = """
            THE ABBEY


            CONTENTS

            ADVERTISEMENT BY THE AUTHORESS, TO THE ABBEY

            CHAPTER 1

            CHAPTER 2

            CHAPTER 3

            A NOTE ON THE TEXT



            ADVERTISEMENT BY THE AUTHORESS, TO THE ABBEY

            \(Self.body)
            CHAPTER 1

            \(Self.body)
            CHAPTER 2

            \(Self.body)
            CHAPTER 3

            \(Self.body)
            A NOTE ON THE TEXT

            \(Self.body)
            """
        #expect(try Self.titles(text) == ["ADVERTISEMENT BY THE AUTHORESS, TO THE ABBEY", "CHAPTER 1", "CHAPTER 2", "CHAPTER 3", "A NOTE ON THE TEXT"])
    }

    @Test func aContentsListsMisprintStillNamesItsChapter() throws {
        #expect(ContentsEntry(title: "Couterparts").matches(ContentsEntry(title: "COUNTERPARTS")))
        #expect(!ContentsEntry(title: "Couterparts").matches(ContentsEntry(title: "COUNTERPARTS"), exactly: true))
        #expect(!ContentsEntry(title: "Clay").matches(ContentsEntry(title: "Clad")))
        #expect(!ContentsEntry(title: "The Sisters").matches(ContentsEntry(title: "The Mistress")))
        let text = """
            CONTENTS

            The Sisters

            Araby

            Couterparts

            Clay



            THE SISTERS

            \(Self.body)
            ARABY

            \(Self.body)
            COUNTERPARTS

            \(Self.body)
            CLAY

            \(Self.body)
            """
        #expect(try Self.titles(text) == ["THE SISTERS", "ARABY", "COUNTERPARTS", "CLAY"])
    }

    @Test func theBooksTitleOverItsFirstHeadingIsAHalfTitle() throws {
        let text = """
            THE SONG OF THE RIVER

            by H. W. Writer



            The Song of the River
            Introduction

            \(Self.body)
            CHAPTER I.

            \(Self.body)
            CHAPTER II.

            \(Self.body)
            """
        #expect(summary(analysed(text)).filter { $0.hasPrefix("H ") || $0.hasPrefix("S title page: The Song") } == [
            "S title page: The Song of the River", "H chapter: Introduction", "H chapter: CHAPTER I.", "H chapter: CHAPTER II.",
        ])
    }

    @Test func aBylineSetAsAHeadingIsTheTitlePages() throws {
        let book = try Self.html("<h1>DUBLINERS</h1><h2>By James Joyce</h2><h2>THE SISTERS</h2>\(Self.paragraph)<h2>ARABY</h2>\(Self.paragraph)"
            + "<h2>CLAY</h2>\(Self.paragraph)")
        #expect(book.chapters.map(\.title) == ["THE SISTERS", "ARABY", "CLAY"])
        #expect(book.skipped.contains { $0.text == "By James Joyce" && $0.reason == SkipReason.titlePage }, "\(book.skipped)")
    }

    @Test func aDedicationSetAsAHeadingIsReadAtTheStartOfChapterOne() throws {
        let book = try Self.html("<h1>BEETHOVEN</h1><h4>TO THE MEMORY OF<br/>My father</h4><h2>CHAPTER I</h2>\(Self.paragraph)"
            + "<h2>CHAPTER II</h2>\(Self.paragraph)")
        #expect(book.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II"])
        #expect(book.chapters.first?.blocks.first?.text.hasPrefix("TO THE MEMORY OF") == true, "\(book.chapters.first?.pairs ?? [])")
    }

    /// A dedication that is a letter (`DEDICATION` / `To the Magnificent Lorenzo…:` / its paragraphs) is a
    /// section of its own, as a preface is; a dedication of a line is the title page's, no chapter.
    @Test func aDedicatoryLetterIsAChapterALineOfDedicationIsNot() throws {
        let letter = """
            THE BOOK

            INTRODUCTION

            \(Self.body)



            DEDICATION

                 To the Magnificent Lorenzo Di Piero De' Medici:

                 Those who strive to obtain the good graces of a prince are
                 accustomed to come before him with such things as they hold most
                 precious.



            CHAPTER I

            \(Self.body)
            CHAPTER II

            \(Self.body)
            """
        #expect(try Self.titles(letter) == ["INTRODUCTION", "DEDICATION To the Magnificent Lorenzo Di Piero De' Medici:", "CHAPTER I", "CHAPTER II"])
        let line = """
            THE BOOK

            DEDICATION

            To my wife



            CHAPTER I

            \(Self.body)
            CHAPTER II

            \(Self.body)
            """
        #expect(try Self.titles(line) == ["CHAPTER I", "CHAPTER II"])
    }
}
