import Foundation
import Testing
import LecternAudio
import LecternCore

/// The loudness meter against BS.1770's calibration tone, inter-sample peaks, chunked measuring,
/// the gain that meets a target, and ffmpeg's `ebur128` filter on real espeak-ng speech.
@Suite struct LoudnessMeterTests {
    /// A sine of `frequency` Hz at `dBFS` (its peak), `seconds` long.
    func sine(_ frequency: Double, dBFS: Double, seconds: Double, sampleRate: Int, phase: Double = 0) -> [Float] {
        let amplitude = pow(10, dBFS / 20)
        return (0..<Int(seconds * Double(sampleRate))).map {
            Float(amplitude * sin(2 * .pi * frequency * Double($0) / Double(sampleRate) + phase))
        }
    }

    /// Speech-like 16-bit audio: bursts of a warbling tone with noise, their levels varying,
    /// each followed by a pause, at 22050 Hz (a fixed-seed generator). Returns the samples and
    /// where each pause's middle is.
    func bursts(count: Int) -> (samples: [Int16], pauses: [Int]) {
        var state: UInt32 = 2024
        var samples: [Int16] = [], pauses: [Int] = []
        for burst in 0..<count {
            let level = [6000.0, 2500, 9000, 4000, 1200][burst % 5]
            let length = 22050 + (burst * 7919) % 33000
            for i in 0..<length {
                state = state &* 1_664_525 &+ 1_013_904_223
                let envelope = sin(Double.pi * Double(i) / Double(length))
                let tone = sin(Double(i) * 2 * .pi * (180 + 60 * sin(Double(i) / 3000)) / 22050)
                samples.append(Int16(envelope * (tone * level + Double(Int32(state >> 21) - 1024) * level / 4000)))
            }
            pauses.append(samples.count + 6615)
            samples += [Int16](repeating: 0, count: 13230)  // 0.6 s
        }
        return (samples, pauses)
    }

    @Test(arguments: [48000, 44100, 22050])
    func aSineAtMinus20dBFSReadsMinus23LUFS(sampleRate: Int) throws {
        // BS.1770-4: a 0 dB FS 997 Hz sine in one front channel reads −3.01 LKFS, so −20 dB FS
        // reads −23.01.
        let meter = try LoudnessMeter(sampleRate: sampleRate)
        try meter.add(sine(997, dBFS: -20, seconds: 20, sampleRate: sampleRate))
        let reading = try meter.loudness()
        #expect(abs(reading.integrated - -23.01) < 0.1, "\(reading)")
        #expect(abs(reading.samplePeak - -20) < 0.01)
        #expect(abs(reading.truePeak - -20) < 0.1)
        #expect(reading.range < 0.1)
        #expect(reading.frameCount == 20 * sampleRate)
    }

    @Test func sixteenBitSamplesReadAsFloatingPointOnes() throws {
        let float = sine(1000, dBFS: -20, seconds: 10, sampleRate: 22050)
        let a = try LoudnessMeter(sampleRate: 22050), b = try LoudnessMeter(sampleRate: 22050)
        try a.add(float)
        try b.add(float.map { Int16(($0 * 32768).rounded()) })
        #expect(abs(try a.loudness().integrated - b.loudness().integrated) < 0.01)
        #expect(abs(try a.loudness().integrated - -23.0) < 0.1)
    }

    @Test func theTruePeakOfAnInterSamplePeakIsAboveItsSamplePeak() throws {
        // A quarter of the sample rate, 45° out of phase: every sample is at 0.707 of the peak,
        // which falls between samples, 3 dB above them.
        let meter = try LoudnessMeter(sampleRate: 44100)
        try meter.add(sine(11025, dBFS: -6, seconds: 2, sampleRate: 44100, phase: .pi / 4))
        let reading = try meter.loudness()
        #expect(abs(reading.samplePeak - -9.01) < 0.05, "\(reading)")
        #expect(reading.truePeak > reading.samplePeak + 2.5, "\(reading)")
        #expect(abs(reading.truePeak - -6) < 0.5, "\(reading)")
    }

    @Test func blocksOfAnySizeReadTheSame() throws {
        let samples = bursts(count: 6).samples
        let whole = try LoudnessMeter(sampleRate: 22050), pieces = try LoudnessMeter(sampleRate: 22050)
        try whole.add(samples)
        for start in stride(from: 0, to: samples.count, by: 1000) {
            try pieces.add(Array(samples[start..<min(start + 1000, samples.count)]))
        }
        #expect(try whole.loudness() == pieces.loudness())
    }

    @Test func aChapterMeasuredChunkByChunkReadsAsOneMeasurement() throws {
        let (samples, pauses) = bursts(count: 12)
        let whole = try LoudnessMeter(sampleRate: 22050)
        try whole.add(samples)
        // Chunks cut in pauses, as Lectern's chunks end after an utterance's pause.
        let cuts = [0, pauses[2], pauses[5], pauses[6], pauses[10], samples.count]
        let chunks = try zip(cuts, cuts.dropFirst()).map { start, end in
            let meter = try LoudnessMeter(sampleRate: 22050)
            try meter.add(Array(samples[start..<end]))
            return meter
        }
        let combined = try LoudnessMeter.combined(chunks), reference = try whole.loudness()
        #expect(abs(combined.integrated - reference.integrated) < 0.01, "\(combined) vs \(reference)")
        #expect(combined.truePeak == reference.truePeak && combined.samplePeak == reference.samplePeak)
        #expect(combined.frameCount == samples.count)
        // Different quieter chunk: the combination is not an average of the chunks' readings.
        let single = try chunks.map { try $0.loudness().integrated }
        #expect(single.min()! < combined.integrated && combined.integrated < single.max()!)
    }

