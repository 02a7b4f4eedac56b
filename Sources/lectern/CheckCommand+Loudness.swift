import ArgumentParser
import Foundation
import LecternAudio
import LecternCore

/// `lectern check --loudness FILE…`: each file's EBU R128 reading, and the gain that would bring
/// it to Lectern's default target (−18 LUFS, true peak at most −1.5 dBTP).
extension CheckCommand {
    struct LoudnessReport: Encodable {
        var file: String
        /// LUFS; absent (null) for silence.
        var integrated: Double?
        /// dBTP; absent for digital silence.
        var truePeak: Double?
        /// dBFS; absent for digital silence.
        var samplePeak: Double?
        /// LU.
        var range: Double
        var seconds: Double
        /// dB to the default target within its true-peak limit.
        var gain: Double
    }

    func checkLoudness() throws {
        try ArgumentCheck.requireFiles(loudness, what: "audio file")
        let target = LoudnessTarget.standard
        var reports: [LoudnessReport] = []
        for path in loudness {
            let reading = try LoudnessMeter.measure(contentsOf: URL(fileURLWithPath: path))
            func finite(_ value: Double) -> Double? { value.isFinite ? (value * 100).rounded() / 100 : nil }
            let report = LoudnessReport(file: path, integrated: finite(reading.integrated), truePeak: finite(reading.truePeak),
                                        samplePeak: finite(reading.samplePeak), range: finite(reading.range) ?? 0,
                                        seconds: (reading.duration * 1000).rounded() / 1000, gain: finite(target.gain(for: reading)) ?? 0)
            reports.append(report)
            if !json {
                func shown(_ value: Double?, _ unit: String) -> String { value.map { String(format: "%.1f %@", $0, unit) } ?? "silent" }
                print("\(path): I \(shown(report.integrated, "LUFS")), true peak \(shown(report.truePeak, "dBTP")), "
                      + "LRA \(String(format: "%.1f", report.range)) LU, \(clock(report.seconds))"
                      + String(format: "; %+.1f dB to %.0f LUFS / %.1f dBTP", report.gain, target.integrated, target.truePeakLimit))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        }
    }
}
