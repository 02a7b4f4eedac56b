import Foundation
import Testing
@testable import LecternAudio

/// ``ACXCheck``: each ACX rule measured on audio made for it — PCM generated here, and MP3 files
/// made with ffmpeg (libmp3lame) that pass, or fail exactly one rule.
struct ACXCheckTests {
    // MARK: PCM statistics

    /// A 1 kHz sine of amplitude `amplitude` after `head` seconds of `floor`-amplitude alternating
    /// samples, followed by `tail` seconds of the same.
    static func pcm(rate: Int = 8000, head: Double, tone: Double, tail: Double, amplitude: Float, floor: Float) -> [Float] {
        let quiet = { (n: Int) in (0..<n).map { $0 % 2 == 0 ? floor : -floor } }
        let toneSamples = (0..<Int(tone * Double(rate))).map { amplitude * Float(sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        return quiet(Int(head * Double(rate))) + toneSamples + quiet(Int(tail * Double(rate)))
    }

    static func statistics(_ samples: [Float], rate: Int = 8000, channels: Int = 1) -> PCMStatistics {
        var s = PCMStatistics(sampleRate: rate, channels: channels)
        samples.withUnsafeBufferPointer { s.add($0) }
        return s
    }

    @Test func rmsAndPeakAreThoseOfTheWholeFileInDecibelsOfFullScale() {
        let s = Self.statistics(Self.pcm(head: 0, tone: 2, tail: 0, amplitude: 0.5, floor: 0))
        #expect(abs(s.peak - 20 * log10(0.5)) < 0.01)
        #expect(abs(s.rms - 20 * log10(0.5 / 2.0.squareRoot())) < 0.01)
    }

    @Test func theNoiseFloorIsTheQuietestHalfSecondAndRoomToneIsMeasuredAtBothEnds() {
        let floor: Float = 0.0005  // −66 dBFS
        let s = Self.statistics(Self.pcm(head: 0.7, tone: 3, tail: 2, amplitude: 0.3, floor: floor))
        #expect(abs(s.noiseFloor - 20 * log10(Double(floor))) < 0.01)
        #expect(abs(s.headRoomTone - 0.7) < 0.011)
        #expect(abs(s.tailRoomTone - 2) < 0.011)
        #expect(s.longestDigitalSilence < 0.001, "only the sine's zero crossings")
        let results = ACXCheck.results(facts: Self.compliantFacts, statistics: s)
        #expect(results.first { $0.rule == .noiseFloor }?.passed == true)
        #expect(results.first { $0.rule == .rms }?.passed == false, "−14 dB RMS is too loud")
    }

    @Test func digitalSilenceIsMeasuredAsARunOfZeroSamplesAndFails() {
        let s = Self.statistics(Self.pcm(head: 0.8, tone: 1, tail: 1.5, amplitude: 0.1, floor: 0))
        #expect(s.noiseFloor == -.infinity)
        #expect(abs(s.longestDigitalSilence - 1.5) < 0.001)
        let results = ACXCheck.results(facts: Self.compliantFacts, statistics: s)
        #expect(results.first { $0.rule == .noiseFloor }?.measured == "-inf dB")
        #expect(results.first { $0.rule == .noDigitalSilence }?.passed == false)
    }

    @Test func stereoSamplesAreMeasuredTogether() {
        let mono = Self.pcm(head: 0.6, tone: 1, tail: 1.2, amplitude: 0.2, floor: 0.0003)
        let s = Self.statistics(mono.flatMap { [$0, $0] }, channels: 2)
        #expect(abs(s.seconds - 2.8) < 0.001)
        #expect(abs(s.headRoomTone - 0.6) < 0.011)
        #expect(abs(s.rms - Self.statistics(mono).rms) < 0.001)
    }

    static var compliantFacts: MP3StreamFacts {
        var f = MP3StreamFacts()
        f.sampleRates = [44100]; f.channelCounts = [1]; f.bitrates = [192]; f.frames = 300; f.samples = 300 * 1152
        return f
    }

    @Test func frameFactsDecideRateBitRateCBRAndLength() {
        var facts = Self.compliantFacts
        let stats = Self.statistics([0.1, -0.1])
        func verdict(_ rule: ACXRule) -> Bool? { ACXCheck.results(facts: facts, statistics: stats).first { $0.rule == rule }?.passed }
        #expect(verdict(.sampleRate) == true && verdict(.bitrate) == true && verdict(.constantBitrate) == true && verdict(.duration) == true)
        facts.sampleRates = [22050]
        #expect(verdict(.sampleRate) == false)
        facts.sampleRates = [44100]; facts.bitrates = [128, 192, 256]
        #expect(verdict(.bitrate) == false && verdict(.constantBitrate) == false)
        facts.bitrates = [192]; facts.hasVBRTag = true
        #expect(verdict(.constantBitrate) == false)
        facts.hasVBRTag = false; facts.samples = 121 * 60 * 44100
        #expect(verdict(.duration) == false)
    }

    // MARK: MP3 files made with ffmpeg

    /// A folder of its own for one test.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-acx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// An MP3 made by ffmpeg: pink noise (`noise` amplitude, −64.7 dB RMS at 0.003; none gives
    /// digital silence) for `total` seconds, and a 220 Hz tone of `tone` amplitude from `head`
    /// for 5 seconds (1.344 is −20 dB RMS over 8.5 s).
    @discardableResult
    static func mp3(_ name: String, in dir: URL, rate: Int = 44100, channels: Int = 1, encoding: [String] = ["-b:a", "192k"],
                    noise: Double? = 0.003, tone: Double = 1.344, head: Double = 0.75, total: Double = 8.5) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let bed = noise.map { "anoisesrc=color=pink:amplitude=\($0):seed=7:sample_rate=\(rate):duration=\(total)" }
            ?? "anullsrc=r=\(rate):cl=mono,atrim=duration=\(total)"
        let delay = Int(head * 1000)
        let graph = "\(bed)[n];sine=frequency=220:sample_rate=\(rate):duration=5,volume=\(tone),adelay=\(delay)|\(delay)[t];"
            + "[n][t]amix=inputs=2:duration=first:normalize=0"
        let made = try ExternalTool.run("ffmpeg", ["-v", "error", "-y", "-filter_complex", graph, "-ac", "\(channels)", "-c:a", "libmp3lame"]
            + encoding + [url.path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        return url
    }

    static func verdicts(_ report: ACXCheck.FileReport) -> [ACXRule: Bool] {
        Dictionary(uniqueKeysWithValues: report.results.map { ($0.rule, $0.passed) })
    }

    /// The rules a file fails.
    static func failures(_ url: URL) throws -> Set<ACXRule> {
        Set(try ACXCheck.measure(url).results.filter { !$0.passed }.map(\.rule))
    }

    @Test func aCompliantFilePassesEveryRuleAndItsLevelsAgreeWithFFmpegAstats() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.mp3("good.mp3", in: dir)
        let report = try ACXCheck.measure(url)
        #expect(report.passed, "\(report.results.filter { !$0.passed })")
        let astats = try ExternalTool.run("ffmpeg", ["-v", "info", "-i", url.path, "-af",
            "astats=measure_perchannel=none:measure_overall=RMS_level+Peak_level", "-f", "null", "-"]).stderr
        func level(_ name: String) -> Double? {
            astats.split(separator: "\n").last { $0.contains("\(name) level dB:") }
                .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        let rms = try #require(report.results.first { $0.rule == .rms }?.value)
        let peak = try #require(report.results.first { $0.rule == .peak }?.value)
        #expect(abs(rms - (try #require(level("RMS")))) < 0.1)
        #expect(abs(peak - (try #require(level("Peak")))) < 0.1)
    }

    @Test func eachDeliberatelyFailingFileFailsItsRule() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try Self.failures(Self.mp3("22k.mp3", in: dir, rate: 22050, encoding: ["-b:a", "160k"])) == [.sampleRate, .bitrate])
        #expect(try Self.failures(Self.mp3("vbr.mp3", in: dir, encoding: ["-q:a", "0"])).contains(.constantBitrate))
        #expect(try Self.failures(Self.mp3("128k.mp3", in: dir, encoding: ["-b:a", "128k"])) == [.bitrate])
        #expect(try Self.failures(Self.mp3("loud.mp3", in: dir, tone: 6)).contains(.peak))
        #expect(try Self.failures(Self.mp3("quiet.mp3", in: dir, tone: 0.3)) == [.rms])
        #expect(try Self.failures(Self.mp3("nohead.mp3", in: dir, head: 0.1)) == [.headRoomTone])
        #expect(try Self.failures(Self.mp3("longtail.mp3", in: dir, total: 12)) == [.tailRoomTone])
        #expect(try Self.failures(Self.mp3("noisy.mp3", in: dir, noise: 0.02)).contains(.noiseFloor))
        #expect(try Self.failures(Self.mp3("zeros.mp3", in: dir, noise: nil)) == [.noDigitalSilence])
    }

    @Test func aFolderOfMonoAndStereoFilesFailsTheChannelsRule() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.mp3("01.mp3", in: dir)
        try Self.mp3("02.mp3", in: dir, channels: 2, noise: 0.0042, tone: 1.9)  // ffmpeg's upmix is 3 dB down
        let report = try ACXCheck.check(folder: dir)
        #expect(report.files.map(\.file) == ["01.mp3", "02.mp3"])
        #expect(report.files.allSatisfy { $0.passed })
        #expect(report.folderResults.map(\.rule) == [.channels])
        #expect(report.folderResults.first?.measured == "1 mono, 1 stereo")
        #expect(!report.passed)
    }

    @Test func framesAreCountedAcrossReadBlocksAsFFprobeCountsThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.mp3("long.mp3", in: dir, total: 75)  // 1.8 MB: two read blocks and a part
        let facts = try MP3StreamFacts(contentsOf: url)
        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-count_packets", "-select_streams", "a",
                                                     "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
        #expect(facts.frames == Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(facts.isConstantBitrate && facts.sampleRate == 44100 && facts.channels == 1)
        #expect(abs(facts.seconds - 75) < 0.1)
    }

    @Test func aFolderWithoutMP3IsAnError() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        #expect(throws: AudioError("\(dir.path) holds no .mp3 file to check")) { try ACXCheck.check(folder: dir) }
    }
}
