import Foundation
internal import CSndFile

/// Reads an audio file (WAV, FLAC, MP3, …) as float samples, a block at a time, through libsndfile.
///
/// Every read call into libsndfile passes through this type; the file is open from ``init(url:)``
/// to `deinit`. One reader belongs to one thread at a time.
public final class SoundFileReader {
    private let file: OpaquePointer
    /// Frames per second.
    public let sampleRate: Int
    /// Interleaved channels.
    public let channels: Int

    /// Opens a file for reading.
    ///
    /// Calls `sf_open`.
    /// - throws: ``AudioError`` naming the file and libsndfile's reason.
    public init(url: URL) throws {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw AudioError("cannot decode \(url.path): \(String(cString: sf_strerror(nil)))")
        }
        self.file = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
    }

    deinit { sf_close(file) }

    /// Reads up to `frames` frames into `buffer` (which holds `frames × channels` samples) and
    /// returns how many it read: 0 at the end of the file.
    ///
    /// Calls `sf_readf_float`.
    /// - throws: ``AudioError`` when libsndfile reports a decoding error.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) throws -> Int {
        let read = sf_readf_float(file, buffer.baseAddress, sf_count_t(frames))
        if read == 0, sf_error(file) != 0 {
            throw AudioError("cannot decode: \(String(cString: sf_strerror(file)))")
        }
        return Int(read)
    }

    /// The level statistics of a whole file, read in blocks of 4096 frames.
    public static func statistics(of url: URL) throws -> PCMStatistics {
        let reader = try SoundFileReader(url: url)
        var stats = PCMStatistics(sampleRate: reader.sampleRate, channels: reader.channels)
        let frames = 4096
        var buffer = [Float](repeating: 0, count: frames * reader.channels)
        while true {
            let read: Int
            do { read = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0, frames: frames) } } catch let error as AudioError {
                throw AudioError("\(url.path): \(error.message)")
            }
            if read == 0 { break }
            buffer.withUnsafeBufferPointer { stats.add(UnsafeBufferPointer(rebasing: $0[0..<(read * reader.channels)])) }
        }
        return stats
    }
}
