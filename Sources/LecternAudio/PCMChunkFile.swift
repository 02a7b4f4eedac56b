import Foundation
import LecternCore
internal import CSndFile

/// A chunk's 16-bit mono PCM kept as FLAC (lossless, libsndfile) beside its MP3 stream in the
/// chunk cache, for the formats encoded from the book's PCM after the render (M4B, Opus).
///
/// Written as the chunk is rendered, a block at a time, and read back the same way, so neither
/// side holds more than a block. The bytes are a function of the samples (FLAC's encoder is
/// deterministic), so a cached chunk's PCM is the same on every host.
public final class PCMChunkFile {
    public let url: URL
    private var file: OpaquePointer?
    /// Samples written so far.
    public private(set) var sampleCount = 0

    /// Creates (or truncates) the file.
    /// - throws: ``AudioError`` naming the path and libsndfile's reason.
    public init(url: URL, sampleRate: Int) throws {
        self.url = url
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        guard let file = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw AudioError("cannot create the chunk's PCM file \(url.path): \(String(cString: sf_strerror(nil)))")
        }
        self.file = file
    }

    deinit { if let file { sf_close(file) } }

    public func write(_ samples: ArraySlice<Int16>) throws {
        guard let file else { throw AudioError("\(url.path) is already finished") }
        let written = samples.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
        guard written == samples.count else {
            throw AudioError("cannot write the chunk's PCM file \(url.path): \(String(cString: sf_strerror(file)))")
        }
        sampleCount += samples.count
    }

    public func writeSilence(_ count: Int) throws {
        let block = [Int16](repeating: 0, count: min(count, 1 << 14))
        var left = count
        while left > 0 {
            let n = min(left, block.count)
            try write(block[0..<n])
            left -= n
        }
    }

    /// Closes the file and makes it durable; returns its size in bytes.
    @discardableResult
    public func finish() throws -> Int {
        guard let file else { throw AudioError("\(url.path) is already finished") }
        self.file = nil
        sf_write_sync(file)
        guard sf_close(file) == 0 else { throw AudioError("cannot finish the chunk's PCM file \(url.path)") }
        let handle = try? FileHandle(forWritingTo: url)
        try? handle?.synchronize()
        try? handle?.close()
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        guard let size else { throw AudioError("cannot read the size of the chunk's PCM file \(url.path)") }
        return size
    }

    /// Reads the whole file in blocks of at most `block` samples, handing each to `body`.
    /// - throws: ``AudioError`` naming the file when it cannot be opened or decoded.
    public static func read(_ url: URL, block: Int = 1 << 15, _ body: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw AudioError("cannot open the chunk's PCM file \(url.path): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        guard info.channels == 1 else { throw AudioError("\(url.path) has \(info.channels) channels, not one") }
        var buffer = [Int16](repeating: 0, count: block)
        while true {
            let read = Int(buffer.withUnsafeMutableBufferPointer { sf_read_short(file, $0.baseAddress, sf_count_t(block)) })
            if read == 0 {
                if sf_error(file) != 0 { throw AudioError("cannot decode the chunk's PCM file \(url.path): \(String(cString: sf_strerror(file)))") }
                return
            }
            try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<read])) }
        }
    }
}
