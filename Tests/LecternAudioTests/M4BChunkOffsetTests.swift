import Foundation
import Testing
@testable import LecternAudio

/// Moving moov in front of the audio adds its size to every chunk offset: 32-bit (`stco`) and
/// 64-bit (`co64`), in every track; a 32-bit offset that would overflow keeps moov at the end.
@Suite struct M4BChunkOffsetTests {
    typealias M = MP4Metadata

    /// moov / trak / mdia / minf / stbl / `table` with `offsets`.
    func movie(_ table: String, _ offsets: [UInt64]) -> Data {
        let width = table == "stco" ? 4 : 8
        var body = Data(count: 4) + M.uint32(UInt32(offsets.count))
        for offset in offsets { body += width == 4 ? M.uint32(UInt32(offset)) : M.uint64(offset) }
        let stbl = M.box("stbl", M.box("stsd", Data(count: 8)) + M.box(table, body))
        return M.box("moov", M.box("mvhd", Data(count: 4)) + M.box("trak", M.box("mdia", M.box("minf", stbl))))
    }

    func fail(_ why: String) -> AudioError { AudioError(why) }

    @Test func everyOffsetGrowsByTheDistance() throws {
        let shifted = try #require(try M.shiftingChunkOffsets(movie("stco", [36, 5_000]), by: 1_000, fail: fail))
        #expect(shifted == movie("stco", [1_036, 6_000]))
        let wide = try #require(try M.shiftingChunkOffsets(movie("co64", [36, 1 << 33]), by: 1_000, fail: fail))
        #expect(wide == movie("co64", [1_036, (1 << 33) + 1_000]))
    }

    @Test func a32BitOffsetThatWouldOverflowKeepsMoovAtTheEnd() throws {
        #expect(try M.shiftingChunkOffsets(movie("stco", [36, UInt64(UInt32.max) - 10]), by: 1_000, fail: fail) == nil)
    }
}
