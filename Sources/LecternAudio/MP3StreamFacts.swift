import Foundation
import LecternCore

/// What an MP3 file's frame headers say about it: sample rates, channels, bit rates and length,
/// read without decoding.
///
/// The file is mapped, not read into memory; an ID3v2 tag at the start is skipped by its size, and
/// bytes that are not a frame (an ID3v1 or APE tag at the end, junk) are skipped to the next frame.
/// A Xing/Info tag frame (which carries no audio) is not counted among the audio frames.
public struct MP3StreamFacts: Sendable, Equatable {
    /// Every sample rate a frame declares, in Hz.
    public var sampleRates: Set<Int> = []
    /// Every channel count a frame declares (1 mono, 2 stereo).
    public var channelCounts: Set<Int> = []
    /// Every bit rate an audio frame declares, in kbit/s.
    public var bitrates: Set<Int> = []
    /// Audio frames.
    public var frames = 0
    /// Samples per channel in the audio frames (before a decoder trims the encoder delay).
    public var samples = 0
    /// Whether the file starts with a Xing tag, LAME's mark of a VBR stream ("Info" marks CBR).
    public var hasVBRTag = false

    /// The file's sample rate when every frame agrees, else nil.
    public var sampleRate: Int? { sampleRates.count == 1 ? sampleRates.first : nil }
    /// The file's channel count when every frame agrees, else nil.
    public var channels: Int? { channelCounts.count == 1 ? channelCounts.first : nil }
    /// Whether the stream is constant bit rate: one bit rate in every audio frame and no Xing tag.
    public var isConstantBitrate: Bool { bitrates.count == 1 && !hasVBRTag }
    /// The length in seconds the frames hold.
    public var seconds: Double { sampleRate.map { Double(samples) / Double($0) } ?? 0 }

    public init() {}

    /// Scans the frames of an MP3 file.
    ///
    /// - throws: ``AudioError`` when the file cannot be read or holds no MPEG Layer III frame.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw AudioError(FileError(cannot: "read", url.path, error).message)
        }
        self.init()
        data.withUnsafeBytes { scan($0) }
        guard frames > 0 else { throw AudioError("\(url.path) holds no MP3 audio frame") }
    }

    /// Adds the frames of `bytes` (a whole file) to these facts.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        var offset = Self.id3v2Length(bytes)
        var first = true
        while offset + 4 <= bytes.count {
            // A frame counts only when the next one follows it (or the file ends), so a stray
            // 0xFFE in a tag is not taken for audio.
            guard let h = MP3Frames.header(in: bytes, at: offset), h.length > 4,
                  offset + h.length >= bytes.count - 4 || MP3Frames.header(in: bytes, at: offset + h.length) != nil
            else { offset += 1; continue }
            defer { offset += h.length; first = false }
            if first, let tag = Self.xingTag(bytes, at: offset, header: h) {
                hasVBRTag = tag == "Xing"
                continue
            }
            sampleRates.insert(h.sampleRate)
            channelCounts.insert(h.channels)
            bitrates.insert(h.kilobitsPerSecond)
            frames += 1
            samples += h.samples
        }
    }

    /// The length of an ID3v2 tag at the start of the file (its header, body and footer), or 0.
    static func id3v2Length(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return 0 }
        let size = (6..<10).reduce(0) { $0 << 7 | Int(bytes[$1] & 0x7F) }
        let footer = bytes[5] & 0x10 != 0 ? 10 : 0
        return min(bytes.count, 10 + size + footer)
    }

    /// "Xing" or "Info" when the frame at `offset` is a Xing/Info tag frame, else nil.
    static func xingTag(_ bytes: UnsafeRawBufferPointer, at offset: Int, header: MP3Frames.Header) -> String? {
        let x = offset + 4 + header.sideInfoLength
        guard x + 4 <= bytes.count else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[x..<x + 4]), as: UTF8.self)
        return name == "Xing" || name == "Info" ? name : nil
    }
}
