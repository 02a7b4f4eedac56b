import Foundation
import LecternCore
import Testing
@testable import LecternAudio

/// The Opus stream encoded in stretches on several threads and joined: the same bytes on any
/// number of threads, cuts in the pauses, and joins a listener cannot find — the decoded audio
/// as close to its input at every cut as one encoder over the whole stream is.
@Suite struct OpusStretchTests {
    /// About a minute of espeak-ng's speech at 22,050 Hz, levelled as a book's chunks are.
    static let speech: [Int16] = (try? makeSpeech()) ?? []

    static func makeSpeech() throws -> [Int16] {
        try OpusTestAudio.inFolder { folder in
            let wav = folder.appendingPathComponent("speech.wav")
            let text = String(repeating: ACXMasterWriterTests.text + " ", count: 3)
            guard try ExternalTool.run("espeak-ng", ["-s", "175", "-w", wav.path, text]).status == 0 else { return [] }
            let reader = try SoundFileReader(url: wav)
            var floats = [Float](repeating: 0, count: 4096), samples: [Int16] = []
            while case let n = try floats.withUnsafeMutableBufferPointer({ try reader.read(into: $0, frames: 4096) }), n > 0 {
                samples += floats[0..<n].map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
            }
            try LoudnessLeveler.level(&samples, sampleRate: reader.sampleRate, target: .standard)
            return samples
        }
    }

    /// Encodes `samples` in stretches of `seconds` on `threads` threads; the file's bytes and the cuts.
    static func encode(_ samples: [Int16], seconds: Int, threads: Int, in folder: URL, name: String) throws -> (url: URL, cuts: [Int]) {
        let url = folder.appendingPathComponent(name)
        let writer = try OpusWriter(url: url, sampleRate: OpusTestAudio.rate, bitrate: 32_000, metadata: AudioMetadata(title: "Book"),
                                    threads: threads)
        writer.stretchLength = seconds
        try OpusTestAudio.write(samples, to: writer)
        return (url, writer.cuts)
    }

    @Test func theSameBytesOnAnyNumberOfThreadsWithEachCutInAPause() throws {
        let speech = Self.speech
        try #require(speech.count > 50 * OpusTestAudio.rate, "espeak-ng made \(speech.count) samples")
        try OpusTestAudio.inFolder { folder in
            let one = try Self.encode(speech, seconds: 10, threads: 1, in: folder, name: "1.opus")
            let three = try Self.encode(speech, seconds: 10, threads: 3, in: folder, name: "3.opus")
            #expect(one.cuts.count >= 3, "cuts \(one.cuts)")
            #expect(one.cuts == three.cuts)
            #expect(try Data(contentsOf: one.url) == Data(contentsOf: three.url))

            let unit = OpusEncoding(sampleRate: OpusTestAudio.rate, bitrate: 32_000).alignment
            #expect(unit == 1323)  // 60 ms: one packet
            let loudness = rms(speech[...])
            for cut in one.cuts {
                #expect(cut % unit == 0)
                // Within the packets on each side of the cut, the speech is at least 30 dB down.
                let around = rms(speech[(cut - unit)..<(cut + unit)])
                #expect(around < loudness / 30, "the cut at \(cut) lies in audio at \(around), the speech at \(loudness)")
            }
        }
    }

    @Test func theJoinedStreamIsAsCloseToItsInputAtEveryCutAsOneEncodersStream() throws {
        let speech = Self.speech
        try #require(speech.count > 50 * OpusTestAudio.rate)
        try OpusTestAudio.inFolder { folder in
            let joined = try Self.encode(speech, seconds: 10, threads: 2, in: folder, name: "joined.opus")
            let whole = try Self.encode(speech, seconds: 1000, threads: 2, in: folder, name: "whole.opus")
            #expect(whole.cuts.isEmpty)

            for url in [joined.url, whole.url] {
                let info = try ExternalTool.run("opusinfo", [url.path])
                let output = info.stdout + info.stderr
                #expect(info.status == 0 && !output.contains("WARNING") && !output.contains("ERROR"), "opusinfo: \(output)")
            }
            let a = try OpusTestAudio.decode(joined.url), b = try OpusTestAudio.decode(whole.url)
            #expect(a.count == speech.count && b.count == speech.count, "decoded \(a.count) and \(b.count) of \(speech.count)")
            let n = min(a.count, b.count, speech.count)
            func noise(_ decoded: [Int16], _ range: Range<Int>) -> Double {
                range.reduce(0.0) { $0 + pow(Double(decoded[$1]) - Double(speech[$1]), 2) }
            }
            let signal = (0..<n).reduce(0.0) { $0 + pow(Double(speech[$1]), 2) }
            let snrJoined = 10 * log10(signal / noise(a, 0..<n)), snrWhole = 10 * log10(signal / noise(b, 0..<n))
            #expect(snrJoined > snrWhole - 0.5, "SNR \(snrJoined) dB joined, \(snrWhole) dB in one stream")
            // Around each cut (a quarter of a second each side) the joined stream's error is no
            // more than twice the single encoder's, give or take 60 dB under the speech.
            let floor = signal / Double(n) * 1e-6
            for cut in joined.cuts {
                let range = max(0, cut - OpusTestAudio.rate / 4)..<min(n, cut + OpusTestAudio.rate / 4)
                let (errorJoined, errorWhole) = (noise(a, range), noise(b, range))
                #expect(errorJoined <= 2 * errorWhole + floor * Double(range.count),
                        "at the cut \(cut): error \(errorJoined) joined, \(errorWhole) in one stream")
            }
        }
    }

    @Test func aStreamShorterThanAStretchIsOneEncodersStream() throws {
        try OpusTestAudio.inFolder { folder in
            let samples = OpusTestAudio.pcm(seconds: 3, clicks: [5000])
            let one = try Self.encode(samples, seconds: 10, threads: 1, in: folder, name: "a.opus")
            let four = try Self.encode(samples, seconds: 10, threads: 4, in: folder, name: "b.opus")
            #expect(one.cuts.isEmpty)
            #expect(try Data(contentsOf: one.url) == Data(contentsOf: four.url))
            #expect(try OpusTestAudio.decode(one.url).count == samples.count)
            // And nothing at all is a valid stream too: no samples, no audio.
            let empty = try Self.encode([], seconds: 10, threads: 2, in: folder, name: "empty.opus")
            let info = try ExternalTool.run("opusinfo", [empty.url.path])
            #expect(info.status == 0 && (info.stdout + info.stderr).contains("Playback length: 0m:00.000s"), "opusinfo: \(info.stdout + info.stderr)")
        }
    }

    func rms(_ samples: ArraySlice<Int16>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
    }
}
