import Foundation
import LecternCore
internal import CSndFile

/// Writes 16-bit mono PCM as a WAV file with libsndfile (for `lectern say -o FILE.wav`).
public enum WAVWriter {
    /// Calls `sf_open`, `sf_write_short` and `sf_close`.
    public static func write(_ samples: [Int16], sampleRate: Int, to url: URL) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let tmp = AtomicFile.temporaryURL(for: url)
        guard let file = sf_open(tmp.path, Int32(SFM_WRITE), &info) else {
            throw AudioError("cannot create \(url.path): \(String(cString: sf_strerror(nil)))")
        }
        let written = samples.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
        sf_write_sync(file)
        sf_close(file)
        guard written == samples.count, rename(tmp.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: tmp)
            throw AudioError("cannot write \(url.path)")
        }
    }
}
