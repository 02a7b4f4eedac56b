import Foundation
import LecternCore

/// Puts a book's MP3 together: the ID3 tag, then the chunks' MP3 streams in order, with the
/// first chunk's LAME tag rewritten to describe the whole book. Written atomically.
public enum MP3BookAssembler {
    /// One encoded chunk.
    public struct Part: Sendable {
        public var url: URL
        public var audioFrames: Int
        public var bytes: Int
        public init(url: URL, audioFrames: Int, bytes: Int) {
            self.url = url
            self.audioFrames = audioFrames
            self.bytes = bytes
        }
    }

    /// - parameters:
    ///     - parts: The chunk streams in order; the first starts with a LAME tag frame.
    ///     - endPadding: Samples of the last chunk after its audio, which decoders must drop.
    public static func assemble(tag: ID3Tag, parts: [Part], endPadding: Int, output: URL) throws {
        guard let first = parts.first else { throw AudioError("no audio to assemble") }
        try AtomicFile.write(to: output) { handle in
            let id3 = tag.encoded()
            try handle.write(contentsOf: id3)
            let head = try read(first.url, upTo: 4096)
            let frameLength = head.withUnsafeBytes { MP3Frames.header(in: $0, at: 0)?.length } ?? 0
            var lame = try LAMETag(frame: Array(head.prefix(frameLength)))
            try handle.write(contentsOf: Data(lame.frame))  // rewritten below, once the CRC is known
            var crc = CRC16()
            for (i, part) in parts.enumerated() {
                try copy(part.url, to: handle, skipping: i == 0 ? frameLength : 0, crc: &crc)
            }
            lame.extend(frames: parts.dropFirst().reduce(0) { $0 + $1.audioFrames },
                        bytes: parts.dropFirst().reduce(0) { $0 + $1.bytes }, padding: endPadding, musicCRC: crc.value)
            try handle.seek(toOffset: UInt64(id3.count))
            try handle.write(contentsOf: Data(lame.frame))
        }
    }

    /// Writes `tag` and then the bytes of one tagged stream (for `lectern say`).
    public static func assemble(tag: ID3Tag, stream: URL, output: URL) throws {
        try AtomicFile.write(to: output) { handle in
            try handle.write(contentsOf: tag.encoded())
            var unused = CRC16()  // a single tagged stream needs no tag rewrite
            try copy(stream, to: handle, skipping: 0, crc: &unused)
        }
    }

    private static func read(_ url: URL, upTo count: Int) throws -> Data {
        guard let input = FileHandle(forReadingAtPath: url.path) else { throw AudioError("cannot read \(url.path)") }
        defer { try? input.close() }
        return try input.read(upToCount: count) ?? Data()
    }

    private static func copy(_ url: URL, to handle: FileHandle, skipping: Int, crc: inout CRC16) throws {
        guard let input = FileHandle(forReadingAtPath: url.path) else { throw AudioError("cannot read the chunk \(url.path)") }
        defer { try? input.close() }
        if skipping > 0 { try input.seek(toOffset: UInt64(skipping)) }
        while let block = try input.read(upToCount: 1 << 20), !block.isEmpty {
            crc.update(block)
            try handle.write(contentsOf: block)
        }
    }
}
