import Foundation
import Testing
import LecternAudio

/// An ID3v2 tag's size is 28 bits (synchsafe): a tag that would not fit is an error, never a
/// header whose size wrapped (ffprobe read such a book as 33,560 s long with no chapters).
@Suite struct ID3TagLimitTests {
    @Test func coverPastTheTagLimitIsAnErrorNotAWrappedSize() throws {
        // Zero-filled by calloc: untouched, so the test costs no memory.
        let tag = ID3Tag(title: "Big", cover: .init(mimeType: "image/jpeg", data: Data(count: ID3Tag.maxFrameBytes + 1)))
        #expect(throws: AudioError.self) { try tag.encoded() }
        do { _ = try tag.encoded() } catch { #expect("\(error)".contains("over ID3v2's limit of 268435455"), "\(error)") }
    }

    @Test func largestSizeStillEncodesSyncsafe() throws {
        let bytes = [UInt8](try ID3Tag(title: "T", cover: .init(mimeType: "image/png", data: Data(repeating: 1, count: 200_000))).encoded())
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
        #expect(bytes[6..<10].allSatisfy { $0 < 0x80 } && size == bytes.count - 10)
    }
}
