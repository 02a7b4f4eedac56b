import Foundation
import LecternCore

/// Encodes PCM as it arrives into an MP3 stream file, so a book's audio is never held in memory.
///
/// The stream starts with LAME's tag frame; ``finish()`` fills it in. The file is a temporary
/// part of a book: ``MP3BookAssembler`` puts the ID3 tag in front of it.
public final class MP3StreamWriter {
    public let url: URL
    private let encoder: MP3Encoder
    private let handle: FileHandle
    private var pending = PendingBytes()
    /// Samples written so far; the decoded stream has exactly this many.
    public var sampleCount: Int { encoder.sampleCount }
    public let sampleRate: Int
    public let writesTag: Bool
    /// The encoder's delay in samples (decoders skip it at the start of a tagged stream).
    public var encoderDelay: Int { encoder.encoderDelay }
    public var samplesPerFrame: Int { encoder.samplesPerFrame }

    /// Creates (or truncates) the stream file at `url`.
    public init(url: URL, sampleRate: Int, settings: AudioSettings, writesTag: Bool = true) throws {
        self.url = url
        self.sampleRate = sampleRate
        self.writesTag = writesTag
        encoder = try MP3Encoder(sampleRate: sampleRate, settings: settings, writesTag: writesTag)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw AudioError("cannot create \(url.path)")
        }
        do { handle = try FileHandle(forWritingTo: url) } catch {
            throw AudioError("cannot open \(url.path) for writing: \(FileError.reason(error))")
        }
    }

    deinit { try? handle.close() }

    /// Appends samples.
    public func write(_ samples: [Int16]) throws {
        try samples.withUnsafeBufferPointer { try pending.append(encoder.encode($0), to: handle, url: url) }
    }

    /// Appends `count` samples of silence.
    public func writeSilence(_ count: Int) throws {
        guard count > 0 else { return }
        let block = [Int16](repeating: 0, count: min(count, 22050))
        var left = count
        while left > 0 {
            let n = min(left, block.count)
            try block.withUnsafeBufferPointer { try pending.append(encoder.encode(UnsafeBufferPointer(rebasing: $0[0..<n])), to: handle, url: url) }
            left -= n
        }
    }

    /// Flushes the encoder, writes the tag frame over the stream's first frame and syncs the file.
    public func finish() throws {
        try pending.append(encoder.flush(), to: handle, url: url)
        try pending.drain(to: handle, url: url)
        do {
            if writesTag {
                try handle.seek(toOffset: 0)
                try handle.write(contentsOf: Data(try encoder.lameTagFrame()))
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            throw AudioError("cannot write \(url.path): \(FileError.reason(error))")
        }
    }
}
