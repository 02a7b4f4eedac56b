import Foundation
import Testing
import LecternCore
import LecternAudio

/// The fields of an MPEG audio frame header that these tests check.
struct FrameHeader {
    var version: Int       // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5
    var layer: Int         // 1 = Layer III
    var bitrateIndex: Int
    var sampleRateIndex: Int
    var padding: Int

    init?(_ b: ArraySlice<UInt8>) {
        guard b.count >= 4 else { return nil }
        let i = b.startIndex
        guard b[i] == 0xFF, b[i + 1] & 0xE0 == 0xE0 else { return nil }
        version = Int(b[i + 1] >> 3 & 3)
        layer = Int(b[i + 1] >> 1 & 3)
        bitrateIndex = Int(b[i + 2] >> 4)
        sampleRateIndex = Int(b[i + 2] >> 2 & 3)
        padding = Int(b[i + 2] >> 1 & 1)
    }

    /// MPEG-2 Layer III: 576 samples per frame, so 72 × bitrate / rate bytes (plus padding).
    var mpeg2Layer3Length: Int {
        let kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0][bitrateIndex]
        let rate = [22050, 24000, 16000, 0][sampleRateIndex]
        return 72 * kbps * 1000 / rate + padding
    }
}

private func tempURL(_ ext: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("lectern-audio-\(UUID().uuidString).\(ext)")
}

/// One second of a 440 Hz sine at 22050 Hz, at about half of full scale.
private let sine: [Int16] = (0..<22050).map { Int16((sin(2 * Double.pi * 440 * Double($0) / 22050) * 16000).rounded()) }

@Suite struct MP3StreamWriterTests {
    @Test func oneSecondOfSineIsAnMPEG2Layer3StreamWithAnInfoTagFirst() throws {
        let url = tempURL("mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(bitrate: 64, quality: 3))
        try writer.write(sine)
        #expect(writer.sampleCount == 22050)
        try writer.finish()

        let bytes = [UInt8](try Data(contentsOf: url))
        let first = try #require(FrameHeader(bytes[...]), "no frame sync at offset 0: \(bytes.prefix(4).map { String($0, radix: 16) })")
        #expect(first.version == 2)          // MPEG-2 (22050 Hz)
        #expect(first.layer == 1)            // Layer III
        #expect(first.sampleRateIndex == 0)  // 22050 Hz
        let firstFrame = bytes[0..<first.mpeg2Layer3Length]
        let text = String(decoding: firstFrame, as: UTF8.self)
        #expect(text.contains("Info") || text.contains("Xing"), "no Xing/Info tag in the first frame")

        // Every following frame is a 64 kbit/s frame, and the frames fill the file exactly.
        var offset = first.mpeg2Layer3Length
        var audioFrames = 0
        while offset < bytes.count {
            guard let h = FrameHeader(bytes[offset...]) else { Issue.record("lost frame sync at \(offset)"); break }
            #expect(h.version == 2 && h.layer == 1 && h.sampleRateIndex == 0)
            #expect(h.bitrateIndex == 8, "frame at \(offset)")
            offset += h.mpeg2Layer3Length
            audioFrames += 1
        }
        #expect(offset == bytes.count)
        // At least one second of 576-sample frames.
        #expect(audioFrames * 576 >= 22050)
    }

    @Test func lameTagRecordsDelayAndPaddingSoDecodersPlayExactlyTheSamplesWritten() throws {
        let url = tempURL("mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(bitrate: 64, quality: 5))
        try writer.write(Array(sine[0..<10_000]))
        try writer.writeSilence(5_000)
        try writer.write(Array(sine[10_000...]))
        #expect(writer.sampleCount == 27_050)
        try writer.finish()

        let bytes = [UInt8](try Data(contentsOf: url))
        let first = try #require(FrameHeader(bytes[...]))
        let frame = Array(bytes[0..<first.mpeg2Layer3Length])
        let tagStart = try #require(frame.indices.first { i in
            i + 4 <= frame.count && (frame[i..<i + 4].elementsEqual("Info".utf8) || frame[i..<i + 4].elementsEqual("Xing".utf8))
        })
        func be32(_ at: Int) -> Int { frame[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let flags = be32(tagStart + 4)
        #expect(flags & 1 == 1, "frame count present")
        let frameCount = be32(tagStart + 8)
        var p = tagStart + 8 + (flags & 1 != 0 ? 4 : 0)
        if flags & 2 != 0 { #expect(be32(p) == bytes.count, "byte count"); p += 4 }
        if flags & 4 != 0 { p += 100 }
        if flags & 8 != 0 { p += 4 }
        #expect(frame[p..<p + 4].elementsEqual("LAME".utf8))
        // LAME extension: version (9), revision (1), lowpass (1), replay gain (8), flags (1), bitrate (1), delay|padding (3).
        let d = p + 21
        let delay = Int(frame[d]) << 4 | Int(frame[d + 1]) >> 4
        let padding = (Int(frame[d + 1]) & 0x0F) << 8 | Int(frame[d + 2])
        #expect(delay > 0)
        #expect(frameCount * 576 - delay - padding == 27_050, "frames \(frameCount), delay \(delay), padding \(padding)")
    }

    @Test func bitrateAvailableAtTheSampleRateIsWrittenAsRequested() throws {
        let url = tempURL("mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        // 160 kbit/s is MPEG-2's highest rate (index 14).
        let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(bitrate: 160, quality: 3))
        try writer.write(sine)
        try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: url))
        let first = try #require(FrameHeader(bytes[...]))
        let second = try #require(FrameHeader(bytes[first.mpeg2Layer3Length...]))
        #expect(second.bitrateIndex == 14)
    }

    @Test(arguments: [192, 320])
    func bitrateUnavailableAtTheSampleRateIsNotSilentlyReplaced(kbps: Int) throws {
        let url = tempURL("mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        // MPEG-2 Layer III (22050 Hz) stops at 160 kbit/s. The manifest accepts these rates, so the
        // encoder must either refuse them or honour them; it must not quietly encode 160 kbit/s.
        #expect(throws: AudioError.self) {
            let writer = try MP3StreamWriter(url: url, sampleRate: 22050, settings: AudioSettings(bitrate: kbps, quality: 3))
            try writer.write(sine)
            try writer.finish()
        }
    }
}

@Suite struct SilenceTrimmerTests {
    @Test func rangeRunsFromTheFirstToTheLastSampleLouderThanTheThreshold() {
        #expect(SilenceTrimmer.speechRange([0, 0, 50, -101, 0, 200, 5, 0]) == 3..<6)
        #expect(SilenceTrimmer.speechRange([101]) == 0..<1)
        #expect(SilenceTrimmer.speechRange([Int16.min, 0, 0, Int16.max]) == 0..<4)
    }

    @Test func samplesAtTheThresholdCountAsSilence() {
        #expect(SilenceTrimmer.threshold == 100)
        #expect(SilenceTrimmer.speechRange([100, -100, 99, 0]).isEmpty)
        #expect(SilenceTrimmer.speechRange([100, -100, 101, -100]) == 2..<3)
    }

    @Test func allSilentOrEmptyGivesAnEmptyRangeAtZero() {
        #expect(SilenceTrimmer.speechRange([]) == 0..<0)
        #expect(SilenceTrimmer.speechRange([Int16](repeating: 3, count: 1000)) == 0..<0)
    }

    @Test func quietGapsInsideSpeechAreKept() {
        var samples = [Int16](repeating: 0, count: 100)
        samples[10] = 5000
        samples[90] = -5000
        #expect(SilenceTrimmer.speechRange(samples) == 10..<91)
    }
}
