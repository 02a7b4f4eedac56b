import Foundation
import LecternCore

/// What an MP3 file's frame headers say about it: sample rates, channels, bit rates and length,
/// read without decoding.
///
/// The file is read a block at a time, never whole; an ID3v2 tag at the start is skipped by its size, and
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

    /// Scans the frames of an MP3 file, reading it 1 MiB at a time.
    ///
    /// - throws: ``AudioError`` when the file cannot be read or holds no MPEG Layer III frame.
    public init(contentsOf url: URL) throws {
        self.init()
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw AudioError(FileError(cannot: "read", url.path, error).message)
        }
        defer { try? handle.close() }
        var pending = Data(), skip = -1, first = true, atEnd = false
        while !atEnd {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw AudioError(FileError(cannot: "read", url.path, error).message)
            }
            atEnd = chunk.isEmpty
            pending.append(chunk)
            if skip < 0 {  // the ID3v2 tag's length, once its header is in
                guard pending.count >= 10 || atEnd else { continue }
                skip = pending.withUnsafeBytes { Self.id3v2Length($0) }
            }
            let dropped = min(skip, pending.count)
            skip -= dropped
            let consumed = dropped + pending.dropFirst(dropped).withUnsafeBytes { scan($0, first: &first, isEnd: atEnd) }
            // A copy, not `removeFirst`: a Data slice keeps (and an append grows) the storage
            // of every byte ever read.
            pending = Data(pending.dropFirst(consumed))
        }
        guard frames > 0 else { throw AudioError("\(url.path) holds no MP3 audio frame") }
    }

    /// Adds the frames of `bytes` to these facts and returns how many bytes it used: all of them
    /// at the end of the file, else up to the last frame whose successor is not yet in.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, first: inout Bool, isEnd: Bool) -> Int {
        let lookahead = 4096  // more than a frame (at most 1441 bytes) and the next one's header
        var offset = 0
        while offset + 4 <= bytes.count {
            if !isEnd && offset + lookahead > bytes.count { return offset }
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
        return isEnd ? bytes.count : min(offset, bytes.count)
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
