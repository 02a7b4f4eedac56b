import Foundation
import LecternCore
import Testing
@testable import LecternAudio

/// The Ogg Opus file as opusinfo and opusdec read it: a valid stream, decoded to the samples'
/// length with each click where it was written, the same bytes each time, and errors that name
/// the file.
@Suite struct OpusWriterTests {
    static let clicks = [22050 + 123, 5 * 22050 + 7, 9 * 22050 + 10_001, 12 * 22050 - 2000]

    @Test func opusinfoFindsAValidStreamWithoutWarnings() throws {
        try OpusTestAudio.inFolder { folder in
            let url = folder.appendingPathComponent("book.opus")
            try OpusTestAudio.write(OpusTestAudio.pcm(seconds: 12, clicks: Self.clicks), to: url, metadata: AudioMetadata(title: "Book"))
            let info = try ExternalTool.run("opusinfo", [url.path])
            #expect(info.status == 0, "opusinfo: \(info.stderr)")
            let output = info.stdout + info.stderr
            #expect(!output.contains("WARNING") && !output.contains("ERROR"), "opusinfo: \(output)")
            #expect(output.contains("Original sample rate: 22050 Hz"), "opusinfo: \(output)")
            #expect(output.contains("Channels: 1"), "opusinfo: \(output)")
            #expect(output.contains("Playback length: 0m:12.000s"), "opusinfo: \(output)")
        }
    }

