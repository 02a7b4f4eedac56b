import Foundation
import Testing
import LecternCore
@testable import LecternAudio

/// ``ACXMasterWriter`` on real espeak-ng speech, levelled as the ACX profile levels it: the file
/// passes every rule of `lectern check --acx` (the same ``ACXCheck``), ffprobe and mp3val agree it
/// is a 44.1 kHz 192 kbit/s mono MP3, times land where the head trim says, and the bytes are the
/// same on every run.
@Suite struct ACXMasterWriterTests {
    static let text = "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of "
        + "foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, it was "
        + "the season of Darkness, it was the spring of hope, it was the winter of despair. We had everything before us, "
        + "we had nothing before us. Pop! Crack! Boom!"

    /// The text spoken by espeak-ng (22050 Hz, 16-bit mono), levelled to −20 LUFS, −3.5 dBTP.
    static let speech: [Int16] = (try? makeSpeech()) ?? []

    static func makeSpeech() throws -> [Int16] {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("speech.wav")
        guard try ExternalTool.run("espeak-ng", ["-w", wav.path, text]).status == 0 else { return [] }
        let reader = try SoundFileReader(url: wav)
        var floats = [Float](repeating: 0, count: 4096), samples: [Int16] = []
        while case let n = try floats.withUnsafeMutableBufferPointer({ try reader.read(into: $0, frames: 4096) }), n > 0 {
            samples += floats[0..<n].map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        }
        try LoudnessLeveler.level(&samples, sampleRate: reader.sampleRate, target: LoudnessTarget(integrated: -20, truePeakLimit: -3.5))
        return samples
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-acx-master-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let metadata = AudioMetadata(title: "Chapter 1", artist: "Charles Dickens", album: "A Tale of Two Cities")

    /// Writes `samples` through a writer in blocks of `block` and returns it, finished.
    @discardableResult
    static func write(_ samples: [Int16], to url: URL, rate: Int = 22050, block: Int = 3001) throws -> ACXMasterWriter {
        let writer = try ACXMasterWriter(url: url, inputSampleRate: rate, metadata: metadata)
        try samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                try writer.write(UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + block)]))
                i += block
            }
        }
        try writer.finish()
        return writer
    }

    /// The decoded samples of an MP3, by ffmpeg (which drops the encoder delay the LAME tag gives).
    static func decode(_ url: URL) throws -> [Int16] {
        let raw = url.deletingPathExtension().appendingPathExtension("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let run = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-f", "s16le", "-ac", "1", raw.path])
        try #require(run.status == 0, "ffmpeg: \(run.stderr)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static func zeros(_ seconds: Double, rate: Int = 22050) -> [Int16] { [Int16](repeating: 0, count: Int(seconds * Double(rate))) }

    @Test func levelledSpeechWithLongDigitalSilenceAtBothEndsPassesEveryACXRule() throws {
        try #require(Self.speech.count > 20 * 22050, "espeak-ng made \(Self.speech.count) samples")
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("01 Chapter 1.mp3")
        let writer = try Self.write(Self.zeros(3) + Self.speech + Self.zeros(6), to: url)
        let trim = try #require(writer.headTrim)
        // 3 s of silence less 0.75 s, to the 10 ms block where the first sound is found.
        #expect(trim > 3 * 22050 - 16538 - 220 && trim <= 3 * 22050 - 16538, "\(trim)")

        let report = try ACXCheck.check(folder: dir)
        #expect(report.passed, "\(report.files.flatMap(\.results).filter { !$0.passed })")
        let results = try #require(report.files.first?.results)
        func value(_ rule: ACXRule) -> Double? { results.first { $0.rule == rule }?.value }
        #expect(abs((value(.headRoomTone) ?? 0) - 0.75) <= 0.03, "head \(String(describing: value(.headRoomTone)))")
        #expect(abs((value(.tailRoomTone) ?? 0) - 2.5) <= 0.03, "tail \(String(describing: value(.tailRoomTone)))")
        #expect((value(.noiseFloor) ?? 0) < -65, "the bed is −70 dB: \(String(describing: value(.noiseFloor)))")

        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries",
                                                     "stream=sample_rate,bit_rate,channels,codec_name", "-of", "default=nw=1", url.path])
        #expect(probe.stdout.split(separator: "\n").sorted() == ["bit_rate=192000", "channels=1", "codec_name=mp3", "sample_rate=44100"],
                "ffprobe: \(probe.stdout) \(probe.stderr)")
        let mp3val = try ExternalTool.run("mp3val", [url.path])
        #expect(!mp3val.stdout.contains("WARNING") && !mp3val.stdout.contains("ERROR"), "mp3val: \(mp3val.stdout)")
        let tags = try ExternalTool.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title,album", "-of", "default=nw=1", url.path])
        #expect(tags.stdout.contains("TAG:title=Chapter 1") && tags.stdout.contains("TAG:album=A Tale of Two Cities"), "\(tags.stdout)")
    }

    @Test func aClickLandsAtTwiceItsInputSampleLessTheHeadTrim() throws {
        try #require(Self.speech.count > 20 * 22050)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A short head (padded to 0.75 s), then a click alone in a pause after the speech.
        var input = Self.zeros(0.2) + Self.speech + Self.zeros(1)
        let click = input.count
        input += [16000] + Self.zeros(4)
        let url = dir.appendingPathComponent("click.mp3")
        let writer = try Self.write(input, to: url, block: 4096)
        let trim = try #require(writer.headTrim)
        #expect(trim < 0, "0.2 s of silence is padded to 0.75 s: \(trim)")
        let decoded = try Self.decode(url)
        let expected = 2 * (click - trim)
        try #require(decoded.count > expected + 1000)
        let from = 2 * (click - 22050 / 2 - trim)
        let found = (from..<decoded.count).max { abs(Int(decoded[$0])) < abs(Int(decoded[$1])) }!
        #expect(abs(found - expected) <= 2, "the click is at \(found), expected \(expected)")
        #expect(abs(Double(decoded.count) / 44100 - (Double(click - trim + 1) / 22050 + ACXMasterWriter.tailRoomTone)) < 0.02,
                "the file ends 2.5 s after the click: \(decoded.count) samples")
    }

    @Test func speechLouderThanTheProfileLevelsItIsLimitedUnderMinus3DB() throws {
        try #require(Self.speech.count > 20 * 22050)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 4 dB up: the levelled speech's peaks (about −4.5 dBFS) go over the ceiling.
        let loud = Self.speech.map { Int16(max(-32768, min(32767, (Double($0) * pow(10, 4.0 / 20)).rounded()))) }
        let inputPeak = 20 * log10(Double(loud.map { abs(Int($0)) }.max()!) / 32768)
        #expect(inputPeak > -1, "\(inputPeak) dBFS in")
        let url = dir.appendingPathComponent("loud.mp3")
        try Self.write(Self.zeros(1) + loud + Self.zeros(1), to: url)
        let peak = try #require(try ACXCheck.measure(url).results.first { $0.rule == .peak })
        #expect(peak.passed && (peak.value ?? 0) > -3.6, "\(peak.measured) out: limited, not turned down")
    }

    @Test func theSamePCMMakesTheSameBytes() throws {
        try #require(Self.speech.count > 22050 * 8)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Self.zeros(1) + Array(Self.speech[0..<(22050 * 8)]) + Self.zeros(1)
        let a = dir.appendingPathComponent("a.mp3"), b = dir.appendingPathComponent("b.mp3")
        try Self.write(input, to: a, block: 1000)
        try Self.write(input, to: b, block: 7777)
        #expect(try Data(contentsOf: a) == Data(contentsOf: b))
    }

    @Test func speechAt44100HzIsNotResampled() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rate = 44100
        let tone = (0..<(3 * rate)).map { Int16((sin(2 * Double.pi * 300 * Double($0) / Double(rate)) * 4000).rounded()) }
        let url = dir.appendingPathComponent("tone.mp3")
        let writer = try Self.write(Self.zeros(2, rate: rate) + tone + Self.zeros(0.5, rate: rate), to: url, rate: rate)
        #expect(writer.headTrim == 2 * rate - 33075)
        let decoded = try Self.decode(url)
        #expect(decoded.count == 33075 + tone.count + 2 * rate + rate / 2, "0.75 s + 3 s + 2.5 s: \(decoded.count)")
        let facts = try MP3StreamFacts(contentsOf: url)
        #expect(facts.sampleRate == 44100 && facts.bitrates == [192] && facts.isConstantBitrate && facts.channels == 1)
    }

    @Test func otherRatesAreRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-acx-\(UUID().uuidString).mp3")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect { try ACXMasterWriter(url: url, inputSampleRate: 16000, metadata: Self.metadata) } throws: { error in
            (error as? AudioError)?.message.contains("16000 Hz") == true
        }
    }
}
