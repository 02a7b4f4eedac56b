import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LecternCore
internal import COpusEnc

/// Encodes mono 16-bit PCM as it arrives into an Ogg Opus file with the book's metadata as
/// Vorbis comments (``VorbisComments``), its chapters and its cover, so a book's audio is never
/// held in memory.
///
/// Every call into libopusenc passes through this type. libopusenc resamples the book's rate to
/// Opus's 48 kHz, and writes the pre-skip (the encoder's and the resampler's delay) in the
/// header and the end in the last page's granule position, so that a decoder gives back exactly
/// the samples written, neither delayed nor padded. The same samples and metadata give the same
/// bytes: the stream's serial number comes from the title, not from `rand()`, and libopusenc
/// writes no date (its vendor string names only the libopus and libopusenc versions).
///
/// The file at `url` is a temporary one, which the caller renames into place after ``finish()``.
public final class OpusWriter: PCMSink {
    public let url: URL
    public let sampleRate: Int
    /// Bits per second of Opus (variable bitrate around this average).
    public let bitrate: Int
    /// Samples written so far; the decoded stream has exactly this many at ``sampleRate``.
    public private(set) var sampleCount = 0

    /// The encoder's effort, fixed so that one input always gives the same bytes: the most,
    /// which costs little next to speech synthesis.
    public static let complexity = 10
    /// The bitrates libopusenc is asked for, in bit/s: from Opus's least for mono speech to its
    /// most useful mono rate.
    public static let bitrates = 6_000...256_000

    private let output: Output
    private var encoder: OpaquePointer?
    private var finished = false

    /// Creates (or truncates) the file at `url`, ready for samples.
    ///
    /// - throws: ``AudioError`` naming the path when the file cannot be created, the rate or the
    ///   bitrate is out of range, or libopusenc rejects the metadata (a cover that is not a
    ///   JPEG, PNG or GIF).
    public init(url: URL, sampleRate: Int, bitrate: Int, metadata: AudioMetadata) throws {
        self.url = url
        self.sampleRate = sampleRate
        self.bitrate = bitrate
        guard (8000...192_000).contains(sampleRate) else {
            throw AudioError("cannot write \(url.path) as Opus at \(sampleRate) Hz: the rate must be 8000 to 192000 Hz")
        }
        guard Self.bitrates.contains(bitrate) else {
            throw AudioError("cannot write \(url.path) as Opus at \(bitrate) bit/s: the bitrate must be "
                             + "\(Self.bitrates.lowerBound) to \(Self.bitrates.upperBound) bit/s")
        }
        let comments = try Self.comments(metadata, url: url)
        defer { ope_comments_destroy(comments) }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AudioError("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        output = Output(fd: fd)

        var callbacks = OpusEncCallbacks(write: { user, bytes, length in
            Unmanaged<Output>.fromOpaque(user!).takeUnretainedValue().write(bytes!, Int(length)) ? 0 : 1
        }, close: { _ in 0 })  // the file is closed by finish(), after it is synced
        var error: Int32 = 0
        let encoder = ope_encoder_create_callbacks(&callbacks, Unmanaged.passUnretained(output).toOpaque(), comments,
                                                   Int32(sampleRate), 1, 0, &error)
        guard let encoder, error == OPE_OK else {
            if let encoder { ope_encoder_destroy(encoder) }
            throw Self.libraryError(error, "start the encoder", url)
        }
        self.encoder = encoder
        try set(OPE_SET_SERIALNO_REQUEST, Self.serialNumber(metadata.title), "the stream's serial number")
        // OPUS_APPLICATION_AUDIO, told the signal is speech. VOIP's gains are in intelligibility
        // scores (PESQ) at telephone rates, bought by high-pass filtering and emphasising formants,
        // so that, as the Opus documentation warns, its output sounds unlike its input even at high
        // bitrates; hours of narration at 24–64 kbit/s are listened to for the voice itself, which
        // AUDIO keeps. The speech hint still makes the encoder choose SILK or hybrid frames as VOIP
        // would for speech at these rates.
        try set(OPUS_SET_APPLICATION_REQUEST, OPUS_APPLICATION_AUDIO, "the application")
        try set(OPUS_SET_SIGNAL_REQUEST, OPUS_SIGNAL_VOICE, "the signal type")
        try set(OPUS_SET_BITRATE_REQUEST, Int32(bitrate), "the bitrate \(bitrate)")
        try set(OPUS_SET_COMPLEXITY_REQUEST, Int32(Self.complexity), "the complexity")
    }

    deinit {
        if let encoder { ope_encoder_destroy(encoder) }
        output.close()
    }

    /// Encodes samples. Memory stays bounded however many arrive: libopusenc holds at most its
    /// 2 s decision delay of audio and a page (at most 1 s) of packets before writing it out.
    /// - throws: ``AudioError`` when libopusenc fails or the file cannot be written.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let encoder, !finished else { throw AudioError("cannot write to \(url.path): the Opus stream is finished") }
        guard let base = samples.baseAddress else { return }
        var done = 0
        while done < samples.count {
            let n = min(samples.count - done, 1 << 16)
            try check(ope_encoder_write(encoder, base + done, Int32(n)), "encode its audio")
            done += n
            sampleCount += n
        }
    }

