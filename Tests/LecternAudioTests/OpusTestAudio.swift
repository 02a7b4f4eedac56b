import Foundation
import LecternAudio

/// What the Opus tests share: synthetic speech-rate PCM with clicks at known samples, a folder
/// of their own, a writer run over samples, and the decoding of a file back to PCM by opusdec.
enum OpusTestAudio {
    static let rate = 22050

    /// `seconds` of a quiet 220 Hz hum with a loud 2 ms click starting at each of `clicks`.
    static func pcm(seconds: Double, clicks: [Int] = []) -> [Int16] {
        var samples = (0..<Int(seconds * Double(rate))).map { Int16((sin(2 * Double.pi * 220 * Double($0) / Double(rate)) * 600).rounded()) }
        for click in clicks where click < samples.count {
            for i in click..<min(click + rate / 500, samples.count) { samples[i] = i == click ? 30000 : (i - click) % 2 == 0 ? 20000 : -20000 }
        }
        return samples
    }

    /// A new empty folder, which `body` may fill; removed afterwards.
    static func inFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// Writes `samples` in blocks of odd sizes (as chunks arrive) and finishes the file.
    static func write(_ samples: [Int16], to url: URL, bitrate: Int = 32_000, metadata: AudioMetadata) throws {
        try write(samples, to: OpusWriter(url: url, sampleRate: rate, bitrate: bitrate, metadata: metadata))
    }

    /// Writes `samples` to `writer` in blocks of odd sizes (as chunks arrive) and finishes it.
    static func write(_ samples: [Int16], to writer: OpusWriter) throws {
        var start = 0, block = 4000
        while start < samples.count {
            let end = min(samples.count, start + block)
            try writer.write(samples[start..<end])
            start = end
            block = block * 7 % 9001 + 1
        }
        try writer.finish()
    }

    /// The file decoded by opusdec at the book's rate, as 16-bit samples.
    static func decode(_ url: URL) throws -> [Int16] {
        let raw = url.deletingPathExtension().appendingPathExtension("raw")
        let result = try ExternalTool.run("opusdec", ["--quiet", "--no-dither", "--rate", String(rate), url.path, raw.path])
        guard result.status == 0 else { throw AudioError("opusdec: \(result.stderr)") }
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { bytes in (0..<data.count / 2).map { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) } }
    }

    /// Where a click starts near `around`: the first sample within `window` samples of it that is
    /// louder than a third of the loudest there.
    static func onset(in samples: [Int16], around: Int, window: Int = rate / 20) -> Int {
        let range = max(0, around - window)..<min(samples.count, around + window)
        let loudest = range.map { abs(Int(samples[$0])) }.max() ?? 0
        return range.first { abs(Int(samples[$0])) * 3 > loudest } ?? -1
    }
}
