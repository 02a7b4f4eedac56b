import Foundation
import LecternCore

/// Makes one ACX-ready chapter MP3 from the chapter's 16-bit mono PCM, fed a block at a time:
/// 44.1 kHz, 192 kbit/s CBR mono, room tone instead of digital silence, ACX's head and tail, the
/// peaks under −3 dBFS, and the chapter's ID3 tag in front — what `lectern check --acx` passes.
///
/// The chain, in bounded memory whatever the chapter's length:
/// 1. **Head and tail** (``RoomToneEdges``): the quiet before the first sound (a 10 ms block over
///    −50 dBFS) is trimmed or padded to ``headRoomTone`` (0.75 s), and after the last sound the
///    file has ``tailRoomTone`` (2.5 s). Pauses inside the chapter are kept as they are.
/// 2. **Upsampling**: 22050 Hz PCM is doubled to 44100 Hz by a linear-phase half-band filter
///    (``HalfBandUpsampler``) whose delay is compensated, so input sample s is output sample
///    2 (s − ``headTrim``); 44100 Hz PCM passes as it is. Other rates are an error.
/// 3. **Room tone** (``RoomTone``): a deterministic noise bed at −70 dB RMS under the whole file,
///    so no stretch is digital silence (which ACX rejects) and the noise floor stays far under
///    −60 dB. The same PCM makes the same bytes on every run.
/// 4. **Peaks**: a look-ahead limiter (``StreamingPeakLimiter``) at ``peakCeiling``
///    (−3.2 dBFS sample peak), a safety net for audio the pipeline has levelled already
///    (the ACX profile's `loudness:` target −19 LUFS, true peak −3.5 dB, sets the RMS in
///    ACX's −23…−18 dB); it leaves levelled speech untouched.
/// 5. **Encoding**: LAME, MPEG-1 Layer III at 192 kbit/s CBR. The stream's first frame is LAME's
///    "Info" tag (CBR; decoders use it to drop the encoder delay and padding), never a "Xing"
///    (VBR) tag.
///
/// **Times move.** Trimming the head shifts every time in the chapter: a time t (seconds) in the
/// chapter's PCM is at t − ``headTrim`` / input rate in this file — earlier by the chapter's
/// leading quiet beyond 0.75 s, or later when it had less. The book's sidecar times (timings,
/// subtitles, read-along) are those of the book's own file, not of the ACX files.
///
/// The file goes to `url` (a temporary path the caller renames into place) and is synced by
/// ``finish()``. One writer belongs to one thread at a time.
public final class ACXMasterWriter: PCMSink {
    /// ACX's sample rate, in Hz.
    public static let sampleRate = 44100
    /// ACX's minimum bitrate, the one written, in kbit/s (CBR).
    public static let bitrate = 192
    /// Seconds of room tone before the first sound (ACX: 0.5 … 1 s).
    public static let headRoomTone = 0.75
    /// Seconds of room tone after the last sound (ACX: 1 … 5 s).
    public static let tailRoomTone = 2.5
    /// The limiter's ceiling in dBFS (ACX: peaks ≤ −3 dB, less the encoder's overshoot).
    public static let peakCeiling = -3.2

    public let url: URL
    public let inputSampleRate: Int
    private let encoder: MP3Encoder
    private let handle: FileHandle
    private let tagLength: Int
    private var edges: RoomToneEdges
    private var upsampler: HalfBandUpsampler?
    private var roomTone: RoomTone
    private var limiter: StreamingPeakLimiter
    private var gated: [Int16] = []
    private var floats: [Float] = []
    private var upsampled: [Float] = []
    private var limited: [Float] = []
    private var pcm: [Int16] = []
    private var pending = PendingBytes()
    private var finished = false

    /// Input samples trimmed from the chapter's head (negative: room tone added in front), known
    /// once the first sound is found (at the latest at ``finish()``). An input time t is at
    /// t − headTrim / ``inputSampleRate`` seconds in the file.
    public var headTrim: Int? { edges.trimmed }

