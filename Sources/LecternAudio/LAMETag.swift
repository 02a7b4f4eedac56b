import Foundation

/// The LAME tag frame (a Xing "Info" frame with LAME's extension) that starts a book's MP3,
/// rewritten to describe a stream assembled from independently encoded chunks.
///
/// Decoders read from it the frame count, the encoder delay and the end padding, and use them to
/// play exactly the encoded samples. When chunks are concatenated, the tag keeps the first
/// chunk's delay and takes the last chunk's padding, frame and byte counts grow by the later
/// chunks', and both CRCs are recomputed.
public struct LAMETag: Sendable {
    public private(set) var frame: [UInt8]
    /// Offset of "Info"/"Xing" in the frame.
    let xing: Int

    /// Parses a tag frame as written by `lame_get_lametag_frame`.
    public init(frame: [UInt8]) throws {
        let header = frame.withUnsafeBytes { MP3Frames.header(in: $0, at: 0) }
        guard let header else { throw AudioError("the LAME tag frame has no MPEG header") }
        let x = 4 + header.sideInfoLength
        guard frame.count >= x + 156, ["Info", "Xing"].contains(String(decoding: frame[x..<x + 4], as: UTF8.self)),
              String(decoding: frame[(x + 120)..<(x + 124)], as: UTF8.self) == "LAME" else {
            throw AudioError("the first frame is not a LAME tag frame")
        }
        self.frame = frame
        self.xing = x
    }

    public var frameCount: Int { readUInt32(xing + 8) }
    public var byteCount: Int { readUInt32(xing + 12) }
    public var encoderDelay: Int { Int(frame[xing + 141]) << 4 | Int(frame[xing + 142]) >> 4 }
    public var padding: Int { Int(frame[xing + 142] & 0x0F) << 8 | Int(frame[xing + 143]) }
    public var musicLength: Int { readUInt32(xing + 148) }
    public var musicCRC: UInt16 { UInt16(frame[xing + 152]) << 8 | UInt16(frame[xing + 153]) }
    public var tagCRC: UInt16 { UInt16(frame[xing + 154]) << 8 | UInt16(frame[xing + 155]) }

    /// Grows the counts by what later chunks add and sets the end padding and music CRC.
    public mutating func extend(frames: Int, bytes: Int, padding: Int, musicCRC: UInt16) {
        writeUInt32(xing + 8, frameCount + frames)
        writeUInt32(xing + 12, byteCount + bytes)
        writeUInt32(xing + 148, musicLength + bytes)
        let delay = encoderDelay, pad = min(max(padding, 0), 0xFFF)
        frame[xing + 141] = UInt8(delay >> 4)
        frame[xing + 142] = UInt8((delay & 0x0F) << 4 | pad >> 8)
        frame[xing + 143] = UInt8(pad & 0xFF)
        frame[xing + 152] = UInt8(musicCRC >> 8)
        frame[xing + 153] = UInt8(musicCRC & 0xFF)
        let crc = CRC16.checksum(frame[0..<(xing + 154)])
        frame[xing + 154] = UInt8(crc >> 8)
        frame[xing + 155] = UInt8(crc & 0xFF)
    }

    private func readUInt32(_ o: Int) -> Int {
        Int(frame[o]) << 24 | Int(frame[o + 1]) << 16 | Int(frame[o + 2]) << 8 | Int(frame[o + 3])
    }

    private mutating func writeUInt32(_ o: Int, _ v: Int) {
        frame[o] = UInt8(v >> 24 & 0xFF); frame[o + 1] = UInt8(v >> 16 & 0xFF)
        frame[o + 2] = UInt8(v >> 8 & 0xFF); frame[o + 3] = UInt8(v & 0xFF)
    }
}

/// CRC-16 as LAME computes it for its tag (polynomial 0x8005, reflected, initial value 0).
public struct CRC16: Sendable {
    public private(set) var value: UInt16 = 0
    static let table: [UInt16] = (0..<256).map { i -> UInt16 in
        var c = UInt16(i)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
        return c
    }

    public init() {}

    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var v = value
        for b in bytes { v = (v >> 8) ^ Self.table[Int((v ^ UInt16(b)) & 0xFF)] }
        value = v
    }

    /// The same over a `Data`, without per-byte collection overhead (a book's assembly runs
    /// this over every byte of audio).
    public mutating func update(_ data: Data) {
        var v = value
        Self.table.withUnsafeBufferPointer { table in
            data.withUnsafeBytes { raw in
                for b in raw.bindMemory(to: UInt8.self) { v = (v >> 8) ^ table[Int((v ^ UInt16(b)) & 0xFF)] }
            }
        }
        value = v
    }

    public static func checksum<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc = CRC16()
        crc.update(bytes)
        return crc.value
    }
}
