import Foundation
import LecternCore
import LecternAudio

/// The decoded book as PCM, rebuilt from the chunks' kept PCM files laid on the book's timeline:
/// chunk k's input sample s at `startSample(k) + s`, exactly where the MP3 plays it, silence
/// between (where the MP3 has an encoder's delay and padding). So a format encoded from it has
/// the MP3's chapter times and the sidecar's word times, sample for sample.
///
/// ``stream(to:)`` reads each chunk once, a block at a time, and hands every target only the
/// samples of its own range: the book's file gets all, a chapter's file its chapter. Memory is a
/// block, whatever the book's length.
public struct BookPCM {
    /// One chunk's PCM file and where its first sample lies in the book.
    public struct Chunk: Sendable {
        public var url: URL
        public var startSample: Int
        public var sampleCount: Int
        public init(url: URL, startSample: Int, sampleCount: Int) {
            self.url = url
            self.startSample = startSample
            self.sampleCount = sampleCount
        }
    }

    /// A file made from part of the book: the range of book samples it takes, and how to start
    /// its encoder. An encoder is started when the stream reaches its range and finished as soon
    /// as the stream passes it, so a book of many chapter files holds one chapter's encoders at a
    /// time, not every chapter's.
    public final class Target {
        public let range: Range<Int>
        let make: () throws -> any PCMSink
        var sink: (any PCMSink)?
        var finished = false
        public init(range: Range<Int>, make: @escaping () throws -> any PCMSink) {
            self.range = range
            self.make = make
        }

        func write(_ samples: UnsafeBufferPointer<Int16>) throws {
            if sink == nil { sink = try make() }
            try sink!.write(samples)
        }

        func finish() throws {
            guard !finished else { return }
            finished = true
            if sink == nil { sink = try make() }
            try sink!.finish()
            sink = nil
        }
    }

    public let chunks: [Chunk]
    /// The decoded book's length in samples.
    public let sampleCount: Int

    public init(chunks: [Chunk], sampleCount: Int) {
        self.chunks = chunks
        self.sampleCount = sampleCount
    }

    /// Feeds every target its range of the book, in order, then finishes each.
    /// - throws: ``ExportError`` when a chunk's PCM file is missing, damaged or of the wrong
    ///   length (the cache was changed under the run); the encoders' errors as they are.
    public func stream(to targets: [Target]) throws {
        var position = 0
        let silence = [Int16](repeating: 0, count: 4096)
        func emit(_ samples: UnsafeBufferPointer<Int16>) throws {
            let span = position..<(position + samples.count)
            for target in targets where target.range.overlaps(span) {
                let lower = max(span.lowerBound, target.range.lowerBound) - position
                let upper = min(span.upperBound, target.range.upperBound) - position
                try target.write(UnsafeBufferPointer(rebasing: samples[lower..<upper]))
            }
            position += samples.count
            for target in targets where target.range.upperBound <= position { try target.finish() }
        }
        func emitSilence(until end: Int) throws {
            while position < end {
                let n = min(end - position, silence.count)
                try silence.withUnsafeBufferPointer { try emit(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
        }
        for chunk in chunks {
            try emitSilence(until: chunk.startSample)
            guard position == chunk.startSample else {
                throw ExportError("the chunk PCM \(chunk.url.path) would start at sample \(chunk.startSample), inside the chunk before it")
            }
            let end = chunk.startSample + chunk.sampleCount
            do {
                try PCMChunkFile.read(chunk.url) { block in
                    let n = min(block.count, max(0, end - position))
                    // An encoder's error (a full disk) is the encoder's, not the chunk's.
                    do { try emit(UnsafeBufferPointer(rebasing: block[0..<n])) } catch { throw TargetFailure(error: error) }
                }
            } catch let failure as TargetFailure {
                throw failure.error
            } catch let error as AudioError {
                throw ExportError("cannot read the chunk PCM \(chunk.url.path) from the cache: \(error.message)")
            }
            guard position == end else {
                throw ExportError("the chunk PCM \(chunk.url.path) holds \(position - chunk.startSample) samples, not \(chunk.sampleCount): the cache was changed during the run; run the job again")
            }
        }
        try emitSilence(until: sampleCount)
        for target in targets { try target.finish() }
    }

    /// An error of a target's, carried through the chunk reader unchanged.
    private struct TargetFailure: Error { var error: Error }
}
