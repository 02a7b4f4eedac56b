import Foundation
import LecternCore

/// Reads MPEG audio frame headers: enough to count a stream's frames and find its LAME tag.
public enum MP3Frames {
    /// A parsed frame header.
    public struct Header: Equatable, Sendable {
        public var length: Int
        public var samples: Int
        public var sampleRate: Int
        /// Bytes of side information after the 4-byte header (where a Xing/Info tag begins).
        public var sideInfoLength: Int
        /// The frame's bit rate in kbit/s.
        public var kilobitsPerSecond: Int = 0
        /// 1 for a mono frame, 2 for stereo, joint stereo or dual channel.
        public var channels: Int = 1
    }

    static let bitrates: [[Int]] = [  // Layer III, kbit/s, by [MPEG-1 ? 0 : 1][index]
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0],
    ]
    static let rates: [[Int]] = [[44100, 48000, 32000], [22050, 24000, 16000], [11025, 12000, 8000]]

    /// The Layer III frame header at `offset`, or nil if there is none.
    public static func header(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Header? {
        guard offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = (bytes[offset + 1] >> 3) & 3  // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
        let layerBits = (bytes[offset + 1] >> 1) & 3    // 1 = Layer III
        guard versionBits != 1, layerBits == 1 else { return nil }
        let bitrateIndex = Int(bytes[offset + 2] >> 4), rateIndex = Int((bytes[offset + 2] >> 2) & 3)
        let padding = Int((bytes[offset + 2] >> 1) & 1)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = versionBits == 3
        let rate = rates[versionBits == 3 ? 0 : versionBits == 2 ? 1 : 2][rateIndex]
        let bitrate = bitrates[mpeg1 ? 0 : 1][bitrateIndex] * 1000
        let mono = (bytes[offset + 3] >> 6) == 3
        let length = (mpeg1 ? 144 : 72) * bitrate / rate + padding
        let side = mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        return Header(length: length, samples: mpeg1 ? 1152 : 576, sampleRate: rate, sideInfoLength: side,
                      kilobitsPerSecond: bitrate / 1000, channels: mono ? 1 : 2)
    }

    /// Counts the frames of a file that holds only MPEG audio frames.
    ///
    /// - throws: ``AudioError`` if something other than a frame is found.
    /// The frames of a stream file, its size, and the size of its first frame.
    public static func count(in url: URL) throws -> (frames: Int, bytes: Int, firstFrameBytes: Int) {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw AudioError(FileError(cannot: "read", url.path, error).message)
        }
        return try data.withUnsafeBytes { bytes in
            var offset = 0, frames = 0, first = 0
            while offset < bytes.count {
                guard let h = header(in: bytes, at: offset) else {
                    throw AudioError("\(url.path) has no MPEG frame at byte \(offset)")
                }
                if frames == 0 { first = h.length }
                offset += h.length
                frames += 1
            }
            return (frames, bytes.count, first)
        }
    }
}
