import Foundation
import Testing
import LecternCore

/// ``CoverImage`` knows a picture by its bytes: JPEG and PNG headers parsed for their size, the
/// rest refused with what they are.
@Suite struct CoverImageTests {
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
        let jpeg = try CoverImage(data: Self.jpeg(width: 600, height: 900))
        #expect(jpeg.mimeType == "image/jpeg" && jpeg.width == 600 && jpeg.height == 900)
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
}
