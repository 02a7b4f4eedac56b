import Foundation

/// A cover picture known by its bytes, not by its name: a JPEG (its SOF segment read for the
/// dimensions) or a PNG (its IHDR chunk read, CRC checked), at most ``maxBytes`` long,
/// ``maxSide`` pixels a side and ``maxPixels`` in all, and decoded completely (every row, by
/// libjpeg-turbo or libpng) before it is accepted. The MIME type embedded in the MP3 is the bytes' type, whatever the
/// file's extension or the EPUB's manifest says; anything else is refused with the reason, so
/// that no MP3 carries a picture a player or ffmpeg cannot decode.
public struct CoverImage: Sendable, Equatable {
    public enum Format: String, Sendable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }

    public var format: Format
    public var width: Int
    public var height: Int

    /// The MIME type of the bytes.
    public var mimeType: String { format.rawValue }

    /// The largest cover Lectern embeds, 16 MB: the ID3 tag holding it must stay under 256 MB, and
    /// players load the whole picture into memory (a typical cover is well under 1 MB).
    public static let maxBytes = 16 << 20
    /// The largest width or height, in pixels.
    public static let maxSide = 16_384

    /// Why bytes cannot be a cover.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Reads the header of `data`, then decodes the whole picture.
    /// - throws: ``Rejection`` naming what is wrong: too large, not a JPEG or PNG (and what it
    ///   looks like instead), a truncated or damaged header, impossible dimensions, data that
    ///   does not decode.
    public init(data: Data) throws(Rejection) {
        guard data.count <= Self.maxBytes else { throw Self.tooLarge(data.count) }
        let bytes = [UInt8](data.prefix(1 << 20))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            (width, height) = try Self.jpegSize(bytes)
            format = .jpeg
        } else if bytes.starts(with: Self.pngSignature) {
            (width, height) = try Self.pngSize(bytes)
            format = .png
        } else {
            throw Rejection(reason: "it is not a JPEG or PNG image (\(Self.kind(of: bytes)))")
        }
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw Rejection(reason: "its \(format == .png ? "PNG" : "JPEG") header gives \(width)×\(height) pixels "
                            + "(each side must be 1 to \(Self.maxSide))")
        }
        try requireDecodable(data)
    }

    /// The rejection for a file of `bytes` bytes, for callers that check the size before reading.
    public static func tooLarge(_ bytes: Int) -> Rejection {
        Rejection(reason: "it is \(bytes) bytes; a cover may be at most \(maxBytes) bytes (16 MB): scale it down")
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from the first SOF segment, walking the segments before it.
    private static func jpegSize(_ b: [UInt8]) throws(Rejection) -> (Int, Int) {
        var i = 2
        while i + 1 < b.count {
            guard b[i] == 0xFF else { throw Rejection(reason: "its JPEG header is damaged (no segment marker at byte \(i))") }
            var marker = b[i + 1]
            i += 2
            while marker == 0xFF, i < b.count { marker = b[i]; i += 1 }  // fill bytes
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            guard marker != 0xD9, marker != 0xDA else { break }  // EOI or scan data before any frame header
            guard i + 1 < b.count else { break }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2 else { throw Rejection(reason: "its JPEG header is damaged (a segment of length \(length))") }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8, i + 6 < b.count else { break }
                return (Int(b[i + 5]) << 8 | Int(b[i + 6]), Int(b[i + 3]) << 8 | Int(b[i + 4]))
            }
            i += length
        }
        throw Rejection(reason: "its JPEG header is truncated or damaged (no frame header giving the picture's size)")
    }

    /// Width and height from the IHDR chunk, which must come first and pass its CRC.
    private static func pngSize(_ b: [UInt8]) throws(Rejection) -> (Int, Int) {
        guard b.count >= 33, b[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else {
            throw Rejection(reason: "its PNG header is truncated or damaged (no IHDR chunk)")
        }
        let be32 = { (k: Int) in Int(b[k]) << 24 | Int(b[k + 1]) << 16 | Int(b[k + 2]) << 8 | Int(b[k + 3]) }
        guard UInt32(be32(29)) == crc32(b[12..<29]) else { throw Rejection(reason: "its PNG header is damaged (the IHDR CRC does not match)") }
        let depth = b[24], color = b[25]
        let allowed: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard allowed[color]?.contains(depth) == true else {
            throw Rejection(reason: "its PNG header is damaged (colour type \(color) with bit depth \(depth))")
        }
        return (be32(16), be32(20))
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// What bytes that are not a JPEG or PNG look like, for the error.
    private static func kind(of b: [UInt8]) -> String {
        if b.isEmpty { return "the file is empty" }
        if b.starts(with: Array("GIF8".utf8)) { return "it is a GIF" }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) { return "it is a WebP" }
        if b.starts(with: Array("<svg".utf8)) || b.starts(with: Array("<?xml".utf8)) { return "it is SVG or XML text" }
        if b.starts(with: Array("BM".utf8)) { return "it may be a BMP" }
        if b.prefix(512).allSatisfy({ $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 0x20 && $0 != 0x7F) }) { return "it holds text" }
        return "its first bytes are " + b.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
