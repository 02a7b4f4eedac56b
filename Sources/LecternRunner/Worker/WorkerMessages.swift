import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LecternCore
import LecternSpeech

/// What the parent sends a synthesis worker: one chunk to render into an MP3 stream file, and
/// everything that decides its audio.
///
/// A chunk's stream depends on nothing but the chunk's content and the audio settings — not on
/// its place in a book — so that it can be cached and reused in any book: every stream starts
/// with a LAME tag frame (the assembler keeps the first and drops the rest), and every stream's
/// trailing silence is shortened to cancel the seam a decoder plays after it.
///
/// The cache key is derived from the request (``ChunkKey/of(_:)``): a hash of every field but
/// ``output`` and the chunk's place in the book (``RenderChunk/unplaced``), so a setting added
/// here is in the key without anyone remembering to put it there.
public struct ChunkRequest: Sendable, Codable, Equatable {
    public var chunk: RenderChunk
    /// Where to write the chunk's MP3 stream (synced before the worker answers).
    public var output: String
    /// The speech engine the run reads with (its version and data, ``EspeakEngine/identity``), and
    /// the identity of each Piper model the chunk's voices use, by model path: a worker renders
    /// with its own engine, which the run expects to be this one.
    public var engine: String
    public var voiceIdentities: [String: String]
    /// The engine's sample rate, which every sample count of the chunk is in.
    public var sampleRate: Int
    public var bitrate: Int
    public var quality: Int
    /// Where the chunk's loudness is brought (nil: the engine's levels).
    public var loudness: LoudnessTarget?
    /// Whether the chunk's PCM is also written, as FLAC beside `output` (``ChunkRequest/pcmOutput``).
    public var keepsPCM: Bool
    /// The renderer's stream layout and, with a loudness target, its leveller's method
    /// (``ChunkRenderer/formatVersion``, ``ChunkRenderer/levelerVersion``).
    public var formatVersion: Int
    public var levelerVersion: Int?

    public init(chunk: RenderChunk, output: String, engine: String, voiceIdentities: [String: String] = [:], sampleRate: Int,
                audio: AudioSettings) {
        self.chunk = chunk
        self.output = output
        self.engine = engine
        self.voiceIdentities = voiceIdentities
        self.sampleRate = sampleRate
        self.bitrate = audio.bitrate
        self.quality = audio.quality
        self.loudness = audio.loudness
        self.keepsPCM = audio.keepsPCM
        self.formatVersion = ChunkRenderer.formatVersion
        self.levelerVersion = audio.loudness == nil ? nil : ChunkRenderer.levelerVersion
    }

    /// Where the chunk's PCM goes with ``keepsPCM``: `output` with the extension `.flac`.
    public var pcmOutput: String { Self.pcmPath(of: output) }

    /// The PCM file kept beside an MP3 stream's path.
    public static func pcmPath(of output: String) -> String {
        URL(fileURLWithPath: output).deletingPathExtension().appendingPathExtension("flac").path
    }
}

/// What a worker answers: the chunk's exact layout in samples and frames, and its word marks.
public struct ChunkResult: Sendable, Codable {
    public var index: Int
    /// PCM samples given to the encoder.
    public var sampleCount: Int
    /// MPEG audio frames in the stream (not counting its LAME tag frame).
    public var audioFrames: Int
    public var samplesPerFrame: Int
    public var encoderDelay: Int
    /// Bytes of the whole stream file, and of its leading LAME tag frame.
    public var byteCount: Int
    public var tagBytes: Int
    public var items: [ItemLayout]
    /// Set when the worker failed on this chunk (a bad voice, a full disk…).
    public var error: String?
    /// Bytes of the chunk's PCM file (FLAC), when one was asked for (``ChunkRequest/keepsPCM``).
    public var pcmBytes: Int?
    /// The SHA-256 of the PCM file, when it went through a shared chunk store.
    public var pcmSHA256: String?

    /// Where an item's silence and speech lie, in samples from the chunk's first input sample.
    public struct ItemLayout: Sendable, Codable {
        public var start: Int
        public var speechStart: Int
        public var speechLength: Int
        /// (UTF-16 offset in the item's text, sample relative to `speechStart`) per word event,
        /// and a third value, 1, when the engine estimated the time (``WordMark/estimated``).
        public var marks: [[Int]]

        public init(start: Int, speechStart: Int, speechLength: Int, marks: [[Int]]) {
            self.start = start
            self.speechStart = speechStart
            self.speechLength = speechLength
            self.marks = marks
        }
    }

    public init(index: Int, sampleCount: Int, audioFrames: Int, samplesPerFrame: Int, encoderDelay: Int, byteCount: Int,
                tagBytes: Int, items: [ItemLayout], error: String? = nil) {
        self.index = index
        self.sampleCount = sampleCount
        self.audioFrames = audioFrames
        self.samplesPerFrame = samplesPerFrame
        self.encoderDelay = encoderDelay
        self.byteCount = byteCount
        self.tagBytes = tagBytes
        self.items = items
        self.error = error
    }
}

/// Length-prefixed JSON messages over a pipe: a 4-byte big-endian length, then the JSON.
///
/// Uses blocking `read(2)`/`write(2)` on the descriptors: Foundation's `FileHandle.read` on a
/// pipe spends measurable CPU waiting, which the workers need.
public enum MessageFraming {
    public static func write<T: Encodable>(_ message: T, to handle: FileHandle) throws {
        let body = try JSONEncoder().encode(message)
        let n = UInt32(body.count)
        var bytes: [UInt8] = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        bytes += body
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(handle.fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SpeechError("cannot write to the pipe: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    /// Reads one message; nil at end of input (the other side closed the pipe or died).
    public static func read<T: Decodable>(_ type: T.Type, from handle: FileHandle) throws -> T? {
        guard let header = try readExactly(4, from: handle.fileDescriptor) else { return nil }
        let n = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard let body = try readExactly(n, from: handle.fileDescriptor) else { return nil }
        return try JSONDecoder().decode(T.self, from: body)
    }

    /// Reads exactly `count` bytes; nil if the input ends first.
    public static func readExactly(_ count: Int, from fd: Int32) throws -> Data? {
        var data = Data(count: count)
        var offset = 0
        while offset < count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + offset, count - offset) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SpeechError("cannot read from the pipe: \(String(cString: strerror(errno)))")
            }
            if got == 0 { return nil }
            offset += got
        }
        return data
    }
}