    /// Creates (or truncates) the file at `url` and writes the ID3 tag of `metadata` at its start.
    ///
    /// - parameters:
    ///     - inputSampleRate: The PCM's rate: 22050 Hz (upsampled) or 44100 Hz.
    ///     - quality: LAME's algorithm quality (0 best … 9 fastest).
    /// - throws: ``AudioError`` for another rate, or when the file cannot be created.
    public init(url: URL, inputSampleRate: Int, metadata: AudioMetadata,
                quality: Int = AudioSettings.defaultQuality) throws {
        guard inputSampleRate == Self.sampleRate || inputSampleRate * 2 == Self.sampleRate else {
            throw AudioError("an ACX chapter file is made from speech at 22050 Hz or 44100 Hz, and this speech is at "
                             + "\(inputSampleRate) Hz: use a voice that speaks at one of those rates (espeak-ng's is 22050 Hz)")
        }
        self.url = url
        self.inputSampleRate = inputSampleRate
        edges = RoomToneEdges(sampleRate: inputSampleRate, headSeconds: Self.headRoomTone, tailSeconds: Self.tailRoomTone)
        upsampler = inputSampleRate == Self.sampleRate ? nil : HalfBandUpsampler()
        roomTone = RoomTone(sampleRate: Self.sampleRate)
        limiter = StreamingPeakLimiter(ceilingDB: Self.peakCeiling, sampleRate: Self.sampleRate)
        encoder = try MP3Encoder(sampleRate: Self.sampleRate, settings: AudioSettings(bitrate: Self.bitrate, quality: quality))
        let tag = try ID3Tag(metadata).encoded()
        tagLength = tag.count
        guard FileManager.default.createFile(atPath: url.path, contents: tag) else {
            throw AudioError("cannot create \(url.path): check that its folder exists and is writable")
        }
        do {
            handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
        } catch {
            throw AudioError("cannot open \(url.path) for writing: \(FileError.reason(error))")
        }
    }

    deinit { try? handle.close() }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !finished else { throw AudioError("\(url.path) is finished; no more audio can be written to it") }
        gated.removeAll(keepingCapacity: true)
        edges.process(samples, into: &gated)
        try push(final: false)
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        gated.removeAll(keepingCapacity: true)
        edges.finish(into: &gated)
        try push(final: true)
        try pending.append(encoder.flush(), to: handle, url: url)
        try pending.drain(to: handle, url: url)
        do {
            try handle.seek(toOffset: UInt64(tagLength))
            try handle.write(contentsOf: Data(try encoder.lameTagFrame()))
            try handle.synchronize()
            try handle.close()
        } catch let error as AudioError {
            throw error
        } catch {
            throw AudioError("cannot write \(url.path): \(FileError.reason(error))")
        }
    }

    /// Takes `gated` through the upsampler, the room tone and the limiter into the encoder.
    private func push(final: Bool) throws {
        floats.removeAll(keepingCapacity: true)
        floats.append(contentsOf: gated.lazy.map { Float($0) / 32768 })
        upsampled.removeAll(keepingCapacity: true)
        if upsampler != nil {
            floats.withUnsafeBufferPointer { upsampler!.process($0, into: &upsampled) }
            if final { upsampler!.finish(into: &upsampled) }
        } else {
            upsampled.append(contentsOf: floats)
        }
        roomTone.add(to: &upsampled)
        limited.removeAll(keepingCapacity: true)
        limiter.process(upsampled, into: &limited)
        if final { limiter.finish(into: &limited) }
        guard !limited.isEmpty else { return }
        pcm.removeAll(keepingCapacity: true)
        pcm.append(contentsOf: limited.lazy.map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) })
        try pcm.withUnsafeBufferPointer { try pending.append(encoder.encode($0), to: handle, url: url) }
    }
}
