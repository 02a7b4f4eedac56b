import Foundation
import LecternCore
internal import CLAME

/// A LAME encoder for one MP3 stream: CBR, mono, no resampling, with a LAME/Xing tag frame so
/// that decoders remove the encoder delay and padding and play exactly the samples given.
///
/// Every call into libmp3lame passes through this type. One encoder belongs to one thread at a
/// time; separate encoders may run on separate threads.
public final class MP3Encoder {
    private let lame: OpaquePointer
    private var buffer: [UInt8]
    /// Samples per MP3 frame (576 for MPEG-2 rates such as 22050 Hz, 1152 for MPEG-1).
    public let samplesPerFrame: Int
    /// Samples the encoder put in front of the audio (decoders skip them using the tag).
    public var encoderDelay: Int { Int(lame_get_encoder_delay(lame)) }
    /// Samples given to the encoder so far.
    public private(set) var sampleCount = 0

    /// Calls `lame_init` and `lame_init_params`.
    ///
    /// - throws: ``AudioError`` when LAME rejects the settings.
    /// - parameters:
    ///     - writesTag: Whether the stream starts with a LAME tag frame (see ``lameTagFrame()``).
    public init(sampleRate: Int, settings: AudioSettings, writesTag: Bool = true) throws {
        guard let lame = lame_init() else { throw AudioError("LAME could not be initialised (out of memory)") }
        self.lame = lame
        lame_set_in_samplerate(lame, Int32(sampleRate))
        lame_set_out_samplerate(lame, Int32(sampleRate))
        lame_set_num_channels(lame, 1)
        lame_set_mode(lame, MONO)
        lame_set_VBR(lame, vbr_off)
        lame_set_brate(lame, Int32(settings.bitrate))
        lame_set_quality(lame, Int32(settings.quality))
        lame_set_bWriteVbrTag(lame, writesTag ? 1 : 0)
        lame_set_write_id3tag_automatic(lame, 0)
        let status = lame_init_params(lame)
        guard status >= 0 else {
            lame_close(lame)
            throw AudioError("LAME rejected the settings (\(settings.bitrate) kbit/s at \(sampleRate) Hz, error \(status))")
        }
        guard lame_get_brate(lame) == Int32(settings.bitrate), lame_get_out_samplerate(lame) == Int32(sampleRate) else {
            let actual = lame_get_brate(lame)
            lame_close(lame)
            throw AudioError("MP3 at \(sampleRate) Hz cannot be \(settings.bitrate) kbit/s (LAME would use \(actual) kbit/s)")
        }
        samplesPerFrame = Int(lame_get_framesize(lame))
        buffer = [UInt8](repeating: 0, count: 16384)
    }

    deinit { lame_close(lame) }

    /// Encodes samples and returns the MP3 bytes that became ready (possibly none).
    ///
    /// Calls `lame_encode_buffer`.
    public func encode(_ samples: UnsafeBufferPointer<Int16>) throws -> ArraySlice<UInt8> {
        guard samples.count > 0 else { return [] }
        let needed = samples.count + samples.count / 4 + 7200  // LAME's documented worst case
        if buffer.count < needed { buffer = [UInt8](repeating: 0, count: needed) }
        let bytes = buffer.withUnsafeMutableBufferPointer { out in
            lame_encode_buffer(lame, samples.baseAddress, nil, Int32(samples.count), out.baseAddress, Int32(out.count))
        }
        guard bytes >= 0 else { throw AudioError("LAME failed to encode (error \(bytes))") }
        sampleCount += samples.count
        return buffer[0..<Int(bytes)]
    }

    /// Encodes the samples still buffered and returns the last MP3 bytes.
    ///
    /// Calls `lame_encode_flush`.
    public func flush() throws -> ArraySlice<UInt8> {
        if buffer.count < 7200 { buffer = [UInt8](repeating: 0, count: 7200) }
        let bytes = buffer.withUnsafeMutableBufferPointer { out in
            lame_encode_flush(lame, out.baseAddress, Int32(out.count))
        }
        guard bytes >= 0 else { throw AudioError("LAME failed to flush (error \(bytes))") }
        return buffer[0..<Int(bytes)]
    }

    /// The completed LAME/Xing tag frame, which replaces the stream's first frame. Call after ``flush()``.
    ///
    /// Calls `lame_get_lametag_frame`.
    public func lameTagFrame() throws -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: 2880)
        let size = frame.withUnsafeMutableBufferPointer { lame_get_lametag_frame(lame, $0.baseAddress, $0.count) }
        guard size > 0, size <= frame.count else { throw AudioError("LAME did not produce its tag frame") }
        return Array(frame[0..<size])
    }
}
