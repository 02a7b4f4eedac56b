import Foundation
import Testing
@testable import LecternDocuments
import LecternCore
import LecternText

/// The structure found in the corpus's real plain-text books (Project Gutenberg texts).
@Suite(.enabled(if: Corpus.available, "needs ../shared/corpus (the shared test corpus) beside the clone"))
struct PlainTextCorpusTests {
    static func analyse(_ path: String, illustrations: PlainTextStructure.Illustrations = .skip) throws -> (lines: [String], items: [TextItem]) {
        let lines = try PlainTextCorpus.lines(path)
        return (lines, PlainTextStructure.analyse(lines, illustrations: illustrations))
    }

    static func chapters(_ items: [TextItem]) -> [TextHeading] { items.compactMap(\.heading).filter { $0.level == .chapter } }

    @Test(arguments: PlainTextCorpus.all)
    func everyWordComesOutExactlyOnce(_ path: String) throws {
        let (lines, items) = try Self.analyse(path)
        #expect(wordAccountingMismatch(lines, items) == nil)
        let read = PlainTextStructure.analyse(lines, illustrations: .read)
        #expect(wordAccountingMismatch(lines, read) == nil)
    }

    @Test(arguments: PlainTextCorpus.all)
    func itemsAreInLineOrder(_ path: String) throws {
        let (_, items) = try Self.analyse(path)
        #expect(zip(items, items.dropFirst()).allSatisfy { $0.firstLine <= $1.firstLine })
    }

