import CFFmpeg
import Foundation
import LecternCore

/// Encodes mono 16-bit PCM as it arrives into an M4B audiobook: AAC-LC from libavcodec's
/// native encoder in an MP4 from libavformat, with the encoder's priming cut by an edit list
/// (decoded audio starts at the first sample written), the chapters as a QuickTime chapter track
/// and a Nero `chpl`, every field of ``AudioMetadata`` as iTunes atoms (``MP4Metadata``), and the
/// index (`moov`) in front of the audio for players that stream the file.
///
/// At most one AAC frame (1024 samples) of input is held. The same samples and metadata give the
/// same bytes. `url` is a temporary file the caller renames into place after ``finish()``.
public final class M4BWriter: PCMSink {
    public let url: URL
    public let sampleRate: Int
    /// Samples written so far.
    public var sampleCount: Int { sent + buffered }
    /// Samples sent to the encoder: the next frame's time stamp.
    private var sent = 0
    private let metadata: AudioMetadata
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var stream: UnsafeMutablePointer<AVStream>?
    /// Samples in `frame` not yet sent to the encoder.
    private var buffered = 0
    private var frameSize = 1024
    private var finished = false

    /// Creates (or truncates) the file at `url`; `bitrate` in bits per second (64_000).
    public init(url: URL, sampleRate: Int, bitrate: Int, metadata: AudioMetadata) throws {
        self.url = url
        self.sampleRate = sampleRate
        self.metadata = metadata
        let path = url.path
        if av_log_get_level() > AV_LOG_ERROR { av_log_set_level(AV_LOG_ERROR) }  // not the encoder's statistics
        let fail = { (what: String, code: Int32) in AudioError("cannot write \(path): \(what): \(Self.message(code))") }

        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_alloc_output_context2(&context, nil, "ipod", path)
        guard status >= 0, let context else { throw fail("no MP4 muxer", status) }
        format = context
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw AudioError("cannot write \(path): this FFmpeg has no AAC encoder")
        }
        let rates = Self.supportedRates(codec)
        guard rates.isEmpty || rates.contains(sampleRate) else {
            throw AudioError("cannot write \(path): AAC cannot encode \(sampleRate) Hz; it takes "
                             + rates.sorted().map(String.init).joined(separator: ", ") + " Hz")
        }
        guard let encoder = avcodec_alloc_context3(codec) else { throw AudioError("cannot write \(path): out of memory") }
        self.encoder = encoder
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        encoder.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&encoder.pointee.ch_layout, 1)
        encoder.pointee.bit_rate = Int64(bitrate)
        encoder.pointee.profile = FF_PROFILE_AAC_LOW
        encoder.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        encoder.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        // The "fast" coder: six times less CPU than FFmpeg's default (twoloop) and a higher
        // wideband PESQ on speech at 64 kbit/s (4.34 against 4.10 on the demo text; the method and
        // numbers in docs/BENCHMARKS.md, "Formats").
        var coderOptions: OpaquePointer?
        av_dict_set(&coderOptions, "aac_coder", "fast", 0)
        defer { av_dict_free(&coderOptions) }
        status = avcodec_open2(encoder, codec, &coderOptions)
        guard status >= 0 else { throw fail("cannot open the AAC encoder at \(sampleRate) Hz, \(bitrate) bit/s", status) }
        frameSize = Int(encoder.pointee.frame_size)

        guard let stream = avformat_new_stream(context, nil) else { throw AudioError("cannot write \(path): out of memory") }
        self.stream = stream
        status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
        guard status >= 0 else { throw fail("cannot set up the audio stream", status) }
        stream.pointee.time_base = encoder.pointee.time_base
        if let code = BookDetails.iso639_2(metadata.language) {
            av_dict_set(&stream.pointee.metadata, "language", code, 0)
        }
        try Self.addChapters(metadata.chapters, to: context, path: path)
        context.pointee.flags |= AVFMT_FLAG_BITEXACT

        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw AudioError("cannot write \(path): out of memory")
        }
        self.frame = frame
        self.packet = packet
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.nb_samples = Int32(frameSize)
        av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.pointee.ch_layout)
        frame.pointee.sample_rate = Int32(sampleRate)
        status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw fail("cannot allocate a frame", status) }

        status = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
        guard status >= 0 else { throw fail("cannot open it for writing", status) }
        var options: OpaquePointer?
        av_dict_set(&options, "brand", "M4B ", 0)
        av_dict_set(&options, "use_editlist", "1", 0)
        av_dict_set(&options, "movflags", "disable_chpl", 0)  // MP4Metadata writes chpl with whole characters
        defer { av_dict_free(&options) }
        status = avformat_write_header(context, &options)
        guard status >= 0 else { throw fail("cannot write the MP4 header", status) }
    }

    deinit { release() }

    /// Appends samples.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !finished, let frame else { throw AudioError("cannot write \(url.path): the writer has finished") }
        var index = 0
        while index < samples.count {
            if buffered == 0 {
                let status = av_frame_make_writable(frame)
                guard status >= 0 else { throw failure("cannot reuse the frame", status) }
            }
            let n = min(frameSize - buffered, samples.count - index)
            let channel = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
            for i in 0..<n { channel[buffered + i] = Float(samples[index + i]) / 32768 }
            buffered += n
            index += n
            if buffered == frameSize { try sendFrame() }
        }
    }

    /// Appends samples.
    public func write(_ samples: [Int16]) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Appends samples.
    public func write(_ samples: ArraySlice<Int16>) throws {
        try samples.withUnsafeBufferPointer { try write($0) }
    }

    /// Encodes what is held, writes the moov box and the metadata, and syncs the file.
    public func finish() throws {
        guard !finished, let format, let encoder else { throw AudioError("cannot write \(url.path): the writer has finished") }
        if buffered > 0 { try sendFrame() }
        var status = avcodec_send_frame(encoder, nil)
        guard status >= 0 else { throw failure("cannot flush the AAC encoder", status) }
        try drainPackets()
        status = av_write_trailer(format)
        guard status >= 0 else { throw failure("cannot write the MP4 index", status) }
        status = avio_closep(&format.pointee.pb)
        guard status >= 0 else { throw failure("cannot close it", status) }
        finished = true
        release()
        try MP4Metadata.replaceUserData(in: url, with: MP4Metadata.userData(metadata), channelCount: 1)
    }

    private func sendFrame() throws {
        guard let encoder, let frame else { return }
        frame.pointee.nb_samples = Int32(buffered)
        frame.pointee.pts = Int64(sent)
        let status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw failure("the AAC encoder refused a frame", status) }
        sent += buffered
        buffered = 0
        try drainPackets()
    }

    /// Writes every packet the encoder has ready.
    private func drainPackets() throws {
        guard let encoder, let packet, let format, let stream else { return }
        while true {
            var status = avcodec_receive_packet(encoder, packet)
            if status == cffmpeg_error_again() || status == cffmpeg_error_eof() { return }
            guard status >= 0 else { throw failure("the AAC encoder failed", status) }
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            status = av_write_frame(format, packet)
            av_packet_unref(packet)
            guard status >= 0 else { throw failure("cannot write audio", status) }
        }
    }

    private func failure(_ what: String, _ code: Int32) -> AudioError {
        AudioError("cannot write \(url.path): \(what): \(Self.message(code))")
    }

    /// Frees FFmpeg's contexts (closing the file if it is still open).
    private func release() {
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
            self.format = nil
        }
        avcodec_free_context(&encoder)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// The chapters as AVChapters in milliseconds, from which the muxer writes the chapter track.
    private static func addChapters(_ chapters: [ID3Tag.ChapterMark], to context: UnsafeMutablePointer<AVFormatContext>,
                                    path: String) throws {
        guard !chapters.isEmpty else { return }
        var previousStart = 0
        for (i, mark) in chapters.enumerated() {
            guard mark.startMs >= previousStart, mark.endMs >= mark.startMs else {
                throw AudioError("cannot write \(path): chapter \(i + 1) (\"\(mark.title)\") runs from \(mark.startMs) ms to "
                                 + "\(mark.endMs) ms; chapters must start in order, at 0 ms or later, and end after they start")
            }
            previousStart = mark.startMs
        }
        let size = MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride
        guard let list = av_calloc(chapters.count, size) else { throw AudioError("cannot write \(path): out of memory") }
        let pointers = list.bindMemory(to: UnsafeMutablePointer<AVChapter>?.self, capacity: chapters.count)
        context.pointee.chapters = pointers
        for (i, mark) in chapters.enumerated() {
            guard let raw = av_mallocz(MemoryLayout<AVChapter>.size) else { throw AudioError("cannot write \(path): out of memory") }
            let chapter = raw.bindMemory(to: AVChapter.self, capacity: 1)
            chapter.pointee.id = Int64(i + 1)
            chapter.pointee.time_base = AVRational(num: 1, den: 1000)
            chapter.pointee.start = Int64(mark.startMs)
            chapter.pointee.end = Int64(mark.endMs)
            av_dict_set(&chapter.pointee.metadata, "title", mark.title, 0)
            pointers[i] = chapter
            context.pointee.nb_chapters = UInt32(i + 1)  // what avformat_free_context frees
        }
    }

    /// The sample rates `codec` lists (empty: it lists none).
    private static func supportedRates(_ codec: UnsafePointer<AVCodec>) -> [Int] {
        guard var rate = codec.pointee.supported_samplerates else { return [] }
        var rates: [Int] = []
        while rate.pointee != 0 {
            rates.append(Int(rate.pointee))
            rate += 1
        }
        return rates
    }

    /// FFmpeg's text for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
