import Foundation
import LecternCore
internal import COpusEnc

/// How every stretch of one Ogg Opus stream is encoded, and the encoding of one stretch by
/// libopusenc into packets kept in memory (``OpusWriter`` joins them into one stream).
///
/// Every stretch's encoder is set up alike, so their packets fit one stream: libopusenc resamples
/// the input to Opus's 48 kHz with the resampler's delay skipped, so an encoder started at an
/// input sample that falls on a packet boundary at 48 kHz (a multiple of ``alignment``) makes
/// packets that lie exactly where one encoder over the whole stream would put its own.
struct OpusEncoding: Sendable {
    let sampleRate: Int
    /// Bits per second (variable bitrate around this average).
    let bitrate: Int

    /// The encoder's effort, fixed so that one input always gives the same bytes: the most (what
    /// opusenc uses too); complexity 9 or 8 saves no time, and 7 or less costs clarity.
    static let complexity: Int32 = 10
    /// One packet: 60 ms at 48 kHz. Opus's longest frame costs a tenth less time than 20 ms
    /// frames on speech and sounds the same or better (wideband PESQ 3.990 against 3.971 for
    /// the demo at 32 kbit/s), and latency does not matter to a file.
    static let packetSamples48k = 2880

    /// Input samples per packet boundary at 48 kHz: the smallest count of input samples that is
    /// a whole number of packets (1323 at 22,050 Hz: 60 ms).
    var alignment: Int {
        let product = sampleRate * Self.packetSamples48k
        return product / Self.gcd(product, 48000)
    }

    /// How many samples at 48 kHz `inputSamples` samples at ``sampleRate`` make, rounded up (as
    /// libopusenc counts a stream's end).
    func samples48k(_ inputSamples: Int) -> Int { (inputSamples * 48000 + sampleRate - 1) / sampleRate }

    /// The widest band Opus is asked to code: up to the input's Nyquist frequency, so that no
    /// bits go to a band the input cannot hold (22,050 Hz input: super-wideband, 12 kHz).
    var maxBandwidth: Int32 {
        switch sampleRate / 2 {
        case ...4000: OPUS_BANDWIDTH_NARROWBAND
        case ...6000: OPUS_BANDWIDTH_MEDIUMBAND
        case ...8000: OPUS_BANDWIDTH_WIDEBAND
        case ...12000: OPUS_BANDWIDTH_SUPERWIDEBAND
        default: OPUS_BANDWIDTH_FULLBAND
        }
    }

    /// The identification and comment header packets (`OpusHead`, `OpusTags`) of a stream with
    /// these settings, `comments` and serial number.
    func headerPackets(comments: OpaquePointer, serialNumber: Int32) throws -> [[UInt8]] {
        let collector = PacketCollector(skipping: 0)
        let encoder = try start(collector, comments: comments, serialNumber: serialNumber)
        defer { ope_encoder_destroy(encoder) }
        try check(ope_encoder_flush_header(encoder), "write the headers")
        guard collector.packets.count == 2 else {
            throw AudioError("libopusenc made \(collector.packets.count) header packets, not 2")
        }
        return collector.packets
    }

    /// The audio packets of `samples` encoded as one stream, from packet `first` on (the
    /// packets of a lead-in are not kept), at most `count` of them (nil: to the stream's end).
    func packets(_ samples: [Int16], first: Int, count: Int?) throws -> [[UInt8]] {
        guard let comments = ope_comments_create() else { throw AudioError("libopusenc could not allocate its comments (out of memory)") }
        defer { ope_comments_destroy(comments) }
        let collector = PacketCollector(skipping: 2)  // the header packets come first
        let encoder = try start(collector, comments: comments)
        defer { ope_encoder_destroy(encoder) }
        // libopusenc 0.2.1 drains a stream it was given no sample into too short a padding and
        // fails an assertion: an empty stream gets one silent sample, which the stream's end
        // (the last granule position, from the samples the book has) trims off again.
        try (samples.isEmpty ? [0] : samples).withUnsafeBufferPointer { pcm in
            var done = 0
            while done < pcm.count {
                let n = min(pcm.count - done, 1 << 16)
                try check(ope_encoder_write(encoder, pcm.baseAddress! + done, Int32(n)), "encode its audio")
                done += n
            }
        }
        try check(ope_encoder_drain(encoder), "finish a stretch")
        let end = count.map { min(collector.packets.count, first + $0) } ?? collector.packets.count
        guard first <= end else { throw AudioError("libopusenc made \(collector.packets.count) packets of a stretch, fewer than its \(first) of lead-in") }
        if let count, end - first != count {
            throw AudioError("libopusenc made \(end - first) packets of a stretch, not \(count)")
        }
        return Array(collector.packets[first..<end])
    }

