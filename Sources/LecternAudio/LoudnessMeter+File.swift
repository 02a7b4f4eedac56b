import Foundation
internal import CSndFile

extension LoudnessMeter {
    /// Measures an audio file that libsndfile decodes (WAV, FLAC, Ogg and, with Debian's
    /// libsndfile 1.2, MP3), reading a few thousand frames at a time.
    ///
    /// Calls `sf_open`, `sf_readf_float` and `sf_close`.
    /// - throws: ``AudioError`` naming the file when it cannot be opened or decoded.
    public static func measure(contentsOf url: URL) throws -> Loudness {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw AudioError("cannot read \(url.path) as audio: \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        let meter = try LoudnessMeter(sampleRate: Int(info.samplerate), channels: Int(info.channels))
        let framesPerBlock = 8192
        var block = [Float](repeating: 0, count: framesPerBlock * Int(info.channels))
        while true {
            let frames = block.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(framesPerBlock)) }
            guard frames > 0 else { break }
            try block.withUnsafeBufferPointer { try meter.add(UnsafeBufferPointer(rebasing: $0[..<(Int(frames) * Int(info.channels))])) }
        }
        guard sf_error(file) == 0 else {
            throw AudioError("cannot decode \(url.path): \(String(cString: sf_strerror(file)))")
        }
        return try meter.loudness()
    }
}
