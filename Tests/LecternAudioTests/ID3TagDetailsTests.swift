import Foundation
import LecternCore
import Testing
import LecternAudio

/// The book's details as ID3v2.3 frames: which frames, in which order, with which bytes, and the
/// padding after them.
@Suite struct ID3TagDetailsTests {
    static let details = BookDetails(narrator: "Nils Näher", description: "Two chapters.", genre: "Fiction", date: "1865-11-26",
                                     series: "The Tales", seriesIndex: "2", publisher: "Public Press", copyright: "Public domain",
                                     isbn: "9780141439518")

    /// A TXXX or COMM body split at its terminators (Latin-1 only).
    func fields(_ body: [UInt8]) -> [String] {
        body.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func detailsAreWrittenAsTheFramesAudiobookSoftwareReads() throws {
        let tag = ID3Tag(title: "B", artist: "A", album: "B", chapters: [.init(title: "c", startMs: 0, endMs: 1)],
                         details: Self.details, language: "en-GB")
        let frames = tagFrames(tag)
        #expect(frames.map(\.id) == ["TIT2", "TPE1", "TALB", "TCOM", "TCON", "TYER", "TDAT", "TPUB", "TLAN", "TCOP", "COMM",
                                     "TXXX", "TXXX", "TXXX", "CHAP", "CTOC"])
        let text = { (id: String) in frames.first { $0.id == id }.map { String(decoding: $0.body.dropFirst(), as: UTF8.self) } }
        #expect(frames.first { $0.id == "TCOM" }?.body == [0] + Array("Nils N".utf8) + [0xE4] + Array("her".utf8))  // Latin-1
        #expect(text("TCON") == "Fiction")
        #expect(text("TYER") == "1865")
        #expect(text("TDAT") == "2611")  // DDMM
        #expect(text("TPUB") == "Public Press")
        #expect(text("TLAN") == "eng")
        #expect(text("TCOP") == "Public domain")
        let comm = try #require(frames.first { $0.id == "COMM" })
        #expect(comm.body == [0] + Array("eng".utf8) + [0] + Array("Two chapters.".utf8))
        #expect(frames.filter { $0.id == "TXXX" }.map { fields($0.body) }
                == [["SERIES", "The Tales"], ["SERIES-PART", "2"], ["ISBN", "9780141439518"]])
    }

    @Test func aYearAloneHasNoDayFrameAndAnUnknownLanguageNoLanguageFrame() {
        var details = BookDetails(date: "1865")
        details.seriesIndex = "3"  // without a series: not written
        let ids = tagFrames(ID3Tag(title: "B", details: details, language: "und")).map(\.id)
        #expect(ids == ["TIT2", "TYER"])
        let french = tagFrames(ID3Tag(title: "B", details: BookDetails(description: "x"), language: "fr-CA"))
        #expect(french.first { $0.id == "TLAN" }?.body == [0] + Array("fra".utf8))
        #expect(french.first { $0.id == "COMM" }?.body.dropFirst().prefix(3).elementsEqual("fra".utf8) == true)
    }

    @Test func textOutsideLatin1IsUTF16WithAByteOrderMarkOnEachString() throws {
        let tag = ID3Tag(title: "B", details: BookDetails(description: "Ω", series: "東"))
        let txxx = try #require(tagFrames(tag).first { $0.id == "TXXX" })
        // SERIES in UTF-16 (BOM, units, two-byte terminator), then 東 with its own BOM.
        let series: [UInt8] = [0xFF, 0xFE] + Array("SERIES".utf8).flatMap { [$0, 0] } + [0, 0]
        #expect(txxx.body == [1] + series + [0xFF, 0xFE, 0x71, 0x67])
        let comm = try #require(tagFrames(tag).first { $0.id == "COMM" })
        #expect(comm.body == [1] + Array("und".utf8) + [0xFF, 0xFE, 0, 0] + [0xFF, 0xFE, 0xA9, 0x03])
    }

    @Test func aGenreStartingWithAParenthesisIsEscaped() {
        let tcon = tagFrames(ID3Tag(title: "B", details: BookDetails(genre: "(Essays)"))).first { $0.id == "TCON" }
        #expect(tcon?.body == [0] + Array("((Essays)".utf8))
    }

    @Test func theTagEndsInFourKilobytesOfPaddingCountedInItsSize() throws {
        let bytes = [UInt8](try ID3Tag(title: "Book").encoded())
        #expect(bytes.count == 25 + ID3Tag.defaultPadding)
        #expect(ID3Tag.defaultPadding >= 4096)
        #expect(bytes[6..<10].reduce(0) { $0 << 7 | Int($1) } == bytes.count - 10)
        #expect(bytes[25...].allSatisfy { $0 == 0 })
    }
}