    /// Encodes samples.
    public func write(_ samples: [Int16]) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Encodes samples.
    public func write(_ samples: ArraySlice<Int16>) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Encodes what libopusenc still holds, writes the last page (whose granule position ends the
    /// stream at the last sample written), then syncs and closes the file.
    /// - throws: ``AudioError`` when libopusenc fails or the file cannot be written or synced.
    public func finish() throws {
        guard let encoder, !finished else { throw AudioError("cannot finish \(url.path): the Opus stream is finished") }
        finished = true
        try check(ope_encoder_drain(encoder), "finish the stream")
        ope_encoder_destroy(encoder)
        self.encoder = nil
        if let reason = output.sync() { throw AudioError("cannot write \(url.path): \(reason)") }
    }

    /// libopusenc's comments of `metadata`: ``VorbisComments`` and the cover.
    private static func comments(_ metadata: AudioMetadata, url: URL) throws -> OpaquePointer {
        guard let comments = ope_comments_create() else {
            throw AudioError("cannot write \(url.path): libopusenc could not allocate its comments (out of memory)")
        }
        do {
            for comment in VorbisComments(metadata).comments {
                let status = ope_comments_add(comments, comment.name, cText(comment.value))
                guard status == OPE_OK else { throw libraryError(status, "add its \(comment.name) comment", url) }
            }
            if let cover = metadata.cover {
                let status = cover.data.withUnsafeBytes { bytes in
                    ope_comments_add_picture_from_memory(comments, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                                         bytes.count, 3, nil)  // 3: front cover
                }
                guard status == OPE_OK else {
                    throw libraryError(status, "add its cover (\(cover.mimeType), \(cover.data.count) bytes; "
                                       + "libopusenc reads JPEG, PNG and GIF)", url)
                }
            }
        } catch {
            ope_comments_destroy(comments)
            throw error
        }
        return comments
    }

    /// The stream's Ogg serial number: FNV-1a of the title, so that one book always gets the
    /// same one and the chapter files of a split book, chained end to end, different ones.
    static func serialNumber(_ title: String) -> Int32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in title.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return Int32(bitPattern: hash)
    }

    /// A comment's value as C reads it: up to a NUL, which a Vorbis comment could hold but a C string cannot.
    private static func cText(_ value: String) -> String {
        value.contains("\0") ? value.replacingOccurrences(of: "\0", with: "") : value
    }

    private func set(_ request: Int32, _ value: Int32, _ what: String) throws {
        try check(copusenc_set_int(encoder, request, value), "set \(what)")
    }

    /// Throws the failure a status reports, or the file's when a write failed in libopusenc's callback.
    private func check(_ status: Int32, _ what: String) throws {
        if let reason = output.failure { throw AudioError("cannot write \(url.path): \(reason)") }
        guard status == OPE_OK else { throw Self.libraryError(status, what, url) }
    }

    private static func libraryError(_ status: Int32, _ what: String, _ url: URL) -> AudioError {
        AudioError("cannot write \(url.path): libopusenc could not \(what): \(String(cString: ope_strerror(status)))")
    }

    /// The open file libopusenc's pages go to, and the first failure to write them (libopusenc
    /// does not pass a callback's failure on).
    private final class Output {
        private var fd: Int32
        private(set) var failure: String?

        init(fd: Int32) { self.fd = fd }
        deinit { close() }

        /// Writes all of a page; false once a write has failed.
        func write(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
            guard failure == nil, fd >= 0 else { return false }
            var done = 0
            while done < count {
                let n = Glibc.write(fd, bytes + done, count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return false
                }
                done += n
            }
            return true
        }

        /// Syncs and closes the file; the reason it failed, or nil.
        func sync() -> String? {
            if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
            if fd >= 0, Glibc.close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
            fd = -1
            return failure
        }

        func close() {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }
}
