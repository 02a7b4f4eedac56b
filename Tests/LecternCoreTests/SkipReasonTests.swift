import Foundation
import Testing
@testable import LecternCore

/// Each reason is spelled once, and a spelling read back (from a sidecar) is the same reason,
/// written out byte for byte as it was read.
struct SkipReasonTests {
    static let parameterised: [SkipReason] = [
        .startMarker(pattern: "START"), .endMarker(pattern: "^END$"),
        .beforeStartMarker(pattern: "^\\*\\*\\* START", key: nil), .beforeStartMarker(pattern: "CHAPTER I", key: "start_after"),
        .afterEndMarker(pattern: "END", key: nil), .afterEndMarker(pattern: "THE END", key: "end_at"),
        .skipPattern("^TODO"), .matter("copyright page", side: "front"), .matter("index", side: "back"),
        .malformedXHTML(path: "OEBPS/ch1.xhtml", error: "line 3: unexpected end"),
        .missingContentsTarget("ch2.xhtml#p4"), .nonlinearSpineItem(path: "OEBPS/cover.xhtml"),
        .unknownEntity("foo"), .chapterOverride(number: 3, title: "Notes (1902)"),
    ]

    @Test func everyReasonReadsBackFromItsSpelling() {
        #expect(Set(SkipReason.fixed.values).count == SkipReason.fixed.count, "two reasons share a spelling")
        for reason in Array(SkipReason.fixed.keys) + Self.parameterised {
            #expect(SkipReason(rawValue: reason.rawValue) == reason, "\(reason.rawValue)")
        }
    }

    @Test func keepsTheSpellingsItAlwaysHad() {
        #expect(SkipReason.codeBlock.rawValue == "code block")
        #expect(SkipReason.gutenbergLicence.rawValue == "Project Gutenberg licence")
        #expect(SkipReason.beforeStartMarker(pattern: "X", key: "start_at").rawValue == "before the start marker /X/ (start_at)")
        #expect(SkipReason.matter("title page", side: "front").rawValue == "title page (matter: front)")
        #expect(SkipReason.chapterOverride(number: 2, title: "Notes").rawValue == "chapter 2 (Notes) skipped by an override")
        #expect("\(SkipReason.footnote)" == "footnote (footnotes: skip)")
    }

    @Test func encodesAsItsSpellingAndReadsAnUnknownSpellingAsItWas() throws {
        let item = SkippedText(source: "a.txt", chapter: 1, reason: .tableHeader, text: "A B")
        let json = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(json.contains(#""reason":"table header (read with each row)""#))
        let old = #"{"source":"a.txt","chapter":1,"reason":"a reason from long ago","text":"x"}"#
        let read = try JSONDecoder().decode(SkippedText.self, from: Data(old.utf8))
        #expect(read.reason == .unrecognised("a reason from long ago"))
        #expect(String(decoding: try JSONEncoder().encode(read.reason), as: UTF8.self) == #""a reason from long ago""#)
    }
}
