import Foundation
import Testing
import LecternCore

/// ``CoverImage`` knows a picture by its bytes: JPEG and PNG headers parsed for their size, the
/// rest refused with what they are, and the whole picture decoded (libpng, libjpeg-turbo) before
/// it is accepted.
@Suite struct CoverImageTests {
    /// A real 24×16 baseline JPEG (ffmpeg's testsrc).
    static let realJPEG = Data(base64Encoded: "/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgUFBcUFxsbGxsbGyAeICEhISAgICAhISEkJCQqKiokJCQhISQkKCgqKi4vLisrKisvLzIyMjw8OTlGRkhWVmf/xAB+AAEBAQEAAAAAAAAAAAAAAAAGAwUEAQEBAQEBAAAAAAAAAAAAAAAGAwEEBRAAAQIEBQQDAQAAAAAAAAAAAQIDMRIRBDJhACEFoYEUIlHDRUERAAEDAwIDBgcBAQAAAAAAAAERAgMEEiEAMXEiBTJBExSDUWGRI8MGwkJFRP/AABEIABAAGAMBEgACEgADEgD/2gAMAwEAAhEDEQA/ACHFtDxXXf6FyjLBU9aaScay0mycQH0Elcxw7YdqTZddexSQtdKHuAKYAIBQjK8fb20Zi6hNFJY2kkk3OC7hsIzq9PVu85S0dosL3zOKnmIjda1Nka5t2V5g0hE1klKaWsiq43eYsujaxje24sfgOBdkAkohwNdfDfodvs1WzAtUXamz5BXSZKIoxxpN85Q13flH+f6n2tX6g0dSFL5hwoLLrfF/tbFS/wAPZB776jVf9vq/tozJVzSunDqaSMSX3E3fTVd1YNl7021q2F0pvkA1iS7VI3PpRsrqBnLQjaNdGLRbpuk3CWHFKbJJaAUT7NqRuZaiNYaNUb3WWLjfhk7fPOkgooadhMdTHOmOW3vPwe7SempYh02lqA0NkWVjiABeHSO7RRSW2ANzgLpHRsid0+CB0zGAF7mvJHPzOuQXDslyFCc6/9k=")!

    /// The real JPEG with eight stuffed 0xFF bytes (all ones: no Huffman code) in the middle of its scan.
    static var jpegWithBadHuffmanData: Data {
        let bytes = [UInt8](realJPEG)
        let middle = (268 + bytes.count) / 2  // the scan data starts at byte 268
        return Data(bytes[..<middle] + Array(repeating: [0xFF, 0x00], count: 8).flatMap { $0 } + bytes[(middle + 16)...])
    }

    /// A PNG with an IDAT chunk whose CRC no longer matches.
    static var pngWithBadIDATCRC: Data {
        var bytes = [UInt8](png)
        let idat = bytes.firstRange(of: Array("IDAT".utf8))!.lowerBound
        let length = Int(bytes[idat - 4]) << 24 | Int(bytes[idat - 3]) << 16 | Int(bytes[idat - 2]) << 8 | Int(bytes[idat - 1])
        bytes[idat + 4 + length] ^= 0xFF
        return Data(bytes)
    }

    /// A 1×1 PNG (IHDR CRC included).
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    /// SOI, an APP0 segment, then a baseline SOF0 of `width`×`height`.
    static func jpeg(width: Int, height: Int) -> Data {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        b += [0xFF, 0xC0, 0, 11, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
        return Data(b + [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0])
    }

    @Test func pngAndJPEGAreKnownWithTheirSize() throws {
        let png = try CoverImage(data: Self.png)
        #expect(png.format == .png && png.mimeType == "image/png" && png.width == 1 && png.height == 1)
        let jpeg = try CoverImage(data: Self.realJPEG)
        #expect(jpeg.mimeType == "image/jpeg" && jpeg.width == 24 && jpeg.height == 16)
    }

    @Test(arguments: [
        (Data("Just some words.\n".utf8), "not a JPEG or PNG image (it holds text)"),
        (Data("GIF89a".utf8) + Data(count: 20), "(it is a GIF)"),
        (Data(), "(the file is empty)"),
        (png.prefix(20), "its PNG header is truncated or damaged"),
        (Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]), "no frame header"),
        (jpeg(width: 0, height: 10), "0×10 pixels"),
    ])
    func unusableBytesAreRefusedWithTheReason(data: Data, expected: String) {
        #expect(throws: CoverImage.Rejection.self) { try CoverImage(data: data) }
        do { _ = try CoverImage(data: data) } catch { #expect(error.reason.contains(expected), "\(error.reason)") }
    }

    @Test func damagedPNGHeaderFailsItsCRC() {
        var bytes = [UInt8](Self.png)
        bytes[19] = 2  // width 1 → 0x02000001 without fixing the CRC
        do { _ = try CoverImage(data: Data(bytes)); Issue.record("accepted") } catch { #expect(error.reason.contains("CRC")) }
    }

    @Test func overTheSizeLimitIsRefusedUnparsed() {
        do { _ = try CoverImage(data: Self.jpeg(width: 10, height: 10) + Data(count: CoverImage.maxBytes)); Issue.record("accepted") } catch {
            #expect(error.reason.contains("at most \(CoverImage.maxBytes) bytes"))
        }
    }

    @Test(arguments: [
        (realJPEG.prefix(300), "its JPEG data does not decode (libjpeg: Premature end of JPEG file)"),
        (realJPEG.prefix(realJPEG.count / 2), "Premature end of JPEG file"),
        (jpegWithBadHuffmanData, "its JPEG data does not decode (libjpeg: Corrupt JPEG data: bad Huffman code)"),
        (pngWithBadIDATCRC, "its PNG data does not decode (libpng: IDAT: CRC error)"),
        (png.prefix(png.count - 20), "its PNG data does not decode"),
    ])
    func aSoundHeaderOverTruncatedOrCorruptDataIsRefused(data: Data, expected: String) {
        do { _ = try CoverImage(data: data); Issue.record("accepted: \(expected)") } catch {
            #expect(error.reason.contains(expected) && error.reason.contains("truncated or damaged"), "\(error.reason)")
        }
    }

    @Test func absurdDimensionsAreRefusedBeforeDecoding() {
        do { _ = try CoverImage(data: Self.jpeg(width: 12_000, height: 9_000)); Issue.record("accepted") } catch {
            #expect(error.reason == "it is 12000×9000 pixels; a cover may have at most 100000000 pixels (10,000 × 10,000): scale it down",
                    "\(error.reason)")
        }
    }
}