    @Test(arguments: PlainTextCorpus.all)
    func nothingReadOutsideTheGutenbergMarkers(_ path: String) throws {
        let (lines, items) = try Self.analyse(path)
        let start = lines.firstIndex { $0.contains("START OF THIS PROJECT GUTENBERG") || $0.contains("START OF THE PROJECT GUTENBERG") } ?? -1
        let end = lines.firstIndex { $0.hasPrefix("End of Project Gutenberg") || $0.hasPrefix("End of the Project Gutenberg")
            || $0.contains("END OF THIS PROJECT GUTENBERG") || $0.contains("END OF THE PROJECT GUTENBERG") } ?? lines.count
        for item in items where item.skipped == nil {
            #expect(item.firstLine > start && item.firstLine < end, "\(item)")
        }
        if start >= 0 { #expect(items.first?.skipped?.reason == .gutenbergHeader) }
        if end < lines.count { #expect(items.last?.skipped?.reason == .gutenbergLicence) }
    }

    @Test(arguments: PlainTextCorpus.all)
    func noMarkupOrContentsIsRead(_ path: String) throws {
        let (_, items) = try Self.analyse(path)
        for p in items.compactMap(\.paragraph) {
            let heard = spoken(p)
            for bad in ["[Illustration", "[illustration", "+--", "[G:", "[F:", "[W:", "http://", "https://", "www.", "/*"] {
                #expect(!heard.contains(bad), "\(p.firstLine): \(p.text)")
            }
            #expect(!p.text.hasPrefix("[Illustration"), "\(p.firstLine): \(p.text)")
        }
        for h in items.compactMap(\.heading) {
            // A contents entry ends in a page number.
            #expect(h.lines.allSatisfy { $0.range(of: #"\s\d+$"#, options: .regularExpression) == nil }, "\(h)")
        }
        for n in items.compactMap(\.note) { #expect(!n.text.contains("[Illustration")) }
    }

    @Test func alice() throws {
        let (_, items) = try Self.analyse(PlainTextCorpus.alice)
        #expect(Self.chapters(items).map(\.title) == [
            "CHAPTER I. Down the Rabbit-Hole", "CHAPTER II. The Pool of Tears", "CHAPTER III. A Caucus-Race and a Long Tale",
            "CHAPTER IV. The Rabbit Sends in a Little Bill", "CHAPTER V. Advice from a Caterpillar", "CHAPTER VI. Pig and Pepper",
            "CHAPTER VII. A Mad Tea-Party", "CHAPTER VIII. The Queen’s Croquet-Ground", "CHAPTER IX. The Mock Turtle’s Story",
            "CHAPTER X. The Lobster Quadrille", "CHAPTER XI. Who Stole the Tarts?", "CHAPTER XII. Alice’s Evidence",
        ])
        #expect(Self.chapters(items).first?.lines == ["CHAPTER I.", "Down the Rabbit-Hole"])
        let contents = try #require(items.firstIndex { $0.skipped?.reason == .contentsList })
        #expect(contents < items.firstIndex { $0.heading != nil }!)
        #expect(items.compactMap(\.skipped).map(\.reason) == [.illustration, .titlePage, .titlePage, .titlePage, .contentsList])
        #expect(items.last?.paragraph?.text == "THE END")
    }

    @Test func prideAndPrejudice() throws {
        let (_, items) = try Self.analyse(PlainTextCorpus.pride)
        let chapters = Self.chapters(items)
        #expect(chapters.count == 62)  // Saintsbury's preface and 61 chapters
        #expect(chapters.first?.title == "PREFACE.")
        #expect(chapters[1].title == "Chapter I.")  // only inside the caption `[Illustration: ·PRIDE AND PREJUDICE· … Chapter I.]`
        #expect(chapters.dropFirst().allSatisfy { $0.title.uppercased().hasPrefix("CHAPTER ") })
        #expect(chapters.map(\.title).contains("Chapter XLVI.") && chapters.map(\.title).contains("CHAPTER XIII"))
        let reasons = items.compactMap(\.skipped).map(\.reason)
        #expect(reasons.filter { $0 == .illustrationsList }.count == 1)
        #expect(reasons.filter { $0 == .illustration }.count >= 150)
        #expect(items.first { $0.paragraph != nil }?.paragraph?.text.hasPrefix("Walt Whitman has somewhere") == true)
        #expect(items.first { $0.heading?.title == "Chapter I." }.map { items.firstIndex(of: $0)! }.map { items[$0 + 1].paragraph?.text.hasPrefix("It is a truth universally") } == true)
    }

    @Test func newsFromNowhere() throws {
        let (_, items) = try Self.analyse(PlainTextCorpus.nowhere)
        let titles = Self.chapters(items).map(\.title)
        #expect(titles == [
            "CHAPTER I: DISCUSSION AND BED",
            "CHAPTER II: A MORNING BATH",
            "CHAPTER III: THE GUEST HOUSE AND BREAKFAST THEREIN",
            "CHAPTER IV: A MARKET BY THE WAY",
            "CHAPTER V: CHILDREN ON THE ROAD",
            "CHAPTER VI: A LITTLE SHOPPING",
            "CHAPTER VII: TRAFALGAR SQUARE",
            "CHAPTER VIII: AN OLD FRIEND",
            "CHAPTER IX: CONCERNING LOVE",
            "CHAPTER X: QUESTIONS AND ANSWERS",
            "CHAPTER XI: CONCERNING GOVERNMENT",
            "CHAPTER XII: CONCERNING THE ARRANGEMENT OF LIFE",
            "CHAPTER XIII: CONCERNING POLITICS",
            "CHAPTER XIV: HOW MATTERS ARE MANAGED",
            "CHAPTER XV: ON THE LACK OF INCENTIVE TO LABOUR IN A COMMUNIST SOCIETY",
            "CHAPTER XVI: DINNER IN THE HALL OF THE BLOOMSBURY MARKET",
            "CHAPTER XVII: HOW THE CHANGE CAME",
            "CHAPTER XVIII: THE BEGINNING OF THE NEW LIFE",
            "CHAPTER XIX: THE DRIVE BACK TO HAMMERSMITH",
            "CHAPTER XX: THE HAMMERSMITH GUEST-HOUSE AGAIN",
            "CHAPTER XXI: GOING UP THE RIVER",
            "CHAPTER XXII: HAMPTON COURT AND A PRAISER OF PAST TIMES",
            "CHAPTER XXIII: AN EARLY MORNING BY RUNNYMEDE",
            "CHAPTER XXIV: UP THE THAMES: THE SECOND DAY",
            "CHAPTER XXV: THE THIRD DAY ON THE THAMES",
            "CHAPTER XXVI: THE OBSTINATE REFUSERS",
            "CHAPTER XXVII: THE UPPER WATERS",
            "CHAPTER XXVIII: THE LITTLE RIVER",
            "CHAPTER XXIX: A RESTING-PLACE ON THE UPPER THAMES",
            "CHAPTER XXX: THE JOURNEY'S END",
            "CHAPTER XXXI: AN OLD HOUSE AMONGST NEW FOLK",
            "CHAPTER XXXII: THE FEAST'S BEGINNING--THE END",
        ])
        #expect(items.compactMap(\.note).map(\.id) == ["1", "2", "3"])
        let referenced = items.compactMap(\.paragraph).flatMap(\.noteReferences)
        #expect(referenced == ["1", "2", "3"])
    }

    @Test func jackSheppard() throws {
        let (_, items) = try Self.analyse(PlainTextCorpus.sheppard)
        var held: [Int] = []
        var parts: [TextHeading] = []
        for h in items.compactMap(\.heading) {
            if h.level == .part { parts.append(h); held.append(0) } else { held[held.count - 1] += 1 }
        }
        #expect(parts.map(\.lines) == [["EPOCH THE FIRST.", "1703.", "JONATHAN WILD."], ["EPOCH THE SECOND.", "1715.", "THAMES DARRELL."],
                                        ["EPOCH THE THIRD.", "1724", "THE PRISON-BREAKER."]])
        #expect(held == [7, 19, 32])
        #expect(Self.chapters(items).first?.lines == ["CHAPTER I.", "The Widow and her Child."])
        #expect(items.contains { $0.paragraph?.text == "END OF THE FIRST EPOCH." })
        #expect(items.contains { $0.skipped == SkippedPassage(text: "JACK SHEPPARD.", reason: .titlePage, firstLine: 166) })
        let reasons = Set(items.compactMap(\.skipped).map(\.reason))
        #expect(reasons.isSuperset(of: [.gutenbergHeader, .producersCredit, .transcribersNote, .titlePage, .contentsList,
                                        .gutenbergLicence]))
        #expect(items.compactMap(\.note).map(\.id) == ["A"])
    }

    @Test func criticalAndHistoricalEssays() throws {
        let (_, items) = try Self.analyse(PlainTextCorpus.essays)
        let chapters = Self.chapters(items)
        // Counted by hand: the preface and 21 lectures, I to XXI, each a lone numeral then its title.
        #expect(chapters.count == 22)
        #expect(chapters.first?.lines == ["PREFACE"])
        #expect(chapters.dropFirst().map { $0.lines.first! } == (1...21).map { RomanNumeral.string(for: $0)! })
        #expect(chapters[1].lines == ["I", "THE ORIGIN OF MUSIC"])
        #expect(chapters.last?.lines == ["XXI", "SUGGESTION IN MUSIC"])
        #expect(items.compactMap(\.note).map(\.id) == (1...15).map { String(format: "%02d", $0) })
        #expect(items.compactMap(\.paragraph).flatMap(\.noteReferences) == (1...15).map { String(format: "%02d", $0) })
        let reasons = items.compactMap(\.skipped).map(\.reason)
        for reason: SkipReason in [.transcribersNote, .contentsList, .index, .transcribersNotation, .table, .footnoteLabel] {
            #expect(reasons.contains(reason), "\(reason)")
        }
        #expect(reasons.filter { $0 == .footnoteLabel }.count == 15)
        // The index's letter headings (`I.`, `V.`) are not lectures; the index runs to the licence.
        #expect(items[items.count - 2].skipped?.reason == .index)
        let silent = items.compactMap(\.paragraph).flatMap(\.silent).map(\.reason)
        #expect(silent.contains("transcriber's code") && silent.contains("footnote marker"))
    }
}
