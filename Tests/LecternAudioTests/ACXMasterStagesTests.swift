import Foundation
import Testing
@testable import LecternAudio

/// The stages of ``ACXMasterWriter``: the half-band upsampler keeps every input sample and
/// interpolates between them to −60 dB, whatever the blocks; the streaming limiter gives the
/// whole-stream limiter's samples; the room tone is −70 dB with no run of zeros; the edges trim
/// and pad the quiet to the head and tail asked for.
@Suite struct ACXMasterStagesTests {
    static func upsample(_ input: [Float], blocks: Int) -> [Float] {
        var upsampler = HalfBandUpsampler()
        var output: [Float] = []
        input.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                upsampler.process(UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + blocks)]), into: &output)
                i += blocks
            }
        }
        upsampler.finish(into: &output)
        return output
    }

    @Test func upsamplingKeepsEachInputSampleAtTwiceItsIndexAndInterpolatesBetween() {
        let rate = 22050.0
        let input = (0..<22050).map { Float(0.5 * sin(2 * Double.pi * 3000 * Double($0) / rate)) }
        let output = Self.upsample(input, blocks: 1000)
        #expect(output.count == 2 * input.count)
        #expect((0..<input.count).allSatisfy { output[2 * $0] == input[$0] })
        // Between the samples, away from the ends (where the stream starts and stops abruptly).
        let errors = (100..<(input.count - 100)).map { (n: Int) -> Double in
            let exact: Double = 0.5 * sin(2 * Double.pi * 3000 * (Double(n) + 0.5) / rate)
            return abs(Double(output[2 * n + 1]) - exact)
        }
        #expect(errors.max()! < 0.5e-3, "worst error \(errors.max()!) (−60 dB of 0.5 is 0.5e-3)")
        #expect(Self.upsample(input, blocks: 7) == output, "the blocks do not matter")
    }

    @Test func aToneNearTheOldNyquistLeavesLittleImage() {
        // 9 kHz at 22050 Hz: its image at 44100 Hz would be at 13.05 kHz.
        let input = (0..<8192).map { Float(0.5 * sin(2 * Double.pi * 9000 * Double($0) / 22050)) }
        let output = Self.upsample(input, blocks: 4096)
        func amplitude(_ f: Double) -> Double {
            var re = 0.0, im = 0.0
            for n in 2000..<14000 {
                re += Double(output[n]) * cos(2 * Double.pi * f * Double(n) / 44100)
                im += Double(output[n]) * sin(2 * Double.pi * f * Double(n) / 44100)
            }
            return 2 * (re * re + im * im).squareRoot() / 12000
        }
        #expect(abs(amplitude(9000) - 0.5) < 0.01)
        #expect(20 * log10(amplitude(13050) / 0.5) < -60, "image at \(20 * log10(amplitude(13050) / 0.5)) dB")
    }

    @Test func theStreamingLimiterGivesTheWholeStreamLimitersSamples() {
        var signal = (0..<(3 * 44100)).map { Float(0.4 * sin(Double($0) * 0.03)) }
        for spike in [1000, 44099, 44100, 44100 + 300, 88100, 3 * 44100 - 5] { signal[spike] = 0.97 }
        var whole = signal
        let limiter = PeakLimiter(ceilingDB: -3.2, sampleRate: 44100)
        limiter.apply(to: &whole)
        var streaming = StreamingPeakLimiter(ceilingDB: -3.2, sampleRate: 44100)
        var output: [Float] = []
        var i = 0
        while i < signal.count {
            streaming.process(Array(signal[i..<min(signal.count, i + 5000)]), into: &output)
            i += 5000
        }
        streaming.finish(into: &output)
        #expect(output.count == whole.count)
        let difference = zip(output, whole).map { abs($0 - $1) }.max() ?? 1
        #expect(difference < 1e-5, "largest difference \(difference)")
        #expect(output.allSatisfy { Double(abs($0)) <= limiter.ceiling + 1e-6 })
    }

    @Test func roomToneIsMinus70DBWithNoRunOfZerosAndTheSameEveryTime() {
        var a = RoomTone(sampleRate: 44100)
        var samples = [Float](repeating: 0, count: 10 * 44100)
        a.add(to: &samples)
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        #expect(abs(20 * log10(rms) - RoomTone.level) < 0.5, "\(20 * log10(rms)) dB")
        let quantised = samples.map { Int16(($0 * 32768).rounded()) }
        var run = 0, longest = 0
        for s in quantised { run = s == 0 ? run + 1 : 0; longest = max(longest, run) }
        #expect(longest < 20, "longest run of zeros at 16 bits: \(longest)")
        var c = RoomTone(sampleRate: 44100)
        var again = [Float](repeating: 0, count: 10 * 44100)
        c.add(to: &again)
        #expect(again == samples)
    }

    @Test func theEdgesTrimOrPadTheQuietToTheHeadAndTail() {
        func run(_ input: [Int16]) -> (output: [Int16], trimmed: Int?) {
            var edges = RoomToneEdges(sampleRate: 1000, headSeconds: 0.5, tailSeconds: 1)
            var output: [Int16] = []
            input.withUnsafeBufferPointer { edges.process($0, into: &output) }
            edges.finish(into: &output)
            return (output, edges.trimmed)
        }
        let sound = [Int16](repeating: 3000, count: 100)
        let quiet = { (n: Int) in [Int16](repeating: 1, count: n) }
        // Long quiet: trimmed to 500 at the head and 1000 at the tail; a pause inside is kept.
        let long = run(quiet(2000) + sound + quiet(1500) + sound + quiet(3000))
        #expect(long.trimmed == 1500)
        #expect(long.output == quiet(500) + sound + quiet(1500) + sound + quiet(1000))
        // Short quiet: padded with zeros.
        let short = run(quiet(200) + sound + quiet(300))
        #expect(short.trimmed == -300)
        #expect(short.output == [Int16](repeating: 0, count: 300) + quiet(200) + sound + quiet(300) + [Int16](repeating: 0, count: 700))
        // A pause longer than the tail and the pause held: its end comes back as zeros.
        let heldPause = Int(RoomToneEdges.heldPauseSeconds * 1000)
        let pause = run(sound + quiet(1000 + heldPause + 50) + sound)
        #expect(pause.output == [Int16](repeating: 0, count: 500) + sound + quiet(1000 + heldPause)
                + [Int16](repeating: 0, count: 50) + sound + [Int16](repeating: 0, count: 1000))
    }
}
