import Foundation
import LecternCore
import Testing
import LecternAudio

/// The Vorbis comments of a book, before any file: names, order, what is left out, chapter keys
/// and times.
@Suite struct VorbisCommentsTests {
    @Test func everyFieldHasItsOwnName() {
        let names = MetadataField.allCases.map(VorbisComments.name(for:))
        #expect(Set(names).count == MetadataField.allCases.count)
        #expect(names.allSatisfy { !$0.contains("=") && $0.unicodeScalars.allSatisfy { (0x20...0x7D).contains($0.value) } })
        #expect(VorbisComments.name(for: .narrator) == "COMPOSER")
        #expect(!names.contains(VorbisComments.trackTotal))
    }

    @Test func missingAndEmptyFieldsAreLeftOutAndASeriesPartNeedsItsSeries() {
        var details = BookDetails(genre: "", seriesIndex: "3")
        details.publisher = "P"
        let comments = VorbisComments(AudioMetadata(title: "T", details: details)).comments
        #expect(comments == [.init("TITLE", "T"), .init("PUBLISHER", "P")])
    }

    @Test func chaptersFollowTheFieldsNumberedFromOneInAtLeastThreeDigits() {
        let chapters = (0..<1001).map { ID3Tag.ChapterMark(title: "c\($0)", startMs: $0 * 1000, endMs: $0 * 1000 + 1000) }
        let comments = VorbisComments(AudioMetadata(title: "T", chapters: chapters, track: (1, 2))).comments
        #expect(comments.prefix(5) == [.init("TITLE", "T"), .init("TRACKNUMBER", "1"), .init("TRACKTOTAL", "2"),
                                       .init("CHAPTER001", "00:00:00.000"), .init("CHAPTER001NAME", "c0")])
        #expect(comments.suffix(2) == [.init("CHAPTER1001", "00:16:40.000"), .init("CHAPTER1001NAME", "c1000")])
        #expect(comments.contains(.init("CHAPTER999", "00:16:38.000")))
    }

    @Test func timesAreHoursMinutesSecondsAndMilliseconds() {
        let times = [(0, "00:00:00.000"), (1, "00:00:00.001"), (61_234, "00:01:01.234"), (3_600_000 + 59_999, "01:00:59.999"),
                     (100 * 3_600_000 + 5, "100:00:00.005")]
        for (ms, text) in times {
            let mark = ID3Tag.ChapterMark(title: "x", startMs: ms, endMs: ms + 1)
            #expect(VorbisComments(AudioMetadata(title: "T", chapters: [mark])).comments.last { $0.name == "CHAPTER001" }?.value == text)
        }
    }
}
