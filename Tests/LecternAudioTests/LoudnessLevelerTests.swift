import Foundation
import Testing
import LecternAudio
import LecternCore

/// The peak limiter and the leveller: no sample over the ceiling and nothing below it touched;
/// speech brought to the target's integrated loudness with its true peak under the limit,
/// whatever its level before, measured by libebur128 (and by ffmpeg end to end, in
/// `LoudnessEndToEndTests`).
@Suite struct LoudnessLevelerTests {
    /// espeak-ng's speech (22050 Hz, 16-bit mono) for `text`, scaled by `gain` dB.
    func speech(_ text: String, gain: Double = 0) throws -> [Int16] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("leveler-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("speech.raw")
        let wav = folder.appendingPathComponent("speech.wav")
        try #require(try ExternalTool.run("espeak-ng", ["-w", wav.path, text]).status == 0)
        try #require(try ExternalTool.run("ffmpeg", ["-v", "error", "-i", wav.path, "-af", "volume=\(gain)dB", "-f", "s16le", "-ac", "1", raw.path]).status == 0)
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static let text = "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness. "
        + "There were a king with a large jaw and a queen with a plain face, on the throne of England. Pop! Crack! Boom!"

    @Test func theLimiterKeepsEverySampleUnderItsCeilingAndLeavesTheRestAlone() {
        var samples: [Float] = (0..<22050).map { i in Float(0.3 * sin(Double(i) * 0.05)) }
        for spike in [5000, 5001, 12000] { samples[spike] = 0.95 }
        let quiet = Array(samples[15000...])
        let original = samples
        let limiter = PeakLimiter(ceilingDB: -6, sampleRate: 22050)
        let changed = limiter.apply(to: &samples)
        #expect(changed > 0 && changed < 6000, "only the samples around the spikes (and their 80 ms release): \(changed)")
        #expect(samples.allSatisfy { abs(Double($0)) <= limiter.ceiling + 1e-6 })
        #expect(Array(samples[15000...]) == quiet, "far from a peak nothing changes")
        // Smooth: from one sample to the next the gain moves at most by the averaging window's share
        // (a spike's full turn-down spread over 2 × window + 1 samples), never in one step.
        let gains = zip(samples, original).map { abs($1) > 0.01 ? Double($0 / $1) : nil }
        let steps = zip(gains, gains.dropFirst()).compactMap { a, b in a.flatMap { a in b.map { abs($0 - a) } } }
        #expect(steps.max() ?? 1 <= 1 / Double(2 * limiter.window + 1) + 1e-3, "a step of \(steps.max() ?? 1)")
        #expect(gains.compactMap { $0 }.min() ?? 1 < 0.6, "the spikes were turned down")
    }

    @Test(arguments: [-20.0, -6.0, 0.0])
    func speechIsBroughtToTheTargetUnderThePeakLimit(gain: Double) throws {
        var samples = try speech(Self.text, gain: gain)
        let target = LoudnessTarget.standard
        let reading = try LoudnessLeveler.level(&samples, sampleRate: 22050, target: target)
        let meter = try LoudnessMeter(sampleRate: 22050)
        try meter.add(samples)
        let measured = try meter.loudness()
        #expect(abs(measured.integrated - target.integrated) <= 0.5, "\(gain) dB in: \(measured)")
        #expect(measured.truePeak <= target.truePeakLimit - LoudnessLeveler.encoderMargin + 0.1, "\(gain) dB in: \(measured)")
        #expect(abs(reading.integrated - measured.integrated) <= 0.05, "the reading returned is the samples'")
    }

    @Test func silenceIsLeftAsItIs() throws {
        var samples = [Int16](repeating: 0, count: 22050)
        samples[100] = 3
        let copy = samples
        try LoudnessLeveler.level(&samples, sampleRate: 22050, target: .standard)
        #expect(samples == copy)
    }
}