    @Test func theDecodedAudioHasTheSamplesLengthAndEachClickWhereItWasWritten() throws {
        try OpusTestAudio.inFolder { folder in
            let url = folder.appendingPathComponent("book.opus")
            let samples = OpusTestAudio.pcm(seconds: 12, clicks: Self.clicks)
            try OpusTestAudio.write(samples, to: url, metadata: AudioMetadata(title: "Book"))
            let decoded = try OpusTestAudio.decode(url)
            #expect(abs(decoded.count - samples.count) <= 4, "decoded \(decoded.count) of \(samples.count) samples")
            let oneMs = OpusTestAudio.rate / 1000
            for click in Self.clicks {
                let found = OpusTestAudio.onset(in: decoded, around: click)
                #expect(abs(found - click) <= oneMs, "the click at \(click) decodes at \(found)")
            }

            // ffmpeg's decoder, reading the pre-skip and the end from the stream, agrees: 12 s at
            // Opus's 48 kHz. (ffprobe's duration counts the pre-skip in, for opusenc's files too.)
            let pcm = folder.appendingPathComponent("ffmpeg.raw")
            let ffmpeg = try ExternalTool.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "s16le", "-ar", "48000", pcm.path])
            #expect(ffmpeg.status == 0, "ffmpeg: \(ffmpeg.stderr)")
            #expect(try Data(contentsOf: pcm).count == 2 * 12 * 48000)
        }
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        try OpusTestAudio.inFolder { folder in
            let samples = OpusTestAudio.pcm(seconds: 10, clicks: Self.clicks)
            let metadata = AudioMetadata(title: "Été 日本", artist: "A. Author", chapters: [.init(title: "One", startMs: 0, endMs: 10_000)])
            let first = folder.appendingPathComponent("1.opus"), second = folder.appendingPathComponent("2.opus")
            try OpusTestAudio.write(samples, to: first, metadata: metadata)
            try OpusTestAudio.write(samples, to: second, metadata: metadata)
            let bytes = try Data(contentsOf: first)
            #expect(bytes.count > 10_000)
            #expect(bytes == (try Data(contentsOf: second)))
            // The serial number (bytes 14..<18 of every page) is the title's, not a random one.
            var other = metadata
            other.title = "Another"
            let third = folder.appendingPathComponent("3.opus")
            try OpusTestAudio.write(samples, to: third, metadata: other)
            #expect(bytes[14..<18] != (try Data(contentsOf: third))[14..<18])
        }
    }

    @Test func theBitrateIsTheAverageAskedFor() throws {
        try OpusTestAudio.inFolder { folder in
            let url = folder.appendingPathComponent("book.opus")
            let speechLike = (0..<20 * 22050).map { i -> Int16 in
                let t = Double(i) / 22050
                return Int16((sin(2 * .pi * 180 * t) * 6000 + sin(2 * .pi * 1234 * t) * 3000 + sin(2 * .pi * 3100 * t) * 1500)
                             * (0.6 + 0.4 * sin(2 * .pi * 3 * t)))
            }
            try OpusTestAudio.write(speechLike, to: url, bitrate: 32_000, metadata: AudioMetadata(title: "Book"))
            let bitsPerSecond = Double(try Data(contentsOf: url).count * 8) / 20
            #expect((20_000...44_000).contains(bitsPerSecond), "\(bitsPerSecond) bit/s")
        }
    }

    /// The writer holds a stretch being gathered and those being encoded, not the stream: pages
    /// reach the file as samples arrive.
    @Test func pagesReachTheFileWhileSamplesArrive() throws {
        try OpusTestAudio.inFolder { folder in
            let url = folder.appendingPathComponent("book.opus")
            let writer = try OpusWriter(url: url, sampleRate: 22050, bitrate: 32_000, metadata: AudioMetadata(title: "Book"), threads: 2)
            writer.stretchLength = 5
            for _ in 0..<30 { try writer.write(OpusTestAudio.pcm(seconds: 2, clicks: [100, 11_000])) }
            // The stretches given before the last few are written once they are done.
            try writer.write(OpusTestAudio.pcm(seconds: 0.5))
            let sizeWhileWriting = try Data(contentsOf: url).count
            try writer.finish()
            let size = try Data(contentsOf: url).count
            #expect(writer.cuts.count >= 8, "cuts \(writer.cuts)")
            #expect(sizeWhileWriting * 10 >= size * 4, "\(sizeWhileWriting) of \(size) bytes on disk before finish()")
        }
    }

    @Test func anUnwritablePathIsAnErrorNamingIt() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/book.opus")
        #expect {
            _ = try OpusWriter(url: url, sampleRate: 22050, bitrate: 32_000, metadata: AudioMetadata(title: "Book"))
        } throws: { error in
            (error as? AudioError)?.message.contains(url.path) == true
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskIsAnErrorNamingTheFileAndTheReason() throws {
        let url = URL(fileURLWithPath: "/dev/full")
        let writer = try OpusWriter(url: url, sampleRate: 22050, bitrate: 32_000, metadata: AudioMetadata(title: "Book"))
        #expect {
            try writer.write(OpusTestAudio.pcm(seconds: 5))
            try writer.finish()
        } throws: { error in
            let message = (error as? AudioError)?.message ?? ""
            return message.contains("/dev/full") && message.contains(String(cString: strerror(ENOSPC)))
        }
    }

    @Test func aCoverLibopusencCannotReadIsAnErrorNamingTheFile() throws {
        try OpusTestAudio.inFolder { folder in
            let url = folder.appendingPathComponent("book.opus")
            let metadata = AudioMetadata(title: "Book", cover: .init(mimeType: "image/png", data: Data(repeating: 7, count: 100)))
            #expect {
                _ = try OpusWriter(url: url, sampleRate: 22050, bitrate: 32_000, metadata: metadata)
            } throws: { error in
                let message = (error as? AudioError)?.message ?? ""
                return message.contains(url.path) && message.contains("cover")
            }
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }

    @Test func aBitrateOrRateOutOfRangeIsAnErrorNamingTheFile() throws {
        let url = URL(fileURLWithPath: "/tmp/never-\(UUID().uuidString).opus")
        for (rate, bitrate) in [(22050, 500), (22050, 1_000_000), (4000, 32_000)] {
            #expect {
                _ = try OpusWriter(url: url, sampleRate: rate, bitrate: bitrate, metadata: AudioMetadata(title: "Book"))
            } throws: { error in
                (error as? AudioError)?.message.contains(url.path) == true
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func writingAfterFinishIsAnError() throws {
        try OpusTestAudio.inFolder { folder in
            let writer = try OpusWriter(url: folder.appendingPathComponent("b.opus"), sampleRate: 22050, bitrate: 32_000,
                                        metadata: AudioMetadata(title: "Book"))
            try writer.write(OpusTestAudio.pcm(seconds: 1))
            #expect(writer.sampleCount == 22050)
            try writer.finish()
            #expect(throws: AudioError.self) { try writer.write([1, 2, 3]) }
            #expect(throws: AudioError.self) { try writer.finish() }
        }
    }
}