    @Test func aBoundedMemoryMeterReadsWithinATenthOfALU() throws {
        let samples = bursts(count: 12).samples
        let exact = try LoudnessMeter(sampleRate: 22050), bounded = try LoudnessMeter(sampleRate: 22050, boundedMemory: true)
        try exact.add(samples)
        try bounded.add(samples)
        #expect(abs(try exact.loudness().integrated - bounded.loudness().integrated) < 0.15)
        #expect(try exact.loudness().truePeak == bounded.loudness().truePeak)
    }

    @Test func metersOfDifferentRatesAreNotCombined() throws {
        #expect(throws: AudioError.self) { try LoudnessMeter.combined([LoudnessMeter(sampleRate: 22050), LoudnessMeter(sampleRate: 24000)]) }
        #expect(try LoudnessMeter.combined([]).integrated == -.infinity)
        #expect(try LoudnessMeter(sampleRate: 22050).loudness().integrated == -.infinity)
    }

    @Test func theGainMeetsTheTargetUnlessThePeakLimitIsLower() {
        let target = LoudnessTarget.standard
        func reading(_ integrated: Double, _ truePeak: Double) -> Loudness {
            Loudness(integrated: integrated, truePeak: truePeak, samplePeak: truePeak, range: 5, frameCount: 1, sampleRate: 1)
        }
        #expect(target.gain(for: reading(-23, -10)) == 5)           // the target: −18 LUFS, peak −5
        #expect(target.gain(for: reading(-25, -4)) == 2.5)          // the peak limit: −1.5 dBTP
        #expect(target.gain(for: reading(-14, -0.5)) == -4)         // too loud: down to the target
        #expect(target.gain(for: reading(-17, 0.5)) == -2)          // over the limit even then
        #expect(target.gain(for: .silence) == 0)
    }

    @Test func applyingTheGainMovesTheReadingByItAndKeepsThePeakUnderTheLimit() throws {
        let samples = bursts(count: 8).samples
        let before = try LoudnessMeter(sampleRate: 22050)
        try before.add(samples)
        let reading = try before.loudness()
        for target in [LoudnessTarget.standard, LoudnessTarget(integrated: -16, truePeakLimit: -1), LoudnessTarget(integrated: -30, truePeakLimit: -1)] {
            let gain = target.gain(for: reading)
            let factor = Float(pow(10, gain / 20))
            let louder = samples.map { Float($0) / 32768 * factor }
            #expect(louder.allSatisfy { abs($0) < 1 }, "the gain would clip")
            let after = try LoudnessMeter(sampleRate: 22050)
            try after.add(louder)
            let result = try after.loudness()
            #expect(abs(result.integrated - (reading.integrated + gain)) < 0.05, "\(target): \(result)")
            #expect(result.truePeak <= target.truePeakLimit + 0.05, "\(target): \(result)")
            #expect(result.integrated <= target.integrated + 0.05)
        }
    }

    @Test func espeakSpeechReadsAsFFmpegReadsIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loudness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav"), mp3 = folder.appendingPathComponent("speech.mp3")
        let text = "It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness. "
            + "There were a king with a large jaw and a queen with a plain face, on the throne of England."
        #expect(try ExternalTool.run("espeak-ng", ["-w", wav.path, text]).status == 0)
        #expect(try ExternalTool.run("lame", ["--quiet", "-b", "64", wav.path, mp3.path]).status == 0)
        for file in [wav, mp3] {
            let ours = try LoudnessMeter.measure(contentsOf: file)
            let ffmpeg = try ExternalTool.run("ffmpeg", ["-hide_banner", "-nostats", "-i", file.path, "-af", "ebur128=peak=true", "-f", "null", "-"])
            // The summary at the end: "I:         -19.6 LUFS" … "Peak:       -1.2 dBFS"
            let summary = ffmpeg.stderr.components(separatedBy: "Summary:").last ?? ""
            func value(_ label: String) -> Double? {
                guard let line = summary.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }) else { return nil }
                return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
            }
            let integrated = try #require(value("I:"), "\(ffmpeg.stderr)"), peak = try #require(value("Peak:"))
            let range = try #require(value("LRA:"))
            print("\(file.lastPathComponent): ours I \(ours.integrated) TP \(ours.truePeak) LRA \(ours.range); ffmpeg I \(integrated) TP \(peak) LRA \(range)")
            #expect(abs(ours.integrated - integrated) <= 0.2, "\(file.lastPathComponent): \(ours) vs ffmpeg I \(integrated)")
            #expect(abs(ours.truePeak - peak) <= 0.2, "\(file.lastPathComponent): \(ours) vs ffmpeg Peak \(peak)")
            #expect(ours.integrated > -40 && ours.duration > 5)
        }
    }
}