    /// A packet's length in samples at 48 kHz, as its table of contents gives it.
    static func duration(_ packet: [UInt8]) throws -> Int {
        let n = packet.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.map { opus_packet_get_nb_samples($0, Int32(bytes.count), 48000) } ?? 0
        }
        guard n > 0 else { throw AudioError("libopus cannot read a packet libopusenc made (\(packet.count) bytes)") }
        return Int(n)
    }

    /// An encoder with these settings whose pages go nowhere and whose packets go to `collector`.
    private func start(_ collector: PacketCollector, comments: OpaquePointer, serialNumber: Int32 = 0) throws -> OpaquePointer {
        var callbacks = OpusEncCallbacks(write: { _, _, _ in 0 }, close: { _ in 0 })
        var error: Int32 = 0
        guard let encoder = ope_encoder_create_callbacks(&callbacks, nil, comments, Int32(sampleRate), 1, 0, &error), error == OPE_OK else {
            throw AudioError("libopusenc could not start the encoder: \(String(cString: ope_strerror(error)))")
        }
        do {
            // The serial number first: some libopusenc releases fall through from this request into
            // the packet callback's, which is set after it.
            try check(copusenc_set_int(encoder, OPE_SET_SERIALNO_REQUEST, serialNumber), "set the stream's serial number")
            try check(copusenc_set_packet_callback(encoder, { user, bytes, length, _ in
                Unmanaged<PacketCollector>.fromOpaque(user!).takeUnretainedValue().add(bytes!, Int(length))
            }, Unmanaged.passUnretained(collector).toOpaque()), "hand over its packets")
            // OPUS_APPLICATION_AUDIO, told the signal is speech. VOIP's gains are in intelligibility
            // scores (PESQ) at telephone rates, bought by high-pass filtering and emphasising formants,
            // so that, as the Opus documentation warns, its output sounds unlike its input even at high
            // bitrates; hours of narration at 24–64 kbit/s are listened to for the voice itself, which
            // AUDIO keeps. The speech hint still makes the encoder choose SILK or hybrid frames as VOIP
            // would for speech at these rates.
            try check(copusenc_set_int(encoder, OPUS_SET_APPLICATION_REQUEST, OPUS_APPLICATION_AUDIO), "set the application")
            try check(copusenc_set_int(encoder, OPUS_SET_SIGNAL_REQUEST, OPUS_SIGNAL_VOICE), "set the signal type")
            try check(copusenc_set_int(encoder, OPUS_SET_BITRATE_REQUEST, Int32(bitrate)), "set the bitrate \(bitrate)")
            try check(copusenc_set_int(encoder, OPUS_SET_COMPLEXITY_REQUEST, Self.complexity), "set the complexity")
            try check(copusenc_set_int(encoder, OPUS_SET_MAX_BANDWIDTH_REQUEST, maxBandwidth), "set the bandwidth")
            try check(copusenc_set_int(encoder, OPUS_SET_EXPERT_FRAME_DURATION_REQUEST, OPUS_FRAMESIZE_60_MS), "set the frame length")
        } catch {
            ope_encoder_destroy(encoder)
            throw error
        }
        return encoder
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == OPE_OK else { throw AudioError("libopusenc could not \(what): \(String(cString: ope_strerror(status)))") }
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The packets libopusenc hands over, after the first `skipping`.
    private final class PacketCollector {
        private var skipping: Int
        private(set) var packets: [[UInt8]] = []
        init(skipping: Int) { self.skipping = skipping }
        func add(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
            if skipping > 0 { skipping -= 1 } else { packets.append(Array(UnsafeBufferPointer(start: bytes, count: count))) }
        }
    }
}
