import Foundation
import Testing
import LecternTesting

/// Sidecar offsets are UTF-16 code units, the unit of JavaScript strings and NSRange: text with
/// emoji (surrogate pairs, ZWJ sequences, flags), combining accents and CJK is sliced by them into
/// exactly the words spoken.
struct UnicodeOffsetTests {
    static let text = """
        # Unicode

        The café’s crème brûlée 🍮 costs 5 €, said Zoë with a 👩‍👩‍👧 family from 🇯🇵 Japan.

        Ｅｍｏｊｉ like 🎉🎉 and the word ｎａïｖｅ (with a combining diaeresis) sit beside Tōkyō.

        日本語の文章も読みます。東京 and 北京 are capitals.
        """

    @Test func offsetsSliceEachParagraphIntoItsSpokenWords() throws {
        let ws = try Workspace("unicode")
        // "naïve" written with a combining diaeresis (i + U+0308), so one letter is two code units.
        try ws.write("unicode.md", Self.text.replacingOccurrences(of: "ｎａïｖｅ", with: "nai\u{0308}ve"))
        let manifest = try ws.write("unicode.yml", """
            title: Unicode
            sources: [unicode.md]
            voice: { name: en-gb }
            """)
        let run = try Tool.lectern(["run", "--quiet", manifest.path], db: ws.db)
        try #require(run.status == 0, "\(run.stderr)")
        let sidecar = try Sidecar.load(ws.url.appendingPathComponent("out/unicode/unicode.timings.json"))
        let paragraphs = sidecar.chapters.flatMap(\.paragraphs).filter { $0.kind != "heading" }
        try #require(paragraphs.count == 3)
        for paragraph in paragraphs {
            let sliced = paragraph.words.map { paragraph.text(of: $0) }
            #expect(sliced == independentWords(paragraph.text), "\(paragraph.text)")
            // Offsets are UTF-16: they agree with NSString's view of the same text.
            let ns = paragraph.text as NSString
            for w in paragraph.words {
                #expect(ns.substring(with: NSRange(location: w.offset, length: w.length)) == paragraph.text(of: w))
            }
        }
        let first = paragraphs[0].words.map { paragraphs[0].text(of: $0) }
        #expect(first.contains("café’s") && first.contains("brûlée") && first.contains("Zoë"))
        #expect(paragraphs[1].words.map { paragraphs[1].text(of: $0) }.contains("nai\u{0308}ve"))
        // The offset of the word after an emoji counts the emoji as two code units.
        let cafe = paragraphs[0]
        let costs = try #require(cafe.words.first { cafe.text(of: $0) == "costs" })
        #expect(costs.offset == (cafe.text as NSString).range(of: "costs").location)
        #expect(costs.offset == cafe.text.utf16.distance(from: cafe.text.startIndex, to: cafe.text.range(of: "costs")!.lowerBound))
        #expect(costs.offset > cafe.text.distance(from: cafe.text.startIndex, to: cafe.text.range(of: "costs")!.lowerBound),
                "the emoji before it takes more code units than characters")
        // Word times never go backwards.
        let starts = paragraphs.flatMap(\.words).map(\.start)
        #expect(starts == starts.sorted())
    }
}
