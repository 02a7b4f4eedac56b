import Foundation
import Testing
@testable import LecternAudio
@testable import LecternDSP
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
        let levelled = samples.map { Float($0) / 32768 }
        #expect(abs(reading.integrated - IntegratedLoudness(sampleRate: 22050).loudness(of: levelled)) <= 0.01,
                "the reading, measured where the limiter changed the samples, is the whole signal's")
    }

    @Test func silenceIsLeftAsItIs() throws {
        var samples = [Int16](repeating: 0, count: 22050)
        samples[100] = 3
        let copy = samples
        try LoudnessLeveler.level(&samples, sampleRate: 22050, target: .standard)
        #expect(samples == copy)
    }

    /// What the limiter changed is measured again only where it changed, by the filter's
    /// linearity: the segment energies come out as a measurement of the whole changed signal.
    @Test func theEnergiesUpdatedWhereSamplesChangedAreThoseOfTheWholeSignal() throws {
        let speech = try speech(Self.text + Self.text)
        let original = speech.map { Float($0) / 32768 }
        let meter = IntegratedLoudness(sampleRate: 22050)
        let weighted = KWeighted()
        var energies = speech.withUnsafeBufferPointer { meter.segmentEnergies($0, weighted: weighted) }
        try #require(energies.count > 50)
        // Scaled by 2 (the gain), then limited hard: many stretches changed.
        let gain: Float = 2
        var changed = original.map { $0 * gain }
        var stretches: [ClosedRange<Int>] = []
        let limited = changed.withUnsafeMutableBufferPointer { PeakLimiter(ceilingDB: -12, sampleRate: 22050).apply(to: $0, changed: &stretches) }
        try #require(limited > 1000 && stretches.count > 5, "\(limited) samples in \(stretches.count) stretches")
        energies = energies.map { $0 * Double(gain * gain) }
        speech.withUnsafeBufferPointer { speech in
            changed.withUnsafeBufferPointer { after in
                meter.update(&energies, weighted: weighted, scale: Double(gain), after: after, original: speech, factor: gain / 32768,
                             changed: stretches)
            }
        }
        let measured = changed.withUnsafeBufferPointer { meter.segmentEnergies($0) }
        #expect(energies.count == measured.count)
        // To a thousandth of a segment's mean energy: single-precision filtering's rounding, where a
        // change measured wrongly (its gain, its filter's tail) is off by a tenth or more.
        let total = measured.reduce(0, +)
        for (s, (updated, whole)) in zip(energies, measured).enumerated() {
            #expect(abs(updated - whole) <= 1e-3 * total / Double(measured.count), "segment \(s): \(updated) updated, \(whole) measured")
        }
        #expect(abs(meter.loudness(energies: energies) - meter.loudness(energies: measured)) < 0.001)
    }
}
