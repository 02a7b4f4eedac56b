import Foundation
import LecternCore

/// Turns a document's bytes into text, in the source's `encoding:`, and CRLF and lone CR into LF.
///
/// `auto` (the default) reads UTF-8 when the bytes are valid UTF-8 (a byte-order mark is
/// dropped), else UTF-16 when they start with its byte-order mark, else Windows-1252 — and says
/// so in a warning naming how many bytes were not UTF-8 and where the first ones are. A file that
/// is UTF-8 but for a few stray bytes keeps its UTF-8 text; only the stray bytes are read as
/// Windows-1252. A named encoding is converted by the system's converter (glibc's iconv); bytes
/// it cannot convert are an error naming their offset.
enum TextDecoding {
    /// The decoded text and what the user should know about how it was read.
    struct Decoded {
        var text: String
        /// The encoding the text was read in, as iconv names it (`UTF-8`, `WINDOWS-1252`, …).
        var encoding: String
        var warning: String?
    }

    static func decode(_ data: Data, encoding: String = "auto", document: String) throws -> Decoded {
        let bytes = [UInt8](data)
        var decoded: Decoded
        switch encoding.lowercased() {
        case "auto":
            decoded = try automatic(bytes, document: document)
        case "utf-8", "utf8":
            decoded = Decoded(text: try strictUTF8(bytes, document: document), encoding: "UTF-8")
        default:
            decoded = Decoded(text: try IconvConverter(from: encoding, document: document).convert(bytes, document: document),
                              encoding: encoding.uppercased())
        }
        decoded.text = decoded.text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if decoded.text.hasPrefix("\u{FEFF}") { decoded.text.removeFirst() }
        return decoded
    }

    /// Strict UTF-8 (a byte-order mark dropped); an error names the first bad byte's offset.
    static func strictUTF8(_ bytes: [UInt8], document: String) throws -> String {
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let body = Array(bytes[bom...])
        if let offset = firstInvalidUTF8(body) {
            throw DocumentError(document: document, message: String(
                format: "invalid UTF-8 at byte offset %d (byte 0x%02X); give the source's `encoding:` (e.g. windows-1252, iso-8859-1) or `encoding: auto`",
                offset + bom, body[offset]))
        }
        return String(decoding: body, as: UTF8.self)
    }

    private static func automatic(_ bytes: [UInt8], document: String) throws -> Decoded {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Decoded(text: try IconvConverter(from: "UTF-16", document: document).convert(bytes, document: document), encoding: "UTF-16")
        }
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let invalid = invalidUTF8Offsets(bytes, from: bom)
        if invalid.isEmpty { return Decoded(text: String(decoding: bytes[bom...], as: UTF8.self), encoding: "UTF-8") }
        let windows1252 = try IconvConverter.windows1252Table()
        let shown = invalid.prefix(5).map(String.init).joined(separator: ", ") + (invalid.count > 5 ? ", …" : "")
        let plural = invalid.count == 1 ? "byte is" : "bytes are"
        if hasMultibyteUTF8(bytes, from: bom) {
            // UTF-8 with stray bytes: the UTF-8 stays UTF-8, each stray byte is read as Windows-1252.
            var text = ""
            text.reserveCapacity(bytes.count)
            var start = bom
            for offset in invalid {
                text += String(decoding: bytes[start..<offset], as: UTF8.self)
                text.unicodeScalars.append(windows1252[Int(bytes[offset])])
                start = offset + 1
            }
            text += String(decoding: bytes[start...], as: UTF8.self)
            return Decoded(text: text, encoding: "UTF-8", warning: "\(document): \(invalid.count) \(plural) not UTF-8 (at byte offset \(shown)); "
                           + "read as Windows-1252 characters, the rest as UTF-8")
        }
        let text = String(String.UnicodeScalarView(bytes.map { windows1252[Int($0)] }))
        return Decoded(text: text, encoding: "WINDOWS-1252", warning: "\(document): not UTF-8 (\(invalid.count) \(plural) not UTF-8, the first at byte offset \(shown)); "
                       + "read as Windows-1252 — give the source's `encoding:` (e.g. iso-8859-1) to read it otherwise and silence this warning")
    }

    /// The offsets of the bytes that do not belong to a well-formed UTF-8 sequence.
    static func invalidUTF8Offsets(_ b: [UInt8], from start: Int = 0) -> [Int] {
        var offsets: [Int] = []
        var i = start
        while i < b.count {
            if let length = sequenceLength(b, at: i) { i += length } else { offsets.append(i); i += 1 }
        }
        return offsets
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            guard let length = sequenceLength(b, at: i) else { return i }
            i += length
        }
        return nil
    }

    private static func hasMultibyteUTF8(_ b: [UInt8], from start: Int) -> Bool {
        var i = start
        while i < b.count {
            if b[i] >= 0x80, let length = sequenceLength(b, at: i), length > 1 { return true }
            i += 1
        }
        return false
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or nil.
    private static func sequenceLength(_ b: [UInt8], at i: Int) -> Int? {
        let c = b[i]
        if c < 0x80 { return 1 }
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
        default: return nil
        }
        guard i + continuation < b.count, (lo...hi).contains(b[i + 1]) else { return nil }
        for k in stride(from: 2, through: continuation, by: 1) where !(0x80...0xBF).contains(b[i + k]) { return nil }
        return continuation + 1
    }
}
