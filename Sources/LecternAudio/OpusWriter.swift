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
/// libopus at its best quality is the slowest encoder Lectern runs (a minute of speech takes
/// about a second of one core), so the stream is encoded in stretches on several threads at
/// once and joined: each stretch of about ``stretchSeconds`` ends at the quietest packet boundary
/// of the few seconds after that (``OpusEncoding/alignment``), its encoder starts ``leadIn``
/// before it (those packets are dropped; they only bring the encoder's state to where one
/// encoder over the whole stream would have it) and runs ``leadOut`` past its end. The cuts
/// depend on the samples alone, never on the threads, so one input gives the same bytes on any
/// number of cores; a stretch of speech joins the next within a pause, where a decoder cannot
/// tell the two encoders apart. The packets are laid into Ogg pages here (``OggPages``), after
/// libopusenc's own header packets (the pre-skip, the comments), with the granule positions one
/// encoder would write: a decoder gives back exactly the samples written, neither delayed nor
/// padded. The stream's serial number comes from the title, not from `rand()`, and libopusenc
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

    /// The bitrates libopusenc is asked for, in bit/s: from Opus's least for mono speech to its
    /// most useful mono rate.
    public static let bitrates = 6_000...256_000
    /// A stretch's least length, before its cut is looked for.
    public static let stretchSeconds = 30
    /// How far past ``stretchSeconds`` the quietest cut is looked for.
    static let searchSeconds = 5
    /// Packets encoded before a stretch's first and dropped (240 ms).
    static let leadIn = 4
    /// Packets encoded past a stretch's end and dropped (120 ms): its last kept packet sees the
    /// audio that follows it, as in one stream.
    static let leadOut = 2

    /// This stream's ``stretchSeconds`` (tests make it shorter, to have several cuts in a short input).
    var stretchLength = OpusWriter.stretchSeconds
    /// The book samples where one stretch ends and the next begins, so far.
    private(set) var cuts: [Int] = []

    private let encoding: OpusEncoding
    private let handle: FileHandle
    private var pending = PendingBytes()
    private var pages: OggPages
    private let work: OrderedWork<[[UInt8]]>
    private let threads: Int
    /// Samples not yet handed to a stretch's encoder; `buffer[0]` is book sample `bufferStart`.
    private var buffer: [Int16] = []
    private var bufferStart = 0
    /// Where the next stretch begins (a multiple of the alignment).
    private var stretchStart = 0
    /// The granule position (48 kHz samples, pre-skip included) after the packets written.
    private var granule: Int64 = 0
    private var pageStart: Int64 = 0
    /// The last packet made, held back until it is known whether it ends the stream.
    private var held: [UInt8]?
    private let preSkip: Int
    private var finished = false

    /// Creates (or truncates) the file at `url`, ready for samples, encoding on `threads` threads.
    ///
    /// - throws: ``AudioError`` naming the path when the file cannot be created, the rate or the
    ///   bitrate is out of range, or libopusenc rejects the metadata (a cover that is not a
    ///   JPEG, PNG or GIF).
    public init(url: URL, sampleRate: Int, bitrate: Int, metadata: AudioMetadata, threads: Int = 1) throws {
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
        encoding = OpusEncoding(sampleRate: sampleRate, bitrate: bitrate)
        let comments = try Self.comments(metadata, url: url)
        defer { ope_comments_destroy(comments) }
        let serial = Self.serialNumber(metadata.title)
        let headers: [[UInt8]]
        do { headers = try encoding.headerPackets(comments: comments, serialNumber: serial) } catch let error as AudioError {
            throw AudioError("cannot write \(url.path): \(error.message)")
        }
        // OpusHead: "OpusHead", version, channels, then the pre-skip (little-endian, 16 bits).
        preSkip = Int(headers[0][10]) | Int(headers[0][11]) << 8
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AudioError("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        pages = OggPages(serialNumber: UInt32(bitPattern: serial))
        self.threads = max(1, threads)
        work = OrderedWork(threads: self.threads)
        // The identification header alone on the first page, the comments on the next (or more):
        // audio begins on a page of its own.
        for header in headers {
            let bytes = header.withUnsafeBytes { pages.append($0, granule: 0) } + pages.flush()
            try pending.append(bytes[...], to: handle, url: url)
        }
    }

    deinit { work.close() }

    /// Encodes samples: hands each stretch to a thread as soon as its cut is known, and writes
    /// the stretches done. Memory stays bounded however many arrive: a stretch being gathered and
    /// at most one more per thread.
    /// - throws: ``AudioError`` when libopusenc fails or the file cannot be written.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !finished else { throw AudioError("cannot write to \(url.path): the Opus stream is finished") }
        buffer += samples
        sampleCount += samples.count
        let unit = encoding.alignment
        let least = stretchLength * sampleRate / unit * unit, window = Self.searchSeconds * sampleRate / unit * unit
        while sampleCount >= stretchStart + least + window + Self.leadOut * unit {
            let cut = quietestCut(from: stretchStart + least, through: stretchStart + least + window)
            try give(upTo: cut)
        }
        try writeDone(wait: false)
    }

    /// Encodes samples.
    public func write(_ samples: [Int16]) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Encodes samples.
    public func write(_ samples: ArraySlice<Int16>) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Encodes the last stretch, writes every packet and the last page (whose granule position
    /// ends the stream at the last sample written), then syncs and closes the file.
    /// - throws: ``AudioError`` when libopusenc fails or the file cannot be written or synced.
    public func finish() throws {
        guard !finished else { throw AudioError("cannot finish \(url.path): the Opus stream is finished") }
        finished = true
        defer { work.close() }
        try give(upTo: nil)
        try writeDone(wait: true)
        guard var last = held else { throw AudioError("cannot write \(url.path): libopusenc made no packet") }
        held = nil
        let end = Int64(preSkip + encoding.samples48k(sampleCount))
        guard end <= granule else { throw AudioError("cannot write \(url.path): its packets end at \(granule), before the audio's \(end)") }
        let bytes = last.withUnsafeBytes { pages.append($0, granule: end) } + pages.flush(endOfStream: true)
        last = []
        try pending.append(bytes[...], to: handle, url: url)
        try pending.drain(to: handle, url: url)
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw AudioError("cannot write \(url.path): \(FileError.reason(error))")
        }
    }

    /// The book sample in `lower...upper` (multiples of the alignment) where a cut falls in the
    /// quietest audio: the boundary whose packet before and packet after hold the least energy
    /// (the earliest of equals).
    private func quietestCut(from lower: Int, through upper: Int) -> Int {
        let unit = encoding.alignment
        func energy(_ block: Int) -> Int64 {
            let start = block * unit - bufferStart
            var sum: Int64 = 0
            for i in max(0, start)..<min(buffer.count, start + unit) { sum += Int64(buffer[i]) * Int64(buffer[i]) }
            return sum
        }
        var best = lower, bestEnergy = Int64.max
        var before = energy(lower / unit - 1)
        for boundary in stride(from: lower, through: upper, by: unit) {
            let after = energy(boundary / unit)
            if before + after < bestEnergy { (best, bestEnergy) = (boundary, before + after) }
            before = after
        }
        return best
    }

    /// Hands the stretch from `stretchStart` to `cut` (nil: to the end) to a thread, with its
    /// lead-in and lead-out, first writing what is done while as many stretches as there are
    /// threads and one more are in flight.
    private func give(upTo cut: Int?) throws {
        let unit = encoding.alignment
        let inputStart = max(0, stretchStart - Self.leadIn * unit)
        let inputEnd = cut.map { min(sampleCount, $0 + Self.leadOut * unit) } ?? sampleCount
        let samples = Array(buffer[(inputStart - bufferStart)..<(inputEnd - bufferStart)])
        let first = (stretchStart - inputStart) / unit
        let count = cut.map { ($0 - stretchStart) / unit }
        let encoding = self.encoding
        while work.inFlight > threads { try writeDone(wait: true, one: true) }
        work.give { try encoding.packets(samples, first: first, count: count) }
        if let cut {
            cuts.append(cut)
            stretchStart = cut
            let keep = cut - Self.leadIn * unit - bufferStart
            buffer.removeFirst(keep)
            bufferStart += keep
        } else {
            buffer = []
        }
    }

    /// Writes the stretches done, in order: those ready, or with `wait` all (or `one`).
    private func writeDone(wait: Bool, one: Bool = false) throws {
        while let result = wait ? work.next() : work.nextIfReady() {
            let packets: [[UInt8]]
            do { packets = try result.get() } catch let error as AudioError {
                throw AudioError("cannot write \(url.path): \(error.message)")
            }
            for packet in packets {
                if let previous = held {
                    var bytes = previous.withUnsafeBytes { pages.append($0, granule: granule) }
                    // A page ends once it holds a second of audio, as libopusenc's do.
                    if granule - pageStart >= 48000 {
                        bytes += pages.flush()
                        pageStart = granule
                    }
                    if !bytes.isEmpty { try pending.append(bytes[...], to: handle, url: url) }
                }
                granule += Int64(try OpusEncoding.duration(packet))
                held = packet
            }
            if one { return }
        }
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

    private static func libraryError(_ status: Int32, _ what: String, _ url: URL) -> AudioError {
        AudioError("cannot write \(url.path): libopusenc could not \(what): \(String(cString: ope_strerror(status)))")
    }
}
