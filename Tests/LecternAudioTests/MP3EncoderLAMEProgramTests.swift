import Foundation
import Testing
import LecternCore
import LecternAudio

/// The audio frames of an MPEG-2 Layer III stream after its first (LAME tag) frame, which records
/// the settings themselves and so differs between any two encoders.
private func audioFramesAfterTag(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
    var offset = 0
    if bytes.starts(with: Array("ID3".utf8)) {
        offset = 10 + (Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9]))
    }
    let first = try #require(FrameHeader(bytes[offset...]), "no frame at offset \(offset)")
    return bytes[(offset + first.mpeg2Layer3Length)...]
}

/// `make bench BENCH=quality` times the `lame` program instead of Lectern's in-process encoder. That is
/// sound only while both write the same frames from the same samples: MP3Encoder's settings (CBR,
/// mono, no resampling) must be exactly `lame -b B --cbr -m m -q Q`, on the same libmp3lame.
@Suite struct MP3EncoderLAMEProgramTests {
    @Test(arguments: [(56, 7), (64, 7), (64, 3), (160, 7), (96, 0)])
    func mp3EncoderWritesTheFramesOfTheLAMEProgramWithTheSameSettings(bitrate: Int, quality: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lectern-lame-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("speech.wav"), ours = dir.appendingPathComponent("ours.mp3")
        let theirs = dir.appendingPathComponent("lame.mp3")
        let speak = try ExternalTool.run("espeak-ng", ["-v", "en-gb", "-w", wav.path,
                                                      "It was the best of times, it was the worst of times."])
        #expect(speak.status == 0, "espeak-ng: \(speak.stderr)")
        let wavBytes = try Data(contentsOf: wav)
        // espeak-ng writes a 44-byte RIFF header, then 16-bit mono little-endian samples at 22050 Hz.
        #expect(wavBytes.count > 44 + 22050, "espeak-ng spoke less than half a second")
        let samples = wavBytes.dropFirst(44).withUnsafeBytes { raw in
            (0..<raw.count / 2).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }

        let settings = AudioSettings(bitrate: bitrate, quality: quality)
        let writer = try MP3StreamWriter(url: ours, sampleRate: 22050, settings: settings)
        try writer.write(samples)
        try writer.finish()
        let lame = try ExternalTool.run("lame", ["--quiet", "-b", "\(bitrate)", "--cbr", "-m", "m", "-q", "\(settings.quality)",
                                                 wav.path, theirs.path])
        #expect(lame.status == 0, "lame: \(lame.stderr)")

        let a = try audioFramesAfterTag([UInt8](Data(contentsOf: ours)))
        let b = try audioFramesAfterTag([UInt8](Data(contentsOf: theirs)))
        #expect(a.count > 10 * 72 * bitrate * 1000 / 22050, "fewer than ten audio frames")
        #expect(a.elementsEqual(b), "\(bitrate) kbit/s q\(settings.quality): MP3Encoder's frames (\(a.count) bytes) differ from lame's (\(b.count) bytes)")
    }
}
