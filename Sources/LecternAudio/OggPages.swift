import Foundation

/// Packs the packets of one logical Ogg stream into pages (RFC 3533): each page's header with
/// its granule position, serial and sequence numbers and CRC, its lacing values, a packet longer
/// than a page's 255 segments carried on to the next page. The caller decides where pages end
/// (``flush(endOfStream:)``); a page that fills its 255 segments ends by itself.
struct OggPages {
    let serialNumber: UInt32
    /// Pages made so far: the next page's sequence number.
    private(set) var sequence: UInt32 = 0
    private var lacing: [UInt8] = []
    private var body: [UInt8] = []
    /// The granule position of the last packet that ends on the page being filled (-1: none does).
    private var granule: Int64 = -1
    /// Whether the page being filled begins with the rest of a packet from the page before.
    private var continues = false

    init(serialNumber: UInt32) { self.serialNumber = serialNumber }

    /// Whether the page being filled holds anything.
    var isEmpty: Bool { lacing.isEmpty }

    /// Adds a packet ending at `granule`; returns the bytes of the pages it filled (none, usually).
    mutating func append(_ packet: UnsafeRawBufferPointer, granule: Int64) -> [UInt8] {
        var pages: [UInt8] = []
        var offset = 0
        while true {
            if lacing.count == 255 {
                pages += page(endOfStream: false)
                continues = true
            }
            let n = min(255, packet.count - offset)
            lacing.append(UInt8(n))
            body += packet[offset..<(offset + n)]
            offset += n
            if n < 255 { break }  // a lacing value under 255 ends the packet (a multiple of 255 ends with a 0)
        }
        self.granule = granule
        return pages
    }

    /// Ends the page being filled; returns its bytes (none when it is empty and not the last).
    mutating func flush(endOfStream: Bool = false) -> [UInt8] {
        guard !lacing.isEmpty || endOfStream else { return [] }
        return page(endOfStream: endOfStream)
    }

    private mutating func page(endOfStream: Bool) -> [UInt8] {
        var bytes: [UInt8] = Array("OggS".utf8) + [0]
        bytes.append((continues ? 0x01 : 0) | (sequence == 0 ? 0x02 : 0) | (endOfStream ? 0x04 : 0))
        withUnsafeBytes(of: granule.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: serialNumber.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: sequence.littleEndian) { bytes += $0 }
        bytes += [0, 0, 0, 0]  // the CRC, computed over the page with these four bytes zero
        bytes.append(UInt8(lacing.count))
        bytes += lacing
        bytes += body
        let crc = Self.crc(bytes)
        for i in 0..<4 { bytes[22 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i)) }
        sequence += 1
        lacing.removeAll(keepingCapacity: true)
        body.removeAll(keepingCapacity: true)
        granule = -1
        continues = false
        return bytes
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting from 0, not inverted.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ crcTable[Int((crc >> 24) ^ UInt32(byte))] }
        return crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { (index: UInt32) -> UInt32 in
        var r = index << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }
}
