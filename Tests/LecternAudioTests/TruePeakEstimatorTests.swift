import Foundation
import Testing
import LecternAudio
import LecternCore

/// The leveller's own measurements against libebur128's on espeak-ng's speech at several levels:
/// the true peak (``TruePeakEstimator``) and the integrated loudness (``IntegratedLoudness``).
@Suite struct TruePeakEstimatorTests {
    /// espeak-ng's speech as floats (full scale 1), scaled by `gain` dB without clipping.
    func speech(gain: Double) throws -> [Float] {
        let samples = try LoudnessLevelerTests().speech(LoudnessLevelerTests.text)
        let factor = Float(pow(10, gain / 20) / 32768)
        return samples.map { $0 == 0 ? 0 : Float($0) * factor }
    }

    /// libebur128's reading of `samples`.
    func reference(_ samples: [Float]) throws -> Loudness {
        let meter = try LoudnessMeter(sampleRate: 22050)
        try meter.add(samples)
        return try meter.loudness()
    }

    @Test(arguments: [-12.0, -3.0, 0.0, 2.5])
    func theTruePeakIsLibebur128sNearTheLevelAsked(peakGain: Double) throws {
        var samples = try speech(gain: 0)
        // Brought to a sample peak of `peakGain` dB below full scale's… then up, so that the
        // true peak falls on both sides of the level asked for (−2 dBTP, the leveller's goal).
        let peak = samples.map { abs($0) }.max() ?? 1
        samples = samples.map { $0 / peak * Float(pow(10, (peakGain - 3) / 20)) }
        let expected = try reference(samples).truePeak
        let level = Float(pow(10, -3.0 / 20))
        let estimate = 20 * log10(Double(TruePeakEstimator(sampleRate: 22050).peak(of: samples, atLeast: level)))
        if expected >= -3 {
            #expect(abs(estimate - expected) <= 0.01, "libebur128 \(expected) dBTP, estimated \(estimate)")
        } else {
            #expect(estimate < -3, "under the level asked for: libebur128 \(expected) dBTP, estimated \(estimate)")
        }
    }

    @Test func aLoneSampleRingsBetweenSamplesAsInLibebur128() throws {
        // A sample-rate/4 tone at 45° (its samples 3 dB under its peak) and a lone click.
        var samples = (0..<22050).map { Float(0.5 * sin(Double($0) * .pi / 2 + .pi / 4)) }
        samples[11000] = 0.9
        samples[11001] = -0.9
        let expected = try reference(samples).truePeak
        let estimate = 20 * log10(Double(TruePeakEstimator(sampleRate: 22050).peak(of: samples, atLeast: 0.3)))
        #expect(abs(estimate - expected) <= 0.01, "libebur128 \(expected) dBTP, estimated \(estimate)")
    }

    @Test(arguments: [-30.0, -12.0, 0.0])
    func theIntegratedLoudnessIsLibebur128s(gain: Double) throws {
        let samples = try speech(gain: gain)
        let expected = try reference(samples).integrated
        let measured = IntegratedLoudness(sampleRate: 22050).loudness(of: samples)
        #expect(abs(measured - expected) <= 0.01, "libebur128 \(expected) LUFS, measured \(measured)")
        #expect(abs(IntegratedLoudness(sampleRate: 22050).loudness(of: samples, gain: 2) - (expected + 20 * log10(2))) <= 0.01)
        #expect(IntegratedLoudness(sampleRate: 22050).loudness(of: [Float](repeating: 0, count: 22050)) == -.infinity)
    }
}
