import Foundation
import LecternCore
import Testing
@testable import LecternAudio

@Suite struct LAMETagTests {
    /// Encodes `count` samples of a tone with LAME and returns the file's bytes.
    func encode(_ count: Int, writesTag: Bool = true) throws -> [UInt8] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tag-\(UUID().uuidString).mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(), writesTag: writesTag)
        try writer.write((0..<count).map { Int16(8000 * sin(Double($0) * 0.05)) })
        try writer.finish()
        return [UInt8](try Data(contentsOf: url))
    }

    func frameLength(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { MP3Frames.header(in: $0, at: 0)!.length }
    }

    @Test func readsWhatLAMEWroteAndAgreesWithItsCRCs() throws {
        let bytes = try encode(30_000)
        let length = frameLength(bytes)
        let tag = try LAMETag(frame: Array(bytes[0..<length]))
        #expect(tag.encoderDelay == 576)
        // LAME's own arithmetic: frames × 576 = delay + samples + padding.
        let frames = try countFrames(bytes) - 1
        #expect(frames * 576 == tag.encoderDelay + 30_000 + tag.padding)
        #expect(tag.byteCount == bytes.count)
        #expect(tag.musicCRC == CRC16.checksum(bytes[length...]))
        // Re-extending by nothing recomputes the same tag CRC LAME wrote.
        var copy = tag
        copy.extend(frames: 0, bytes: 0, padding: tag.padding, musicCRC: tag.musicCRC)
        #expect(copy.frame == tag.frame)
    }

    @Test func untaggedStreamsStartWithAnAudioFrame() throws {
        let bytes = try encode(10_000, writesTag: false)
        #expect(throws: AudioError.self) { try LAMETag(frame: Array(bytes[0..<frameLength(bytes)])) }
        #expect(try countFrames(bytes) * 576 > 10_000)
    }

    @Test func crc16MatchesTheStandardCheckValue() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0xBB3D)  // CRC-16/ARC check value
    }

    func countFrames(_ bytes: [UInt8]) throws -> Int {
        try bytes.withUnsafeBytes { raw in
            var offset = 0, frames = 0
            while offset < raw.count {
                let h = try #require(MP3Frames.header(in: raw, at: offset))
                offset += h.length
                frames += 1
            }
            return frames
        }
    }
}
