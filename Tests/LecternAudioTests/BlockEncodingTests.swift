import Foundation
import Testing
import LecternCore
import LecternAudio

/// A chunk's speech is handed to the encoder in blocks (so no copy of an item's whole audio is
/// made): LAME's stream is the same byte for byte however the samples are divided.
@Suite struct BlockEncodingTests {
    /// The stream file for `samples`, written `block` samples at a time.
    func stream(_ samples: [Int16], block: Int) throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("blocks-\(UUID().uuidString).mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(bitrate: 56, quality: 9), writesTag: true)
        try writer.writeSilence(1234)
        for start in stride(from: 0, to: samples.count, by: block) {
            try writer.write(Array(samples[start..<min(start + block, samples.count)]))
        }
        try writer.writeSilence(5678)
        try writer.finish()
        return try Data(contentsOf: url)
    }

    @Test func theStreamIsTheSameWhateverTheBlocks() throws {
        // Ten seconds of a warbling tone with noise (a fixed-seed generator), at 22050 Hz.
        var state: UInt32 = 12345
        let samples = (0..<220_500).map { i -> Int16 in
            state = state &* 1_664_525 &+ 1_013_904_223
            let tone = sin(Double(i) * 2 * .pi * (220 + 40 * sin(Double(i) / 5000)) / 22050) * 8000
            return Int16(tone + Double(Int32(state >> 20) - 2048))
        }
        let whole = try stream(samples, block: samples.count)
        #expect(whole.count > 60_000)
        #expect(try stream(samples, block: 1 << 16) == whole)
        #expect(try stream(samples, block: 1000) == whole)
    }
}
