import Foundation
import LecternCore
#if canImport(Glibc)
import Glibc
#endif

/// The system's character-set converter (glibc's iconv), from a named encoding to UTF-8.
struct IconvConverter {
    let encoding: String

    /// - throws: ``DocumentError`` when the system does not know the encoding.
    init(from encoding: String, document: String) throws {
        self.encoding = encoding
        let probe = iconv_open("UTF-8", encoding)
        guard probe != iconv_t(bitPattern: -1) else {
            throw DocumentError(document: document, message: "unknown encoding \"\(UserText.excerpt(encoding))\" (`iconv -l` lists the names this system knows, e.g. utf-8, utf-16, windows-1252, iso-8859-1, iso-8859-15, mac-roman)")
        }
        iconv_close(probe)
    }

    /// The bytes as text; bytes that are not valid in the encoding are an error naming their offset.
    func convert(_ bytes: [UInt8], document: String) throws -> String {
        let cd = iconv_open("UTF-8", encoding)
        defer { iconv_close(cd) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        let count = input.count
        var produced = 0
        var failure: Int?
        input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer = inBuffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
                var inLeft = count
                var outPointer = outBuffer.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
                var outLeft = outBuffer.count
                if iconv(cd, &inPointer, &inLeft, &outPointer, &outLeft) == -1 || inLeft > 0 {
                    failure = count - inLeft
                }
                produced = outBuffer.count - outLeft
            }
        }
        if let offset = failure {
            throw DocumentError(document: document, message: "not valid \(encoding) at byte offset \(offset); check the source's `encoding:`")
        }
        return String(decoding: output[..<produced], as: UTF8.self)
    }

    /// What each byte means in Windows-1252, as the system's converter says; the five bytes that
    /// encoding leaves undefined keep their ISO-8859-1 meaning (C1 controls).
    static func windows1252Table() throws -> [Unicode.Scalar] {
        let converter = try IconvConverter(from: "WINDOWS-1252", document: "WINDOWS-1252")
        return (0...255).map { byte in
            let text = byte < 0x80 ? "" : (try? converter.convert([UInt8(byte)], document: "WINDOWS-1252")) ?? ""
            guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first else { return Unicode.Scalar(UInt8(byte)) }
            return scalar
        }
    }
}
