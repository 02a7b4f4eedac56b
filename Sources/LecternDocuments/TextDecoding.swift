import Foundation

/// Turns a document's bytes into text: strict UTF-8 (an error names the first bad byte's
/// offset in the file), a UTF-8 byte-order mark dropped, CRLF and lone CR turned into LF.
enum TextDecoding {
    static func decode(_ data: Data, document: String) throws -> String {
        var bytes = [UInt8](data)
        let bomLength = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        bytes.removeFirst(bomLength)
        if let offset = firstInvalidUTF8(bytes) {
            throw DocumentError(document: document, message: String(
                format: "invalid UTF-8 at byte offset %d (byte 0x%02X); convert the file to UTF-8", offset + bomLength, bytes[offset]))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let continuation: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF  // allowed range of the first continuation byte
            switch c {
            case 0xC2...0xDF: continuation = 1
            case 0xE0: continuation = 2; lo = 0xA0          // no overlong forms
            case 0xE1...0xEC, 0xEE...0xEF: continuation = 2
            case 0xED: continuation = 2; hi = 0x9F          // no surrogates
            case 0xF0: continuation = 3; lo = 0x90
            case 0xF1...0xF3: continuation = 3
            case 0xF4: continuation = 3; hi = 0x8F          // nothing above U+10FFFF
            default: return i
            }
            guard i + continuation < b.count else { return i }
            guard (lo...hi).contains(b[i + 1]) else { return i }
            for k in stride(from: 2, through: continuation, by: 1) where !(0x80...0xBF).contains(b[i + k]) {
                return i
            }
            i += continuation + 1
        }
        return nil
    }
}
